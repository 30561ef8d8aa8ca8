"""Evaluations per second of n-tuple networks on Reversi positions: full vs incremental.

    python -m experiments.bench.engine.ntuple --games 300 --out experiments/results/bench_ntuple.md

The positions are every position of ``--games`` uniformly random Othello games (seeded), so
fill levels and flips are those of real play. Per layout (8x8, 8 symmetries, random weights):

- full: ``evaluate_bits(P, O)``, every index recomputed from the bitboards;
- incremental: ``play_bits`` (the move's stone and flips) + ``evaluate_indices`` with the side
  to move's weights (plain or colour-swapped), walking each game forwards: what one node of a
  search pays (an undo costs what a play costs);
- indices only: ``evaluate_indices`` alone (the sum over the instances), on every position's
  indices computed beforehand.

Memory: the weights of one phase (float64; a genome of P phases holds P times as many, and
TD's ``--step-rule tcl`` two more arrays of the same size). The baseline is the 64-weight square
table as a network of 64 1-tuples (identity group), evaluated the same ways, and the same table
as a hand-written loop over the set bits. Each rate
is the best of ``--repeats`` timed passes in one jitted loop (no Python per position). The
first-call cost (numba compiling, or loading its cache) is measured apart, in fresh processes.
"""

from __future__ import annotations

import os

import numpy as np
from numba import njit

from engine.kernels import ntuple as nt
from engine.kernels.bits import lowest_bit_index
from engine.reversi.rules.state import PASS, Position
from experiments.common import arguments, best_of, first_call_seconds
from experiments.stamp import Stamp, write_result

LAYOUTS = [  # (label, families, group)
    ("square table (64 1-tuples)", "straight1", "identity"),
    ("all straight 2-tuples", "straight2", "d4"),
    ("all straight 3-tuples", "straight3", "d4"),
    ("all straight 4-tuples", "straight4", "d4"),
    ("all 2x2 squares", "square2", "d4"),
    ("4+2x2 (straight 4-tuples + 2x2 squares)", "straight4+square2", "d4"),
    ("3x3 corners", "corner3", "d4"),
    ("edge+2X 10-tuples", "edge2x", "d4"),
    ("3x3 corners + edge+2X", "corner3+edge2x", "d4"),
    ("full lines (>= 4 cells: rows, columns, diagonals)", "lines", "d4"),
]
PHASES_SHOWN = 4  # memory is also given for a genome of this many phases
SETUP = """import numpy as np
from engine.kernels import ntuple as nt
layout = nt.board_layout(8, 8, nt.family_tuples(8, 8, "corner3+edge2x"), "d4")
t = nt.index_tables(layout)
w = np.zeros(layout.n_weights); idx = np.zeros(len(t.offset), dtype=np.int64)"""
CALL = """nt.evaluate_bits(np.uint64(1), np.uint64(2), t, w)
nt.indices_bits(np.uint64(1), np.uint64(2), t, idx)
nt.play_bits(idx, t, 5, np.uint64(1), 1); nt.evaluate_indices(idx, t, w)
nt.td_step_bits(np.uint64(1), np.uint64(2), 0.0, 0.1, True, t, w)"""


def random_games(count: int, seed: int):
    """Arrays over every position of ``count`` random games: black, white, the side to move's
    colour (1 black, 2 white), and the move then played (cell or -1 for a pass, flips)."""
    rng = np.random.default_rng(seed)
    rows, starts = [], []
    for _ in range(count):
        starts.append(len(rows))
        position = Position.start()
        while moves := position.legal_moves():
            move = moves[rng.integers(len(moves))]
            after = position.play(move)
            own_after = after.opponent  # the mover is the opponent of the side to move next
            flips = own_after & position.opponent
            rows.append((position.black, position.white, 1 if position.black_to_move else 2,
                         -1 if move == PASS else move, flips))
            position = after
    starts.append(len(rows))
    columns = list(zip(*rows, strict=True))
    return (np.array(columns[0], np.uint64), np.array(columns[1], np.uint64),
            np.array(columns[2], np.int64), np.array(columns[3], np.int64),
            np.array(columns[4], np.uint64), np.array(starts, np.int64))


@njit(cache=True)
def full_pass(black, white, colour, t, weights):
    total = 0.0
    for k in range(black.shape[0]):
        if colour[k] == 1:
            total += nt.evaluate_bits(black[k], white[k], t, weights)
        else:
            total += nt.evaluate_bits(white[k], black[k], t, weights)
    return total


@njit(cache=True)
def incremental_pass(black, white, colour, placed, flips, starts, t, weights, swapped):
    """Each game from its first position (indices in absolute colours: black 1, white 2):
    evaluate with the side to move's weights, then play the move into the indices."""
    indices = np.empty(t.offset.shape[0], dtype=np.int64)
    total = 0.0
    for g in range(starts.shape[0] - 1):
        first = starts[g]
        nt.indices_bits(black[first], white[first], t, indices)
        for k in range(first, starts[g + 1]):
            total += nt.evaluate_indices(indices, t, weights if colour[k] == 1 else swapped)
            nt.play_bits(indices, t, placed[k], flips[k], colour[k])
    return total


