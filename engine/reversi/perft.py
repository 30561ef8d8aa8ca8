"""Perft: count the leaf positions of the game tree to a fixed depth.

A forced pass counts as a ply and a game that ends before the depth counts as one leaf, the
convention of the published Othello perft table (depth 1..11 = 4, 12, 56, ..., 212258800).

    python -m engine.perft --depth 9
    python -m engine.perft --depth 11 --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
from numba import njit

from engine.reversi.rules import bitboard as bb
from engine.reversi.rules.state import Position

ZERO = np.uint64(0)


@njit(cache=True)
def _perft(P0, O0, depth):
    """Depth-first count with an explicit stack of pending nodes.

    Iterative, not recursive: numba's on-disk cache of a self-recursive function crashes
    when a later process loads it.
    """
    capacity = 64 * (depth + 1)  # at most 64 children pushed per ply on the current path
    stack_P = np.empty(capacity, np.uint64)
    stack_O = np.empty(capacity, np.uint64)
    stack_depth = np.empty(capacity, np.int64)
    stack_passed = np.empty(capacity, np.bool_)
    stack_P[0], stack_O[0], stack_depth[0], stack_passed[0] = P0, O0, depth, False
    top = 1
    total = 0
    while top:
        top -= 1
        P, O, d, passed = stack_P[top], stack_O[top], stack_depth[top], stack_passed[top]
        moves = bb.legal_moves(P, O)
        if moves == ZERO:
            if passed or d == 1:
                total += 1  # game over (neither side can move), or the pass is the last ply
            else:
                stack_P[top], stack_O[top], stack_depth[top], stack_passed[top] = O, P, d - 1, True
                top += 1
            continue
        if d == 1:
            total += bb.popcount(moves)  # bulk count: the last ply needs no make-move
            continue
        while moves:
            sq = bb.lowest_bit_index(moves)
            moves &= moves - np.uint64(1)
            nP, nO = bb.make_move(P, O, sq, bb.flips(P, O, sq))
            stack_P[top], stack_O[top], stack_depth[top], stack_passed[top] = nP, nO, d - 1, False
            top += 1
    return total


def perft(position: Position, depth: int) -> int:
    if depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    P, O = position.boards
    if bb.legal_moves(P, O) == ZERO and bb.legal_moves(O, P) == ZERO:
        return 1
    return int(_perft(P, O, depth))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.perft", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--depth", type=int, required=True, help="plies to count (>= 1)")
    parser.add_argument("--position", help='start position as "<64 chars X/O/-> <X|O>"')
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    args = parser.parse_args(argv)
    try:
        position = Position.parse(args.position) if args.position else Position.start()
        if args.depth < 1:
            raise ValueError(f"--depth must be >= 1, got {args.depth}")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    # The first call compiles or loads the numba kernels; time it apart from the count.
    start = time.perf_counter()
    perft(position, 1)
    first_call = time.perf_counter() - start
    start = time.perf_counter()
    leaves = perft(position, args.depth)
    seconds = time.perf_counter() - start
    if args.json:
        rate = leaves / seconds if seconds > 0 else None
        print(json.dumps({"depth": args.depth, "leaves": leaves, "seconds": seconds,
                          "leaves_per_second": rate, "first_call_seconds": first_call}))
    else:
        print(leaves)
    return 0


if __name__ == "__main__":
    sys.exit(main())
