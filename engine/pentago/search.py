"""Negamax alpha-beta over distinct successors with a transposition table (numba).

One kernel, ``negamax``, written with an explicit stack (numba's on-disk cache crashes on
self-recursive functions): frame arrays indexed by ply hold each node's boards, window and
ordered children. A node's children are its *distinct* successor positions
(``bb.distinct_children``): the 8 twists of one placement often coincide. Finished positions
are scored by ``terminal_value`` (a win dominates any heuristic value), leaves whose side to
move can win at once (``bb.can_win_now``, a cheap exact test) as that win, other leaves by
``evaluate``. Searching to the number of empty cells is exact: every leaf is a finished game.

Move ordering: the table's move first (except at the root, so the root's choice among equal
moves never depends on earlier searches), then children by their static value (a winning
child first). One ply from the horizon the children are scored in place. The table is used
for cut-offs only at *exactly* the remaining depth, so the root value is exactly the
fixed-depth negamax value whatever the table holds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernels.bits import popcount
from engine.pentago import bitboard as bb
from engine.pentago.evaluation import WIN_SCORE, evaluate, terminal_value

U64 = np.uint64
INF = np.inf
NO_MOVE = -1
MAX_CHILDREN = bb.MOVES
BOUND_EXACT, BOUND_LOWER, BOUND_UPPER = 0, 1, 2
HASH_MUL_P = U64(0x9E3779B97F4A7C15)
HASH_MUL_O = U64(0xC2B2AE3D27D4EB4F)


def new_table(bits: int) -> tuple:
    """A transposition table of ``2**bits`` entries (P, O, value, move, depth, bound, gen)."""
    if not 4 <= bits <= 30:
        raise ValueError(f"tt_bits must be in 4..30, got {bits}")
    n = 1 << bits
    table = (np.zeros(n, np.uint64), np.zeros(n, np.uint64), np.zeros(n, np.float64),
             np.zeros(n, np.int16), np.zeros(n, np.int8), np.zeros(n, np.int8),
             np.zeros(n, np.uint32))
    for a in table:  # touch every page now: first-touch page faults would stall a timed search
        a.fill(0)
    return table


@njit(cache=True, inline="always")
def _slot(P, O, shift):
    return np.int64(((P ^ (O * HASH_MUL_O)) * HASH_MUL_P) >> shift)


@njit(cache=True, inline="always")
def _static(P, O, weights, phase_of_stones):
    """Value for the side to move: exact if the game is over or won in one move (the value a
    search one ply deeper would find), else the evaluation."""
    if bb.result(P, O) != bb.ONGOING:
        return terminal_value(P, O)
    if bb.can_win_now(P, O):
        return WIN_SCORE + 35 - popcount(P | O)
    return evaluate(P, O, weights, phase_of_stones)


@njit(cache=True)
def _children(P, O, hint, c_P, c_O, c_move, c_key, order, weights, phase_of_stones):
    """Fill ``order`` with the indices of the distinct children, best first; returns n."""
    n = bb.distinct_children(P, O, c_P, c_O, c_move)
    for i in range(n):
        c_key[i] = -INF if c_move[i] == hint else _static(c_P[i], c_O[i], weights,
                                                           phase_of_stones)
    # ascending child value for the opponent = best first for us; stable: ties keep move order
    order[:n] = np.argsort(c_key[:n], kind="mergesort")
    return n


@njit(cache=True)
def negamax(P0, O0, depth, weights, phase_of_stones, tt_P, tt_O, tt_value, tt_move, tt_depth,
            tt_bound, tt_gen, gen, max_nodes):
    """Search ``(P0, O0)`` (unfinished) to ``depth`` plies; returns (best move, value, nodes,
    aborted). ``aborted``: ``max_nodes`` was exceeded (the other outputs are then unusable)."""
    shift = U64(64 - int(np.log2(tt_P.shape[0])))
    cap = depth + 2
    sP, sO = np.empty(cap, np.uint64), np.empty(cap, np.uint64)
    s_alpha, s_beta, s_alpha0 = np.empty(cap), np.empty(cap), np.empty(cap)
    s_depth, s_n, s_i = np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap, np.int64)
    s_best, s_best_move = np.empty(cap), np.empty(cap, np.int64)
    c_P, c_O = np.empty((cap, MAX_CHILDREN), np.uint64), np.empty((cap, MAX_CHILDREN), np.uint64)
    c_move, c_key = np.empty((cap, MAX_CHILDREN), np.int64), np.empty((cap, MAX_CHILDREN))
    order = np.empty((cap, MAX_CHILDREN), np.int64)

    sP[0], sO[0], s_depth[0], s_alpha[0], s_beta[0] = P0, O0, depth, -INF, INF
    nodes, ply, root_move = 0, 0, NO_MOVE
    while True:
        # ---- enter the node at `ply`: push its first child (continue) or produce `ret`
        P, O, d = sP[ply], sO[ply], s_depth[ply]
        alpha, beta = s_alpha[ply], s_beta[ply]
        nodes += 1
        if nodes > max_nodes:
            return NO_MOVE, 0.0, nodes, True
        ret = 0.0
        if bb.result(P, O) != bb.ONGOING or d == 0:
            ret = _static(P, O, weights, phase_of_stones)
        else:
            hint, slot, answered = NO_MOVE, 0, False
            if d >= 2:
                slot = _slot(P, O, shift)
                if tt_gen[slot] == gen and tt_P[slot] == P and tt_O[slot] == O:
                    hint = tt_move[slot]
                    v, b = tt_value[slot], tt_bound[slot]
                    if tt_depth[slot] == d and ply > 0 and (
                            b == BOUND_EXACT or (b == BOUND_LOWER and v >= beta)
                            or (b == BOUND_UPPER and v <= alpha)):
                        ret, answered = v, True
            if not answered and d == 1:  # one ply from the horizon: score children in place
                n = bb.distinct_children(P, O, c_P[ply], c_O[ply], c_move[ply])
                best, best_move = -INF, NO_MOVE
                for i in range(n):
                    nodes += 1
                    v = -_static(c_P[ply, i], c_O[ply, i], weights, phase_of_stones)
                    if v > best:
                        best, best_move = v, c_move[ply, i]
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                break
                ret = best
                if ply == 0:
                    root_move = best_move
            elif not answered:
                n = _children(P, O, hint if ply > 0 else NO_MOVE, c_P[ply], c_O[ply],
                              c_move[ply], c_key[ply], order[ply], weights, phase_of_stones)
                s_alpha0[ply], s_n[ply], s_i[ply] = alpha, n, 0
                s_best[ply], s_best_move[ply] = -INF, c_move[ply, order[ply, 0]]
                k = order[ply, 0]
                sP[ply + 1], sO[ply + 1], s_depth[ply + 1] = c_P[ply, k], c_O[ply, k], d - 1
                s_alpha[ply + 1], s_beta[ply + 1] = -beta, -alpha
                ply += 1
                continue
        # ---- `ret` is the value of the node at `ply`: hand it up until a parent needs a child
        while True:
            if ply == 0:
                return root_move, ret, nodes, False
            ply -= 1
            v = -ret
            i = s_i[ply]
            if v > s_best[ply]:
                s_best[ply], s_best_move[ply] = v, c_move[ply, order[ply, i]]
                if v > s_alpha[ply]:
                    s_alpha[ply] = v
            if s_alpha[ply] >= s_beta[ply] or i + 1 == s_n[ply]:
                ret = s_best[ply]
                if ply == 0:
                    root_move = s_best_move[0]
                slot = _slot(sP[ply], sO[ply], shift)
                bound = BOUND_EXACT
                if ret <= s_alpha0[ply]:
                    bound = BOUND_UPPER
                elif ret >= s_beta[ply]:
                    bound = BOUND_LOWER
                tt_P[slot], tt_O[slot], tt_gen[slot] = sP[ply], sO[ply], gen
                tt_value[slot], tt_bound[slot] = ret, bound
                tt_depth[slot], tt_move[slot] = s_depth[ply], s_best_move[ply]
                continue
            i += 1
            s_i[ply] = i
            k = order[ply, i]
            sP[ply + 1], sO[ply + 1] = c_P[ply, k], c_O[ply, k]
            s_depth[ply + 1] = s_depth[ply] - 1
            s_alpha[ply + 1], s_beta[ply + 1] = -s_beta[ply], -s_alpha[ply]
            ply += 1
            break


# --- Python driver ---------------------------------------------------------------------------

import itertools  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402

_GENERATIONS = itertools.count(1)  # process-wide: searchers sharing a table never collide
_SHARED_TABLES: dict[int, tuple] = {}
MIN_RATE = 20_000.0  # floor of the measured speed (nodes/s)
START_RATE = 300_000.0  # speed assumed before anything is measured
SAFETY = 0.8  # fraction of the remaining time an iteration's node budget may use


def shared_table(bits: int) -> tuple:
    """One table per size per process: searchers tag entries with their own generation, so
    sharing never changes a result (only speed), and a GA's many agents cost one table."""
    if bits not in _SHARED_TABLES:
        _SHARED_TABLES[bits] = new_table(bits)
    return _SHARED_TABLES[bits]