@njit(cache=True)
def all_indices(black, white, t):
    """The absolute-colour indices of every position, one row each."""
    out = np.empty((black.shape[0], t.offset.shape[0]), dtype=np.int64)
    for k in range(black.shape[0]):
        nt.indices_bits(black[k], white[k], t, out[k])
    return out


@njit(cache=True)
def indices_only_pass(indices, colour, t, weights, swapped):
    total = 0.0
    for k in range(indices.shape[0]):
        total += nt.evaluate_indices(indices[k], t, weights if colour[k] == 1 else swapped)
    return total


@njit(cache=True)
def square_table_pass(black, white, colour, table):
    """The 64-weight table written by hand: own stones' weights minus the opponent's."""
    total = 0.0
    for k in range(black.shape[0]):
        own, other = (black[k], white[k]) if colour[k] == 1 else (white[k], black[k])
        while own:
            total += table[lowest_bit_index(own)]
            own &= own - np.uint64(1)
        while other:
            total -= table[lowest_bit_index(other)]
            other &= other - np.uint64(1)
    return total


def best_rate(run, count: int, repeats: int) -> float:
    return count / best_of(run, repeats)[0]


def measure(games, families: str, group: str, repeats: int) -> dict:
    black, white, colour, placed, flips, starts = games
    layout = nt.board_layout(8, 8, nt.family_tuples(8, 8, families), group)
    t = nt.index_tables(layout)
    weights = np.random.default_rng(0).normal(size=layout.n_weights)
    swapped = nt.colour_swapped(weights, layout)
    n = len(black)
    full = full_pass(black, white, colour, t, weights)
    incremental = incremental_pass(black, white, colour, placed, flips, starts, t, weights,
                                   swapped)
    assert abs(full - incremental) < 1e-6 * max(1.0, abs(full)), (families, full, incremental)
    indices = all_indices(black, white, t)
    only = indices_only_pass(indices, colour, t, weights, swapped)
    assert abs(full - only) < 1e-6 * max(1.0, abs(full)), (families, full, only)
    return {
        "tables": len(layout.tuples), "weights": layout.n_weights,
        "instances": len(t.offset),
        "full": best_rate(lambda: full_pass(black, white, colour, t, weights), n, repeats),
        "incremental": best_rate(lambda: incremental_pass(
            black, white, colour, placed, flips, starts, t, weights, swapped), n, repeats),
        "indices_only": best_rate(
            lambda: indices_only_pass(indices, colour, t, weights, swapped), n, repeats),
    }


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be >= 1")
    stamp = Stamp.begin()
    first = first_call_seconds(SETUP, CALL)
    games = random_games(args.games, args.seed)
    rows = [(label, measure(games, families, group, args.repeats))
            for label, families, group in LAYOUTS]
    table = np.random.default_rng(0).normal(size=64)
    square_table_pass(games[0], games[1], games[2], table)  # compile before timing
    hand = best_rate(lambda: square_table_pass(games[0], games[1], games[2], table),
                     len(games[0]), args.repeats)
    lines = report(args, len(games[0]), first, rows, hand)
    write_result(args.out, "# N-tuple evaluation benchmark", lines, stamp, {
        "positions": len(games[0]), "first_call": first, "hand_written_square_table": hand,
        "rows": [{"layout": label, **r} for label, r in rows]})


def size(n_bytes: int) -> str:
    for unit, scale in (("MB", 1 << 20), ("kB", 1 << 10)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.1f} {unit}"
    return f"{n_bytes} B"


def report(args, n: int, first: dict, rows, hand: float) -> list[str]:
    (import_s, cold), (_, cached) = first["compile"], first["cached"]
    return [
        f"One thread ({os.cpu_count()} cores, {len(os.sched_getaffinity(0))} usable). "
        f"{n:,} positions from {args.games} random games (seed {args.seed}); rates are the best "
        f"of {args.repeats} passes, in millions of evaluations per second.", "",
        f"- import of the n-tuple modules: {import_s:.2f} s",
        f"- first calls (evaluate, indices, play, evaluate_indices, td_step), empty numba "
        f"cache (compile): {cold:.2f} s",
        f"- the same, numba cache filled (every later process; includes numba's own start): "
        f"{cached:.3f} s", "",
        f"| layout | tables | weights | memory per phase | memory, {PHASES_SHOWN} phases | "
        "instances | full M/s | incremental M/s | indices only M/s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        *[f"| {label} | {r['tables']} | {r['weights']:,} | {size(8 * r['weights'])} | "
          f"{size(8 * r['weights'] * PHASES_SHOWN)} | {r['instances']} | "
          f"{r['full'] / 1e6:.2f} | {r['incremental'] / 1e6:.2f} | "
          f"{r['indices_only'] / 1e6:.2f} |" for label, r in rows],
        f"| square table, hand-written bit loop | | 64 | 512 B | | | {hand / 1e6:.2f} | | |",
    ]


if __name__ == "__main__":
    main()
