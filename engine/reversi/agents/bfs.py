"""Breadth-first end-game searcher, in the spirit of the course project's seed report.

What ``select_move`` does (every rule keeps its input if it would remove all moves):

1. **Breadth-first search**, only with at most ``search_empties`` empty squares: a FIFO queue of
   positions where we are to move; each is expanded with *all* our legal moves, and the opponent
   answers each with one uniformly random legal reply (seeded; passes played as they come)
   until it is our turn again or the game ends. Ended games record their final score (our view,
   under the variant) for the root move they descend from. The search stops when the queue is
   empty, after ``nodes`` queued positions (default, reproducible), or after ``time_limit``
   seconds (if given; not reproducible). If at least one game end was reached, only the root
   moves with the best recorded final score stay candidates (a move none of whose lines ended
   ranks as a draw, 0: unknown beats a sure loss), and among equal scores the ones reaching it
   in the fewest of our moves (less luck needed); the rules below break remaining ties.
   (The seed report applied its rules before searching; we let a reached game end outrank them,
   since greedy stable-disc grabbing otherwise decides almost every end-game move alone.)
2. **Corner rule.** Othello: if a corner is playable, only corners remain; otherwise drop moves
   after which the opponent can take a corner, then X-squares (b2, g2, b7, g7) next to an empty
   corner. Reversed Reversi, the mirror (a corner disc can never be flipped back, so it stays
   ours to the end): drop corner moves; handing the opponent a corner is fine there.
3. **Stable-disc rule.** Count our stable discs
   (``engine.reversi.genome.evaluation.stable_discs``, discs that can never be flipped) after each
   remaining move. Othello: if some move gains stable discs, keep the moves with the most. Reversed:
   keep the moves with the fewest (stable discs are discs we can never get rid of).
4. **Weighted matrix**: the 1-ply weighted piece counter picks among what is left, with
   ``weights`` or the variant's reference matrix (``wpc`` for Othello, ``wpc_negated`` for
   Reversed); exact ties are broken by the agent's seeded generator.

The best *recorded* score is optimistic (the opponent's replies are random, not adversarial):
that is the seed report's design; the searcher is a benchmark, not a solver (see
engine.reversi.solve).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from engine.core.agent import Seed, check_search_args
from engine.kernels.rng import new_state, random_bit
from engine.reversi.agents.simple import (
    ILLEGAL_SCORE,
    SeededAgent,
    legal_list,
    pick_best,
    positional_arrays,
    wpc_move_scores,
)
from engine.reversi.files import reference_weights
from engine.reversi.genome.evaluation import stable_discs
from engine.reversi.rules import bitboard as bb
from engine.reversi.rules.state import Position, Variant, square

CORNER_SQUARES = tuple(square(n) for n in ("a1", "h1", "a8", "h8"))
X_SQUARES = {square(x): square(c) for x, c in (("b2", "a1"), ("g2", "h1"), ("b7", "a8"),
                                               ("g7", "h8"))}
NO_SCORE = -(1 << 30)


@njit(cache=True)
def _settle(P, O, state, reversed_rules):
    """After our move (P = opponent to move): random opponent replies and passes until it is our
    turn with a legal move (returns 1, boards with us to move) or the game ends (returns 0,
    our final score)."""
    ours = False
    while True:
        moves = bb.legal_moves(P, O)
        if moves != bb.ZERO:
            if ours:
                return 1, P, O, 0
            sq = random_bit(state, moves)
            P, O = bb.make_move(P, O, sq, bb.flips(P, O, sq))
        elif bb.legal_moves(O, P) == bb.ZERO:
            s = bb.final_score(P, O, reversed_rules)
            return 0, P, O, (s if ours else -s)
        else:
            P, O = O, P
        ours = not ours


@njit(cache=True)
def bfs_run(qP, qO, qroot, qdepth, head, tail, max_process, root_mask, state, reversed_rules,
            best, best_depth, reached):
    """Process up to ``max_process`` queued positions (we to move); returns (head, tail).

    ``qroot == -1`` marks the root (only ``root_mask`` moves are expanded there); children of a
    full queue are dropped, but their game ends are still recorded in ``best``/``reached``.
    ``best_depth[r]`` is the fewest of our moves after which root move ``r`` reached ``best[r]``.
    """
    cap = len(qP)
    processed = 0
    while head < tail and processed < max_process:
        P, O, root, depth = qP[head], qO[head], qroot[head], qdepth[head] + 1
        head += 1
        processed += 1
        moves = bb.legal_moves(P, O)
        if root < 0:
            moves &= root_mask
        while moves:
            sq = bb.lowest_bit_index(moves)
            moves &= moves - bb.ONE
            r = sq if root < 0 else root
            nP, nO = bb.make_move(P, O, sq, bb.flips(P, O, sq))
            alive, nP, nO, score = _settle(nP, nO, state, reversed_rules)
            if not alive:
                reached[r] = True
                if score > best[r] or (score == best[r] and depth < best_depth[r]):
                    best[r], best_depth[r] = score, depth
            elif tail < cap:
                qP[tail], qO[tail], qroot[tail], qdepth[tail] = nP, nO, r, depth
                tail += 1
    return head, tail


def _reference_matrix(variant: Variant):
    return reference_weights("wpc_negated" if variant.is_reversed else "wpc")


class BFSEndgameAgent(SeededAgent):
    """Node- or time-boxed BFS to game ends (late in the game), then the corner and stable-disc
    rules, then the weighted matrix: see the module docstring. ``weights`` (a ``Weights``, a
    weights file path or a (64,)/(8, 8) matrix) is that matrix; default: the variant's
    reference."""

    def __init__(self, variant: Variant | str = "othello", time_limit: float | None = None,
                 weights=None, seed: Seed = None, nodes: int = 20_000, search_empties: int = 14,
                 name: str = "bfs"):
        self.variant = Variant.parse(variant)
        if nodes < 1:
            raise ValueError(f"nodes must be >= 1, got {nodes}")
        check_search_args(time_limit=time_limit)
        if search_empties < 0:
            raise ValueError(f"search_empties must be >= 0, got {search_empties}")
        self.time_limit, self.nodes, self.search_empties = time_limit, nodes, search_empties
        self.phase_of_discs, self.positional = positional_arrays(
            weights if weights is not None else _reference_matrix(self.variant))
        self.name = name
        self.last_reached = 0  # number of root moves whose subtree reached a game end
        self.reset(seed)

    def select_move(self, position: Position) -> int:
        moves = legal_list(position)
        if len(moves) == 1:
            return moves[0]
        P, O = position.boards
        matrix = wpc_move_scores(P, O, self.phase_of_discs, self.positional)
        if position.empties <= self.search_empties:
            moves = self._search(P, O, moves)  # best reached final score, or all moves
        candidates = self._stable_rule(P, O, self._corner_rule(P, O, moves))
        return self._best_of(candidates, matrix)

    # --- rules ---
    def _corner_rule(self, P, O, moves: list[int]) -> list[int]:
        corners = [m for m in moves if m in CORNER_SQUARES]
        empty = ~int(P | O)
        if self.variant.is_reversed:
            return _keep(moves, lambda m: m not in CORNER_SQUARES)
        if corners:
            return corners
        moves = _keep(moves, lambda m: not _gives_corner(P, O, m))
        return _keep(moves, lambda m: not (m in X_SQUARES and empty >> X_SQUARES[m] & 1))

    def _stable_rule(self, P, O, moves: list[int]) -> list[int]:
        counts = []
        for m in moves:
            nP, nO = _after(P, O, m)
            counts.append(int(stable_discs(nO, nP)).bit_count())  # nO is us after the swap
        if self.variant.is_reversed:
            target = min(counts)
        else:
            target = max(counts)
            if target <= int(stable_discs(P, O)).bit_count():
                return moves  # no move gains stable discs
        return [m for m, c in zip(moves, counts, strict=True) if c == target]

    # --- search ---
    def _search(self, P, O, moves: list[int]) -> list[int]:
        """The moves with the best final score reached by the BFS (all moves if none ended)."""
        timed = self.time_limit is not None
        cap = max(self.nodes, 1 << 20) if timed else self.nodes
        qP, qO = np.empty(cap + 1, np.uint64), np.empty(cap + 1, np.uint64)
        qroot, qdepth = np.empty(cap + 1, np.int64), np.empty(cap + 1, np.int64)
        qP[0], qO[0], qroot[0], qdepth[0] = P, O, -1, 0
        root_mask = np.uint64(sum(1 << m for m in moves))
        best = np.full(64, NO_SCORE, np.int64)
        best_depth = np.full(64, 1 << 30, np.int64)
        reached = np.zeros(64, np.bool_)
        state = new_state(self._rng)
        head, tail, start = 0, 1, time.perf_counter()
        while head < tail:
            head, tail = bfs_run(qP, qO, qroot, qdepth, head, tail, 512 if timed else cap + 1,
                                 root_mask, state, self.variant.is_reversed, best, best_depth,
                                 reached)
            if timed and time.perf_counter() - start >= self.time_limit:
                break
        self.last_reached = int(reached.sum())
        if not reached.any():
            return moves
        value = np.where(reached, best, 0)  # a move with no game end reached ranks as a draw
        top = max(value[m] for m in moves)
        moves = [m for m in moves if value[m] == top]
        fastest = min(best_depth[m] for m in moves)  # same score: the one reached soonest
        return [m for m in moves if best_depth[m] == fastest]

    def _best_of(self, moves: list[int], matrix: np.ndarray) -> int:
        scores = np.full(64, ILLEGAL_SCORE)
        scores[moves] = matrix[moves]
        return pick_best(scores, self._rng)


def _keep(moves: list[int], predicate) -> list[int]:
    kept = [m for m in moves if predicate(m)]
    return kept or moves


def _gives_corner(P, O, move: int) -> bool:
    nP, nO = _after(P, O, move)  # nP is the opponent, to move
    reply = int(bb.legal_moves(nP, nO))
    return any(reply >> c & 1 for c in CORNER_SQUARES)


def _after(P, O, move: int) -> tuple[np.uint64, np.uint64]:
    """Boards after a legal move, as ``np.uint64`` (numba returns Python ints, and ints above
    2**63 would not fit the int64 signature of the next kernel call)."""
    nP, nO, _ = bb.play(P, O, move)
    return np.uint64(nP), np.uint64(nO)
