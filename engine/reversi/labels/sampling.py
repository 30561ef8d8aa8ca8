"""Positions sampled from varied play, keyed under the board's symmetries.

Each game starts at the standard position; its first ``openings`` plies (a number drawn
uniformly from ``[min, max]`` per game) are uniformly random legal moves; after them every move
is, with probability ``epsilon``, a uniformly random legal move, else the best move of a
fixed-depth (``depth`` plies) alpha-beta search with the evaluation (the champion's; the game's
reference square table without one: ``engine.reversi.labels.evaluation``). Every position
whose side to move has a legal move is kept with probability ``keep`` (1: all of them, from the
first ply on), until ``count`` are collected (the last game is cut there). Passing positions
and finished games are never kept: their labels follow from their successors'.

Options (``sample_positions``' ``options``, every one optional): ``openings`` ``[min, max]``
(default ``[4, 12]``), ``epsilon`` (default 0.1), ``depth`` (the players' search depth, default
2), ``keep`` (default 1.0).

Everything is reproducible from the seed: one ``numpy`` ``SeedSequence`` draw seeds the
kernels' splitmix64 RNG, and the players' search starts each call from a fresh table (its
moves, ties included, depend on nothing else). ``key`` is ``symmetry_keys``' (equal for
positions equal under the eight symmetries).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numba import njit

from engine.core import Seed
from engine.kernels.rng import below, random_bit, uniform
from engine.kernels.search import tt
from engine.reversi.labels.evaluation import champion_evaluation
from engine.reversi.labels.symmetry import cells_of, symmetry_keys
from engine.reversi.rules import bitboard as bb
from engine.reversi.rules.state import Position
from engine.reversi.search.negamax import negamax

DEFAULTS = {"openings": (4, 12), "epsilon": 0.1, "depth": 2, "keep": 1.0}
TT_BITS = 16  # the players' table: shallow searches need little
GENERATION = np.uint32(2)
UNLIMITED = np.int64(2**62)


def sampling_options(options: Mapping) -> dict:
    """``options`` over ``DEFAULTS``, checked; ``ValueError`` naming the option at fault."""
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"sampling option {unknown[0]!r}: allowed {', '.join(DEFAULTS)}")
    out = {**DEFAULTS, **options}
    try:
        low, high = (int(v) for v in out["openings"])
    except (TypeError, ValueError):
        raise ValueError(f"openings={out['openings']!r}: expected [min, max]") from None
    if not 0 <= low <= high <= 60:
        raise ValueError(f"openings=[{low}, {high}]: allowed 0 <= min <= max <= 60")
    if not 0.0 <= float(out["epsilon"]) <= 1.0:
        raise ValueError(f"epsilon={out['epsilon']}: allowed 0 <= epsilon <= 1")
    if not 1 <= int(out["depth"]) <= 10:
        raise ValueError(f"depth={out['depth']}: allowed 1..10 (the players' search)")
    if not 0.0 < float(out["keep"]) <= 1.0:
        raise ValueError(f"keep={out['keep']}: allowed 0 < keep <= 1")
    return {"openings": (low, high), "epsilon": float(out["epsilon"]),
            "depth": int(out["depth"]), "keep": float(out["keep"])}


@njit(cache=True)
def play_and_collect(count, P0, O0, low, high, epsilon, depth, keep, rng, reversed_rules,
                     phase_of_discs, positional, features, tables, net, mode, table, out_P,
                     out_O):
    """Games from ``(P0, O0)`` (module docstring) until ``count`` positions fill ``out_P`` and
    ``out_O``."""
    n = 0
    while True:
        P, O = P0, O0
        random_plies = low + below(rng, high - low + 1)
        ply = 0
        while True:
            moves = bb.legal_moves(P, O)
            if moves == bb.ZERO:
                if bb.legal_moves(O, P) == bb.ZERO:
                    break
                P, O = O, P
                continue
            if keep >= 1.0 or uniform(rng) < keep:
                out_P[n], out_O[n] = P, O
                n += 1
                if n == count:
                    return
            if ply < random_plies or (epsilon > 0.0 and uniform(rng) < epsilon):
                sq = random_bit(rng, moves)
            else:
                sq = negamax(P, O, depth, False, reversed_rules, phase_of_discs, positional,
                             features, tables, net, mode, table, GENERATION, UNLIMITED)[0]
            P, O = bb.make_move(P, O, sq, bb.flips(P, O, sq))
            ply += 1


def sample_boards(game, count: int, seed: Seed, champion, options: Mapping
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The ``(P, O)`` bitboards of ``count`` sampled positions (module docstring)."""
    opts = sampling_options(options)
    if count < 0:
        raise ValueError(f"count={count}: allowed >= 0")
    out_P, out_O = np.zeros(count, np.uint64), np.zeros(count, np.uint64)
    if count == 0:
        return out_P, out_O
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    rng = np.array([np.random.default_rng(sequence).integers(0, 2**63, dtype=np.uint64)],
                   dtype=np.uint64)
    arrays = champion_evaluation(game, champion).search_arrays(True)
    P0, O0 = Position.start().boards
    play_and_collect(count, P0, O0, *opts["openings"], opts["epsilon"], opts["depth"],
                     opts["keep"], rng, game.variant.is_reversed, *arrays,
                     tt.new_table(TT_BITS), out_P, out_O)
    return out_P, out_O


def sample_positions(game, count: int, seed: Seed, champion, options: Mapping
                     ) -> dict[str, np.ndarray]:
    """``{"cells", "ply", "key"}`` of ``count`` positions (module docstring)."""
    P, O = sample_boards(game, count, seed, champion, options)
    cells = cells_of(P, O)
    return {"cells": cells, "ply": (np.count_nonzero(cells, axis=1) - 4).astype(np.int16),
            "key": symmetry_keys(P, O)}
