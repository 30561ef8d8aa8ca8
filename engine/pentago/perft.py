"""Perft for Pentago Twist: count move sequences and distinct positions to a fixed depth.

``sequences`` counts every move sequence of ``depth`` plies (the 8 twists of a placement count
separately even when they give the same board; a game that ends earlier counts as one leaf).
``distinct`` counts the distinct positions at the frontier (positions ``depth`` plies deep,
plus finished positions reached earlier).

    python -m engine.perft --game pentago_twist --depth 3
    python -m engine.perft --game pentago_twist --depth 2 --json \
        --position "W...../....../....../....../....../....../B"
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
from numba import njit

from engine.kernels.bits import ONE, lowest_bit_index, popcount
from engine.pentago.rules import bitboard as bb
from engine.pentago.rules.state import State, parse_state


@njit(cache=True)
def _sequences(P0, O0, depth):
    """Depth-first leaf count with an explicit stack (numba's cache dislikes recursion)."""
    capacity = bb.MOVES * (depth + 1)
    stack_P, stack_O = np.empty(capacity, np.uint64), np.empty(capacity, np.uint64)
    stack_d = np.empty(capacity, np.int64)
    stack_P[0], stack_O[0], stack_d[0] = P0, O0, depth
    top, total = 1, 0
    while top:
        top -= 1
        P, O, d = stack_P[top], stack_O[top], stack_d[top]
        if bb.result(P, O) != bb.ONGOING:
            total += 1
            continue
        empties = bb.empty_cells(P, O)
        if d == 1:
            total += popcount(empties) * bb.TWISTS  # bulk count: the last ply needs no play
            continue
        while empties:
            cell = lowest_bit_index(empties)
            empties &= empties - ONE
            for t in range(bb.TWISTS):
                stack_P[top], stack_O[top] = bb.play(P, O, cell * bb.TWISTS + t)
                stack_d[top] = d - 1
                top += 1
    return total


@njit(cache=True)
def _expand(front_P, front_O):
    """Every distinct child of every frontier position (finished ones are kept as they are)."""
    n = front_P.shape[0]
    out_P, out_O = np.empty(n * bb.MOVES, np.uint64), np.empty(n * bb.MOVES, np.uint64)
    c_P, c_O = np.empty(bb.MOVES, np.uint64), np.empty(bb.MOVES, np.uint64)
    c_move = np.empty(bb.MOVES, np.int64)
    k = 0
    for i in range(n):
        if bb.result(front_P[i], front_O[i]) != bb.ONGOING:
            out_P[k], out_O[k] = front_P[i], front_O[i]
            k += 1
            continue
        m = bb.distinct_children(front_P[i], front_O[i], c_P, c_O, c_move)
        out_P[k:k + m], out_O[k:k + m] = c_P[:m], c_O[:m]
        k += m
    return out_P[:k], out_O[:k]


def sequences(state: State, depth: int) -> int:
    if depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    P, O = state.boards()
    return int(_sequences(P, O, depth)) if not state.is_over() else 1


def distinct(state: State, depth: int) -> int:
    """Distinct frontier positions (side to move is implied by the stone count)."""
    if depth < 1:
        raise ValueError(f"depth must be >= 1, got {depth}")
    P, O = state.boards()
    front_P, front_O = np.array([P], np.uint64), np.array([O], np.uint64)
    for _ in range(depth):
        kids_P, kids_O = _expand(front_P, front_O)
        pairs = np.unique(np.stack([kids_P, kids_O], axis=1), axis=0)
        front_P, front_O = np.ascontiguousarray(pairs[:, 0]), np.ascontiguousarray(pairs[:, 1])
    return len(front_P)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.perft --game pentago_twist",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--depth", type=int, required=True, help="plies to count (>= 1)")
    parser.add_argument("--position", help='start position: the board text with rows '
                        'separated by "/" (6 rows of W/B/. then W or B to move)')
    parser.add_argument("--no-distinct", action="store_true",
                        help="skip the distinct count (it keeps every frontier position)")
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    args = parser.parse_args(argv)
    try:
        state = parse_state(args.position.replace("/", "\n")) if args.position else State()
        if args.depth < 1:
            raise ValueError(f"--depth must be >= 1, got {args.depth}")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    start = time.perf_counter()  # the first call compiles or loads the kernels: timed apart
    sequences(state, 1), distinct(state, 1)
    first_call = time.perf_counter() - start
    start = time.perf_counter()
    leaves = sequences(state, args.depth)
    seconds = time.perf_counter() - start
    unique = None if args.no_distinct else distinct(state, args.depth)
    if args.json:
        print(json.dumps({"depth": args.depth, "sequences": leaves, "distinct": unique,
                          "seconds": seconds, "first_call_seconds": first_call,
                          "sequences_per_second": leaves / seconds if seconds > 0 else None}))
    else:
        print(f"sequences {leaves}" + ("" if unique is None else f"\ndistinct {unique}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
