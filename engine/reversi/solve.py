"""Exact endgame solver: the final disc difference for the side to move under perfect play.

    python -m engine.solve "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
    python -m engine.solve "<64 squares> <X|O>" --variant reversed --json
    python -m engine.solve "<64 squares> <X|O>" --all      # exact score of every legal move

Scores follow the FFO/Edax convention: empty squares left at the end go to the winner (to the
loser in Reversed Reversi, whose score is the negated Othello score).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from engine.reversi.position import Position, Variant, move_name
from engine.reversi.search import NO_MOVE, Searcher
from engine.reversi.weights_io import reference_weights


def solve_position(position: Position, variant: Variant, all_moves: bool = False) -> dict:
    """Exact score (side to move) and a best move; with ``all_moves`` every move's score too."""
    # Weights only order moves in exact mode they never score; any set will do.
    searcher = Searcher(reference_weights("wpc"), variant, endgame_empties=64, tt_bits=20)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.solve", description=__doc__.split("\n")[0]
    )
    parser.add_argument("position", help='"<64 squares a1..h8: X O -> <side to move X|O>"')
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
        position = Position.parse(args.position)
        variant = Variant.parse(args.variant)
        if position.empties > args.max_empties:
            raise ValueError(
                f"position has {position.empties} empty squares, more than "
                f"--max-empties {args.max_empties}"
            )
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    result = solve_position(position, variant, args.all)
    print(json.dumps(result) if args.json else format_text(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
