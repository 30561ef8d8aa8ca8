"""Exact Hexifence solver: the final cell margin for the side to move under perfect play.

    python -m engine.solve --game hexifence --file BOARD.txt --json
    python -m engine.solve --game hexifence --file BOARD.txt --all   # every move's value

BOARD.txt is the course's board text (N, then the 4N-1 grid rows) with an optional last line
``blue`` or ``red`` naming the side to move (blue if absent). The value counts every cell,
including those already captured. The empty N=2 board takes seconds; N=3 positions are
refused above ``--max-empties`` undrawn edges (default 30) unless raised.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from engine.hexifence.genome.evaluation import N_FEATURES
from engine.hexifence.rules.state import PLAYER_NAMES, State, from_text
from engine.hexifence.search.searcher import Searcher


def solve_state(state: State, all_moves: bool = False, tt_bits: int = 22) -> dict:
    """Value for the side to move, its best moves ("row col"), and optionally every move's."""
    searcher = Searcher(np.zeros((1, N_FEATURES)), state.size, tt_bits)
    start = time.perf_counter()
    root = searcher.solve(state)
    scores, nodes = {}, root.nodes
    if all_moves or not state.is_terminal():
        moves = state.legal_moves() if all_moves else [root.move]
        for move in moves:
            child = state.play(move)
            result = searcher.solve(child)
            same = child.to_move == state.to_move
            scores[move] = int(result.value if same else -result.value)
            nodes += result.nodes
    b = state.board
    name = {m: "{} {}".format(*divmod(m, b.width)) for m in scores}
    value = int(root.value)
    out = {"game": "hexifence", "size": state.size, "side_to_move": PLAYER_NAMES[state.to_move],
           "empty_edges": state.empty_edges, "value": value,
           "best_moves": [name[m] for m in scores if scores[m] == value]}
    if all_moves:
        out["move_values"] = {name[m]: v for m, v in sorted(scores.items(), key=lambda kv: -kv[1])}
    out["nodes"] = int(nodes)
    out["seconds"] = round(time.perf_counter() - start, 3)
    return out


def format_text(r: dict) -> str:
    v = r["value"]
    verdict = "wins by" if v > 0 else "loses by" if v < 0 else "draws"
    lines = [f"value: {v:+d} ({r['side_to_move']} to move {verdict} {abs(v)} cells)",
             f"best moves: {', '.join(r['best_moves']) or 'none (game over)'}"]
    if "move_values" in r:
        lines.append("moves: " + "  ".join(f"{m}:{x:+d}" for m, x in r["move_values"].items()))
    lines.append(f"nodes: {r['nodes']}  seconds: {r['seconds']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.solve --game hexifence",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--file", required=True, help="board text file ('-' for stdin)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--all", action="store_true", help="also give every legal move's value")
    parser.add_argument("--max-empties", type=int, default=30,
                        help="refuse positions with more undrawn edges (default 30)")
    parser.add_argument("--tt-bits", type=int, default=22, help="table size, 2**bits entries")
    args = parser.parse_args(argv)
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text()
        state = from_text(text)
        if state.empty_edges > args.max_empties:
            raise ValueError(f"the position has {state.empty_edges} undrawn edges, more than "
                             f"--max-empties {args.max_empties}")
        if not 4 <= args.tt_bits <= 30:
            raise ValueError(f"--tt-bits must be in 4..30, got {args.tt_bits}")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: --file: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    result = solve_state(state, args.all, args.tt_bits)
    print(json.dumps(result) if args.json else format_text(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
