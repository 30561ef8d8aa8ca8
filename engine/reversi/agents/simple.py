"""Baseline agents: random, greedy (flip count), 1-ply weighted piece counter, epsilon wrapper.

Every agent owns an explicit ``np.random.Generator``; ``reset(seed)`` reseeds it, so a game is
reproducible from its seed. Ties are broken by that generator (seeded, never global state).
The per-move scoring runs in small numba kernels over the ``(P, O)`` bitboards so that these
agents cost microseconds per move inside GA tournaments.
"""

from __future__ import annotations

import os

import numpy as np
from numba import njit

from engine.core.agent import Seed, make_rng
from engine.core.matches.agents import EpsilonAgent as CoreEpsilonAgent
from engine.reversi.files import load_weights
from engine.reversi.genome.evaluation import positional_sum
from engine.reversi.genome.weights import Weights
from engine.reversi.rules import bitboard as bb
from engine.reversi.rules.state import PASS, Position, Variant

ILLEGAL_SCORE = -(10.0**18)  # score of an illegal square in the kernels' 64-entry score arrays


def positional_arrays(source) -> tuple[np.ndarray, np.ndarray]:
    """(phase_of_discs int64[65], positional float64[n, 64]) from a matrix, a ``Weights`` or a
    weights file path (``load_weights``: a bad file raises ``WeightsFileError``).

    A plain (64,) or (8, 8) matrix (rows a1..h1 first, like the bitboard) is one phase.
    """
    source = as_weights(source)
    if isinstance(source, Weights):
        phase_of_discs, positional, _ = source.numba_arrays()
        return np.ascontiguousarray(phase_of_discs, np.int64), np.ascontiguousarray(positional)
    matrix = np.asarray(source, dtype=np.float64)
    if matrix.shape not in ((64,), (8, 8)):
        raise ValueError(f"positional matrix must have shape (64,) or (8, 8), got {matrix.shape}")
    return np.zeros(65, np.int64), matrix.reshape(1, 64).copy()


def as_weights(source):
    """A path (``str`` / ``Path``) loaded as a weights file; anything else unchanged."""
    if isinstance(source, (str, os.PathLike)):
        return load_weights(source)
    return source


@njit(cache=True)
def flip_counts(P, O):
    """Discs flipped by each legal square (-1 for illegal squares)."""
    counts = np.full(64, -1, np.int64)
    moves = bb.legal_moves(P, O)
    while moves:
        sq = bb.lowest_bit_index(moves)
        moves &= moves - bb.ONE
        counts[sq] = bb.popcount(bb.flips(P, O, sq))
    return counts


@njit(cache=True)
def wpc_move_scores(P, O, phase_of_discs, positional):
    """Positional value for the mover after each legal square (``ILLEGAL_SCORE`` for illegal ones).

    The matrix is the phase of the disc count after the move.
    """
    scores = np.full(64, ILLEGAL_SCORE)
    moves = bb.legal_moves(P, O)
    discs = bb.popcount(P | O) + 1
    row = positional[phase_of_discs[discs]]
    while moves:
        sq = bb.lowest_bit_index(moves)
        moves &= moves - bb.ONE
        f = bb.flips(P, O, sq)
        nP, nO = bb.make_move(P, O, sq, f)
        scores[sq] = positional_sum(nO, nP, row)  # nO is the mover after the swap
    return scores


def pick_best(scores: np.ndarray, rng: np.random.Generator, tolerance: float = 1e-12) -> int:
    """A uniformly random square among the maxima of ``scores`` (ties broken by ``rng``)."""
    best = scores.max()
    ties = np.flatnonzero(scores >= best - tolerance)
    return int(ties[0]) if len(ties) == 1 else int(ties[rng.integers(len(ties))])


def legal_list(position: Position) -> list[int]:
    """Legal squares, ``[PASS]`` for a forced pass; raises at game end (agents are never asked
    to move in a finished game)."""
    moves = position.legal_moves()
    if not moves:
        raise ValueError("select_move called on a finished game")
    return moves


class SeededAgent:
    """An agent whose random choices come from its own generator, reseeded by ``reset``."""

    def reset(self, seed: Seed = None) -> None:
        self._rng = make_rng(seed)


class RandomAgent(SeededAgent):
    """Uniformly random legal move."""

    def __init__(self, seed: Seed = None, name: str = "random"):
        self.name = name
        self.reset(seed)

    def select_move(self, position: Position) -> int:
        moves = legal_list(position)
        return moves[0] if len(moves) == 1 else moves[int(self._rng.integers(len(moves)))]


class GreedyAgent(SeededAgent):
    """Most flips (Othello) or fewest flips (Reversed); ties broken by the seeded generator."""

    def __init__(self, variant: Variant | str = "othello", seed: Seed = None, name: str = "greedy"):
        self.variant = Variant.parse(variant)
        self.name = name
        self.reset(seed)

    def select_move(self, position: Position) -> int:
        counts = flip_counts(*position.boards)
        if counts.max() < 0:
            legal_list(position)  # raises at game end
            return PASS
        scores = counts.astype(np.float64)
        if self.variant.is_reversed:
            scores = np.where(counts >= 0, -scores, ILLEGAL_SCORE)
        else:
            scores[counts < 0] = ILLEGAL_SCORE
        return pick_best(scores, self._rng)


class WeightedPieceCounterAgent(SeededAgent):
    """1-ply weighted piece counter: the move maximising the mover's positional sum after it.

    With the literature's WPC matrix this is the benchmark player of Lucas & Runarsson (2006)
    and the Othello League. ``matrix`` is (64,), (8, 8), a ``Weights`` or a weights file path
    (the phase of the disc count after the move is used; mobility/stability terms are ignored
    at 1 ply).
    """

    def __init__(self, matrix, seed: Seed = None, name: str | None = None):
        matrix = as_weights(matrix)
        self.phase_of_discs, self.positional = positional_arrays(matrix)
        self.name = name or getattr(matrix, "name", "") or "wpc1"
        self.reset(seed)

    def select_move(self, position: Position) -> int:
        P, O = position.boards
        scores = wpc_move_scores(P, O, self.phase_of_discs, self.positional)
        if scores.max() <= ILLEGAL_SCORE:
            legal_list(position)
            return PASS
        return pick_best(scores, self._rng)


class EpsilonAgent(CoreEpsilonAgent):
    """With probability ``epsilon`` a uniformly random legal move, otherwise ``inner``'s move
    (the game-neutral wrapper over Reversi positions). The Othello League protocol plays its
    opponents this way with epsilon = 0.1 so that deterministic players do not replay one game.
    """

    def __init__(self, inner, epsilon: float = 0.1, seed: Seed = None, name: str | None = None):
        super().__init__(inner, epsilon, legal_list, seed=seed, name=name)