@dataclass(frozen=True)
class SearchResult:
    move: int  # move id, NO_MOVE when the game is over
    score: float  # for the side to move; +-WIN_SCORE (+ empties) means a forced result
    depth: int  # plies of the last completed iteration (the empties when exact)
    nodes: int
    seconds: float
    exact: bool


class Searcher:
    """Alpha-beta with fixed weights; keeps its table between searches.

    ``search(P, O, depth=...)`` searches to a fixed depth; ``time_limit=...`` deepens
    iteratively, bounding each iteration by a node budget from the measured speed (numba has
    no clock). With at most ``endgame_empties`` empty cells the search goes to the end.
    """

    def __init__(self, weights: np.ndarray, phase_of_stones: np.ndarray,
                 endgame_empties: int = 8, tt_bits: int = 20, shared: bool = True):
        self.weights = np.ascontiguousarray(weights, np.float64)
        self.phase_of_stones = np.ascontiguousarray(phase_of_stones, np.int64)
        self.endgame_empties = int(endgame_empties)
        self.table = shared_table(tt_bits) if shared else new_table(tt_bits)
        self.rate = START_RATE
        self.clear()

    def clear(self) -> None:
        """Forget the table in O(1): entries of other generations are ignored."""
        self.generation = next(_GENERATIONS) % (2**32 - 1) + 1

    def _run(self, P, O, depth: int, max_nodes: int):
        t0 = time.perf_counter()
        move, value, nodes, aborted = negamax(
            np.uint64(P), np.uint64(O), depth, self.weights, self.phase_of_stones, *self.table,
            np.uint32(self.generation), max_nodes)
        seconds = time.perf_counter() - t0
        if nodes > 1000 and seconds > 0:
            self.rate = max(MIN_RATE, 0.5 * self.rate + 0.5 * nodes / seconds)
        return int(move), float(value), int(nodes), bool(aborted), seconds

    def search(self, P, O, depth: int | None = None,
               time_limit: float | None = None) -> SearchResult:
        if depth is None and time_limit is None:
            raise ValueError("give a depth or a time_limit")
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be >= 1, got {depth}")
        start = time.perf_counter()
        empties = 36 - (int(P) | int(O)).bit_count()
        if empties <= self.endgame_empties:
            budget = 2**62 if time_limit is None else max(1000, int(time_limit * self.rate))
            move, value, nodes, aborted, seconds = self._run(P, O, empties, budget)
            if not aborted:
                return SearchResult(move, value, empties, nodes, seconds, True)
        if time_limit is None:
            d = min(int(depth), empties)
            move, value, nodes, _, seconds = self._run(P, O, d, 2**62)
            return SearchResult(move, value, d, nodes, seconds, d == empties)
        return self._deepen(P, O, min(depth or 36, empties), time_limit, start)

    def _deepen(self, P, O, max_depth: int, time_limit: float, start: float) -> SearchResult:
        """Iterative deepening inside ``time_limit`` seconds (from ``start``); an iteration
        predicted (from the growth of the last two) not to fit is not started."""
        best, total, last_nodes, prev_nodes, rate = None, 0, 0, 0, self.rate
        for d in range(1, max_depth + 1):
            remaining = time_limit - (time.perf_counter() - start)
            if best is not None:
                growth = last_nodes / prev_nodes if prev_nodes else 30.0
                if last_nodes * max(growth, 2.0) > remaining * rate:
                    break
            budget = 2**62 if best is None else int(max(0.0, remaining) * rate * SAFETY)
            move, value, nodes, aborted, seconds = self._run(P, O, d, budget)
            if nodes > 1000 and seconds > 0:
                rate = min(self.rate, nodes / seconds)
            total += nodes
            if aborted:
                break
            best = (move, value, d)
            prev_nodes, last_nodes = last_nodes, nodes
            if abs(value) >= WIN_SCORE:  # a forced result: deeper search cannot change it
                break
        move, value, d = best
        return SearchResult(move, value, d, total, time.perf_counter() - start,
                            d == max_depth and abs(value) >= WIN_SCORE)
