"""Exact endgame solver: the final disc difference for the side to move under perfect play.

    python -m engine.solve "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
    python -m engine.solve "<64 squares> <X|O>" --variant reversed --json
    python -m engine.solve "<64 squares> <X|O>" --all      # exact score of every legal move
    python -m engine.solve --file ffo_20_39.obf --first 20  # a file of positions, checked

Scores follow the FFO/Edax convention: empty squares left at the end go to the winner (to the
loser in Reversed Reversi, whose score is the negated Othello score).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from engine.reversi.files import reference_weights
from engine.reversi.rules.state import Position, Variant, move_name, parse_move
from engine.reversi.search.searcher import NO_MOVE, Searcher

TT_BITS = 21  # 2M entries (48 MB): the FFO #20-#39 benchmark runs faster than with 2**20


def solve_position(
    position: Position, variant: Variant, all_moves: bool = False, searcher: Searcher | None = None
) -> dict:
    """Exact score (side to move) and a best move; with ``all_moves`` every move's score too."""
    # The exact solver never uses the evaluation weights: any set will do.
    searcher = searcher or Searcher(reference_weights("wpc"), variant, 64, tt_bits=TT_BITS)
    start = time.perf_counter()
    result = searcher.solve(position)
    out = {
        "position": position.to_string(),
        "variant": variant.value,
        "side_to_move": "X" if position.black_to_move else "O",
        "empties": position.empties,
        "score": int(result.score),
        "best_move": "none" if result.move == NO_MOVE else move_name(result.move),
        "nodes": result.nodes,
    }
    if all_moves:
        scores = {}
        for move in position.legal_moves():
            child = searcher.solve(position.play(move))
            scores[move_name(move)] = -int(child.score)
            out["nodes"] += child.nodes
        out["move_scores"] = dict(sorted(scores.items(), key=lambda kv: -kv[1]))
    out["seconds"] = round(time.perf_counter() - start, 4)
    return out


def read_obf(path: Path) -> list[tuple[Position, dict[str, int]]]:
    """Lines ``<position> <side>; MOVE:SCORE; ...`` (Edax's .obf): positions and known scores."""
    out = []
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        fields = [f.strip() for f in line.split(";") if f.strip()]
        if not fields or fields[0].startswith("%"):
            continue
        try:
            scores = {}
            for pair in fields[1:]:
                move, score = pair.split(":")
                scores[move_name(parse_move(move))] = int(score)
            out.append((Position.parse(fields[0]), scores))
        except ValueError as e:
            raise ValueError(f"{path} line {number}: {e}") from None
    return out


def solve_file(path: Path, variant: Variant, first: int = 1, echo=None,
               progress: bool = False) -> list[dict]:
    """Solve every position of an .obf file; each result says whether it matches the file.

    A result matches when its score equals the best listed score and its best move, if listed,
    has that score. One table serves the whole file (cleared between positions). ``progress``:
    a bar with ETA on stderr (positions of growing difficulty make the ETA a lower bound).
    """
    searcher = Searcher(reference_weights("wpc"), variant, 64, tt_bits=TT_BITS)
    rows = []
    positions = read_obf(path)
    bar = _bar(len(positions), progress)
    for number, (position, scores) in enumerate(positions, start=first):
        searcher.clear()
        t0 = time.process_time()
        r = solve_position(position, variant, searcher=searcher)
        r["cpu_seconds"] = round(time.process_time() - t0, 4)
        r["number"] = number
        r["expected"] = max(scores.values()) if scores else None
        r["matches"] = not scores or (
            r["score"] == r["expected"] and scores.get(r["best_move"], r["score"]) == r["score"]
        )
        rows.append(r)
        if echo:
            (bar.write if bar else echo)(format_row(r))
        if bar:
            bar.update()
    if bar:
        bar.close()
    return rows


def _bar(total: int, enabled: bool):
    if not (enabled and sys.stderr.isatty()):
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc="solving", unit="position", file=sys.stderr, leave=False)


def format_row(r: dict) -> str:
    rate = r["nodes"] / r["seconds"] / 1e6 if r["seconds"] else 0.0
    check = "ok" if r["matches"] else f"WRONG (file: {r['expected']:+d})"
    return (f"#{r['number']:<3} empties {r['empties']:2d}  {r['best_move']:>4} {r['score']:+3d}  "
            f"{check}  nodes {r['nodes']:>13,}  {r['seconds']:8.3f} s  {rate:5.1f} M nodes/s")


def format_text(r: dict) -> str:
    side = "X (black)" if r["side_to_move"] == "X" else "O (white)"
    s = r["score"]
    outcome = "wins by" if s > 0 else "loses by" if s < 0 else "draws"
    lines = [
        f"score: {s:+d} ({side} to move {outcome}{'' if s == 0 else ' ' + str(abs(s))}, "
        f"{r['variant']} rules)",
        f"best move: {r['best_move']}",
    ]
    if "move_scores" in r:
        lines.append("moves: " + "  ".join(f"{m}:{v:+d}" for m, v in r["move_scores"].items()))
    lines.append(f"nodes: {r['nodes']}  seconds: {r['seconds']}")
    return "\n".join(lines)


def run_file(args) -> int:
    """``--file``: one line per position and a total; exit 1 if any score disagrees."""
    echo = None if args.json else print
    rows = solve_file(args.file, Variant.parse(args.variant), args.first, echo,
                      progress=not args.json)
    wrong = [r["number"] for r in rows if not r["matches"]]
    seconds = sum(r["seconds"] for r in rows)
    nodes = sum(r["nodes"] for r in rows)
    if args.json:
        print(json.dumps({"positions": rows, "seconds": round(seconds, 3), "nodes": nodes}))
    else:
        print(f"total: {len(rows)} positions, {len(wrong)} wrong, nodes {nodes:,}, "
              f"{seconds:.2f} s, {nodes / max(seconds, 1e-9) / 1e6:.1f} M nodes/s")
    return 1 if wrong else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.solve", description=__doc__.split("\n")[0]
    )
    parser.add_argument("position", nargs="?",
                        help='"<64 squares a1..h8: X O -> <side to move X|O>"')
    parser.add_argument("--file", type=Path, help="solve every position of an .obf file and "
                        "check the scores it lists (exit 1 if one differs)")
    parser.add_argument("--first", type=int, default=1,
                        help="number of the file's first position in the output (default 1)")
    parser.add_argument("--variant", default="othello", help="othello (default) or reversed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--all", action="store_true", help="also solve every legal move")
    parser.add_argument(
        "--max-empties",
        type=int,
        default=30,
        help="refuse positions with more empty squares (default 30: beyond that "
        "an exact solve takes hours)",
    )
    args = parser.parse_args(argv)
    try:
        variant = Variant.parse(args.variant)
        if (args.position is None) == (args.file is None):
            raise ValueError("give either a position or --file FILE.obf")
        if args.file is not None:
            if not args.file.is_file():
                raise ValueError(f"--file {args.file}: no such file")
            positions = [p for p, _ in read_obf(args.file)]
        else:
            positions = [Position.parse(args.position)]
        for position in positions:
            if position.empties > args.max_empties:
                raise ValueError(
                    f"position has {position.empties} empty squares, more than "
                    f"--max-empties {args.max_empties}"
                )
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.file is not None:
        return run_file(args)
    result = solve_position(positions[0], variant, args.all)
    print(json.dumps(result) if args.json else format_text(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
