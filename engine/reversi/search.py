"""Negamax alpha-beta with a transposition table, and exact endgame solving (numba).

One kernel, ``_negamax``, serves both modes:

- heuristic: fixed depth; a node at depth 0 is scored by ``engine.reversi.evaluation.evaluate``;
- exact: no depth limit; only finished games are scored, by the final disc difference under
  the variant (``bb.final_score``), so the root value is the exact result of perfect play.
  ``Searcher.solve`` uses the much faster dedicated solver of ``engine.reversi.endgame``; this
  exact mode stays as an independent cross-check for its tests.

It is a plain fail-soft negamax written with an explicit stack (numba's on-disk cache crashes
on self-recursive functions; see ``engine/perft.py``): frame arrays indexed by ply hold each
node's boards, window, ordered move list and progress. A pass swaps the boards and does not
use up depth (Edax's convention); two passes end the game.

Transposition table: numpy arrays indexed by a multiply-xor hash of (P, O); entries store both
boards (no false hits), the depth, bound type, value and best move, and a generation number so
``clear()`` is O(1). Cut-offs use an entry only at *exactly* the remaining depth, so the value
returned is exactly the fixed-depth minimax value whatever the table holds (tests rely on this),
and a search never depends on earlier searches except in speed; deeper entries only order moves.

Move ordering: the table's move first (except at the root), then, 3+ plies from the horizon,
children by their static value; 2 plies from it, fewest opponent replies first. One ply from the
horizon the children are evaluated in place without pushing frames. In exact mode: fewest
opponent replies first while more than ``SHALLOW_EXACT`` squares are empty.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.reversi import bitboard as bb
from engine.reversi import endgame, endgame_table
from engine.reversi.bitboard import NO_MOVE, PASS
from engine.reversi.evaluation import evaluate, terminal_score

U64 = np.uint64
INF = np.inf
MAX_PLY = 130  # 60 moves + passes (never two in a row)
MAX_MOVES = 40  # the most legal moves in any Othello position is 33
EXACT_DEPTH = 100  # depth tag of exact-mode nodes in the table (never decremented)
SHALLOW_EXACT = 6  # exact mode: no table and no ordering with this few empties
BOUND_EXACT, BOUND_LOWER, BOUND_UPPER = 0, 1, 2
HASH_MUL_P = U64(0x9E3779B97F4A7C15)
HASH_MUL_O = U64(0xC2B2AE3D27D4EB4F)


def new_table(bits: int) -> tuple:
    """A transposition table of ``2**bits`` entries (32 bytes each)."""
    if not 4 <= bits <= 30:
        raise ValueError(f"tt_bits must be in 4..30, got {bits}")
    n = 1 << bits
    table = (
        np.empty(n, np.uint64),
        np.empty(n, np.uint64),
        np.empty(n, np.float64),
        np.empty(n, np.int16),
        np.empty(n, np.int8),
        np.empty(n, np.int8),
        np.empty(n, np.uint32),
    )
    for a in table:  # touch every page now: first-touch page faults would stall a timed search
        a.fill(0)
    return table


_SHARED_TABLES: dict[int, tuple] = {}


def shared_table(bits: int) -> tuple:
    """One table per size per process, shared by every ``Searcher`` that asks for it.

    Sharing is safe: each searcher tags its entries with its own generation number (from one
    process-wide counter), so it never reads another's entries, and a search's result never
    depends on what the table holds (only its speed does). It saves each GA agent a table.
    """
    if bits not in _SHARED_TABLES:
        _SHARED_TABLES[bits] = new_table(bits)
    return _SHARED_TABLES[bits]


@njit(cache=True, inline="always")
def _slot(P, O, shift):
    h = (P ^ (O * HASH_MUL_O)) * HASH_MUL_P
    return np.int64(h >> shift)


@njit(cache=True, inline="always")
def _insert_sorted(keys, moves, cP, cO, n, key, sq, nP, nO):
    """Insert one move into the lists kept in descending key order (stable for equal keys)."""
    i = n
    while i > 0 and keys[i - 1] < key:
        keys[i] = keys[i - 1]
        moves[i] = moves[i - 1]
        cP[i] = cP[i - 1]
        cO[i] = cO[i - 1]
        i -= 1
    keys[i] = key
    moves[i] = sq
    cP[i] = nP
    cO[i] = nO


@njit(cache=True)
def _order_moves(
    P,
    O,
    moves_bb,
    d,
    exact,
    tt_move,
    keys,
    moves,
    cP,
    cO,
    phase_of_discs,
    positional,
    features,
    reversed_rules,
):
    """Fill ``moves`` (and the child boards) best-first; returns the number of moves."""
    n = 0
    empties = 64 - bb.popcount(P | O)
    x = moves_bb
    while x:
        sq = bb.lowest_bit_index(x)
        x &= x - bb.ONE
        nP, nO = bb.make_move(P, O, sq, bb.flips(P, O, sq))
        if sq == tt_move:
            key = INF
        elif exact:
            key = 0.0 if empties <= SHALLOW_EXACT else -1.0 * bb.popcount(bb.legal_moves(nP, nO))
        elif d >= 3:
            key = -evaluate(nP, nO, phase_of_discs, positional, features, reversed_rules)
        else:
            key = -1.0 * bb.popcount(bb.legal_moves(nP, nO))
        _insert_sorted(keys, moves, cP, cO, n, key, sq, nP, nO)
        n += 1
    return n


@njit(cache=True)
def _negamax(
    P0,
    O0,
    depth,
    exact,
    reversed_rules,
    phase_of_discs,
    positional,
    features,
    tt_P,
    tt_O,
    tt_value,
    tt_depth,
    tt_bound,
    tt_move,
    tt_gen,
    gen,
    max_nodes,
):
    """Search ``(P0, O0)``; returns (best move, value, nodes, aborted).

    Best move is ``PASS`` when the root must pass and ``NO_MOVE`` when the game is over.
    ``aborted`` is True when ``max_nodes`` was exceeded (the other outputs are then unusable).
    """
    shift = U64(64 - int(np.log2(tt_P.shape[0])))
    # frames needed: one per move and per pass (never two passes in a row) below the root
    empties0 = 64 - bb.popcount(P0 | O0)
    cap = min(MAX_PLY, 2 * min(depth, empties0) + 3)
    sP = np.empty(cap, np.uint64)
    sO = np.empty(cap, np.uint64)
    s_alpha = np.empty(cap, np.float64)
    s_beta = np.empty(cap, np.float64)
    s_alpha0 = np.empty(cap, np.float64)
    s_depth = np.empty(cap, np.int64)
    s_best = np.empty(cap, np.float64)
    s_best_move = np.empty(cap, np.int64)
    s_n = np.empty(cap, np.int64)
    s_i = np.empty(cap, np.int64)
    s_pass = np.zeros(cap, np.bool_)
    m_key = np.empty((cap, MAX_MOVES), np.float64)
    m_sq = np.empty((cap, MAX_MOVES), np.int64)
    m_P = np.empty((cap, MAX_MOVES), np.uint64)
    m_O = np.empty((cap, MAX_MOVES), np.uint64)

    sP[0], sO[0], s_depth[0] = P0, O0, depth
    s_alpha[0], s_beta[0] = -INF, INF
    nodes = 0
    ply = 0
    root_move = NO_MOVE
    while True:
        # ---- enter the node at `ply`; either push a child (continue) or produce `ret`
        P, O, d = sP[ply], sO[ply], s_depth[ply]
        alpha, beta = s_alpha[ply], s_beta[ply]
        nodes += 1
        if nodes > max_nodes:
            return NO_MOVE, 0.0, nodes, True
        s_pass[ply] = False
        have_ret = True
        ret = 0.0
        moves_bb = bb.legal_moves(P, O)
        if not exact and d == 0:
            ret = evaluate(P, O, phase_of_discs, positional, features, reversed_rules)
        elif moves_bb == bb.ZERO:
            if bb.legal_moves(O, P) == bb.ZERO:
                ret = (
                    bb.final_score(P, O, reversed_rules) * 1.0
                    if exact
                    else terminal_score(P, O, reversed_rules)
                )
            else:  # pass: same depth, swapped boards and window
                s_pass[ply] = True
                if ply == 0:
                    root_move = PASS
                sP[ply + 1], sO[ply + 1], s_depth[ply + 1] = O, P, d
                s_alpha[ply + 1], s_beta[ply + 1] = -beta, -alpha
                ply += 1
                continue
        else:
            empties = 64 - bb.popcount(P | O)
            use_tt = empties > SHALLOW_EXACT if exact else d >= 2
            hint = NO_MOVE
            slot = 0
            if use_tt:
                slot = _slot(P, O, shift)
                if tt_gen[slot] == gen and tt_P[slot] == P and tt_O[slot] == O:
                    hint = tt_move[slot]
                    if tt_depth[slot] == d and ply > 0:
                        v = tt_value[slot]
                        b = tt_bound[slot]
                        if (
                            b == BOUND_EXACT
                            or (b == BOUND_LOWER and v >= beta)
                            or (b == BOUND_UPPER and v <= alpha)
                        ):
                            ret = v
                            have_ret = True
                            hint = -2  # marker: answered from the table
            if hint != -2:
                s_alpha0[ply] = alpha
                if not exact and d == 1:
                    # one ply from the horizon: evaluate the children in place
                    best = -INF
                    best_move = NO_MOVE
                    x = moves_bb
                    while x:
                        sq = bb.lowest_bit_index(x)
                        x &= x - bb.ONE
                        nP, nO = bb.make_move(P, O, sq, bb.flips(P, O, sq))
                        nodes += 1
                        v = -evaluate(nP, nO, phase_of_discs, positional, features, reversed_rules)
                        if v > best:
                            best = v
                            best_move = sq
                            if v > alpha:
                                alpha = v
                                if alpha >= beta:
                                    break
                    ret = best
                    if ply == 0:
                        root_move = best_move
                else:
                    # The root ignores the table's move: among equally valued moves the first
                    # in order is played, so a fixed root order keeps the choice independent of
                    # earlier searches (reproducible agents).
                    n = _order_moves(
                        P,
                        O,
                        moves_bb,
                        d,
                        exact,
                        hint if ply > 0 else NO_MOVE,
                        m_key[ply],
                        m_sq[ply],
                        m_P[ply],
                        m_O[ply],
                        phase_of_discs,
                        positional,
                        features,
                        reversed_rules,
                    )
                    s_n[ply], s_i[ply] = n, 0
                    s_best[ply], s_best_move[ply] = -INF, m_sq[ply, 0]
                    child_d = d if exact else d - 1
                    sP[ply + 1], sO[ply + 1], s_depth[ply + 1] = m_P[ply, 0], m_O[ply, 0], child_d
                    s_alpha[ply + 1], s_beta[ply + 1] = -beta, -alpha
                    ply += 1
                    continue
        # ---- `ret` is the value of the node at `ply`: hand it up until a parent needs a child
        while have_ret:
            if ply == 0:
                return root_move, ret, nodes, False
            ply -= 1
            v = -ret
            if s_pass[ply]:
                ret = v
                continue
            i = s_i[ply]
            if v > s_best[ply]:
                s_best[ply] = v
                s_best_move[ply] = m_sq[ply, i]
                if v > s_alpha[ply]:
                    s_alpha[ply] = v
            if s_alpha[ply] >= s_beta[ply] or i + 1 == s_n[ply]:
                ret = s_best[ply]
                if ply == 0:
                    root_move = s_best_move[0]
                P, O = sP[ply], sO[ply]
                empties = 64 - bb.popcount(P | O)
                if (empties > SHALLOW_EXACT) if exact else (s_depth[ply] >= 2):
                    slot = _slot(P, O, shift)
                    bound = BOUND_EXACT
                    if ret <= s_alpha0[ply]:
                        bound = BOUND_UPPER
                    elif ret >= s_beta[ply]:
                        bound = BOUND_LOWER
                    tt_P[slot], tt_O[slot], tt_gen[slot] = P, O, gen
                    tt_value[slot], tt_bound[slot] = ret, bound
                    tt_depth[slot], tt_move[slot] = s_depth[ply], s_best_move[ply]
                continue
            i += 1
            s_i[ply] = i
            child_d = s_depth[ply] if exact else s_depth[ply] - 1
            sP[ply + 1], sO[ply + 1], s_depth[ply + 1] = m_P[ply, i], m_O[ply, i], child_d
            s_alpha[ply + 1], s_beta[ply + 1] = -s_beta[ply], -s_alpha[ply]
            ply += 1
            have_ret = False


# --- Python driver ---------------------------------------------------------------------------

import itertools  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402

from engine.reversi.position import Position, Variant  # noqa: E402

_GENERATIONS = itertools.count(1)  # process-wide: searchers sharing a table never collide
MIN_RATE = 200_000.0  # floor of the measured speed (nodes/s)
START_SOLVE_RATE = 5_000_000.0  # exact-solver speed assumed before anything is measured
from engine.reversi.search_settings import EXACT_SOLVERS  # noqa: E402

START_RATE = 1_000_000.0  # speed assumed before anything is measured (a few M nodes/s warm)
SAFETY = 0.8  # fraction of the remaining time an iteration's node budget may use


@dataclass(frozen=True)
class SearchResult:
    move: int  # square 0..63, PASS, or NO_MOVE (-1) when the game is over
    score: float  # from the side to move's view; exact disc difference when ``exact``
    depth: int  # plies of the last completed iteration (empties when exact)
    nodes: int
    seconds: float
    exact: bool


class Searcher:
    """Alpha-beta with fixed weights and variant; keeps its table between searches.

    ``search(position, depth=...)`` searches to a fixed depth; ``time_limit=...`` (seconds)
    deepens iteratively, bounding each iteration by a node budget from the measured speed
    (numba has no clock), and returns the deepest completed iteration. Positions with at most
    ``endgame_empties`` empty squares are solved exactly instead.
    """

    def __init__(
        self,
        weights,
        variant="othello",
        endgame_empties: int = 10,
        tt_bits: int = 20,
        shared: bool = False,
        exact_solver: str = "pvs",
    ):
        if exact_solver not in EXACT_SOLVERS:
            raise ValueError(f"exact_solver={exact_solver!r} must be one of: "
                             f"{', '.join(EXACT_SOLVERS)}")
        self.exact_solver = exact_solver
        self.weights = weights
        self.variant = Variant.parse(variant)
        self.endgame_empties = int(endgame_empties)
        self.arrays = weights.numba_arrays()
        self.table = shared_table(tt_bits) if shared else new_table(tt_bits)
        self.tt_bits = tt_bits
        self.shared = shared
        self._endgame_table = None  # made on the first exact solve (GA agents may never solve)
        self.solve_rate = START_SOLVE_RATE
        self.generation = 0
        self.clear()
        self.rate = START_RATE

    def clear(self) -> None:
        """Forget the table in O(1): entries of other generations are ignored."""
        self.generation = next(_GENERATIONS) % (2**32 - 1) + 1  # never 0 (= empty slot)

    def _run(self, position: Position, depth: int, exact: bool, max_nodes: int):
        P, O = position.boards
        t0 = time.perf_counter()
        move, value, nodes, aborted = _negamax(
            P,
            O,
            depth,
            exact,
            self.variant.is_reversed,
            *self.arrays,
            *self.table,
            np.uint32(self.generation),
            max_nodes,
        )
        seconds = time.perf_counter() - t0
        if nodes > 1000 and seconds > 0:
            self.rate = max(MIN_RATE, 0.5 * self.rate + 0.5 * nodes / seconds)
        return int(move), float(value), int(nodes), bool(aborted), seconds

    def solve(self, position: Position, time_limit: float | None = None) -> SearchResult | None:
        """Exact result of perfect play (score = final disc difference for the side to move).

        With ``time_limit``, returns None if the solve did not finish in about that time.
        """
        if self.exact_solver == "negamax":  # the solver before issue 15 (old runs replay)
            budget = 2**62 if time_limit is None else max(1000, int(time_limit * self.rate))
            move, value, nodes, aborted, seconds = self._run(position, EXACT_DEPTH, True, budget)
            return None if aborted else SearchResult(move, value, position.empties, nodes,
                                                     seconds, True)
        budget = 2**62 if time_limit is None else max(1000, int(time_limit * self.solve_rate))
        if self._endgame_table is None:
            bits = self.tt_bits
            self._endgame_table = (
                endgame_table.shared_table(bits) if self.shared else endgame_table.new_table(bits)
            )
        P, O = position.boards
        t0 = time.perf_counter()
        move, score, nodes, aborted = endgame.solve_exact(
            P, O, self.variant.is_reversed, self._endgame_table, self.generation, budget
        )
        seconds = time.perf_counter() - t0
        if nodes > 100_000 and seconds > 0:
            self.solve_rate = max(MIN_RATE, 0.5 * self.solve_rate + 0.5 * nodes / seconds)
        if aborted:
            return None
        return SearchResult(move, float(score), position.empties, nodes, seconds, True)

    def search(
        self, position: Position, depth: int | None = None, time_limit: float | None = None
    ) -> SearchResult:
        if depth is None and time_limit is None:
            raise ValueError("give a depth or a time_limit")
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be >= 1, got {depth}")
        if depth is not None:
            depth = min(int(depth), 64)  # deeper than the empties only reaches the same ends
        start = time.perf_counter()
        if position.empties <= self.endgame_empties:
            result = self.solve(position, time_limit)
            if result is not None:
                return result
        if time_limit is None:
            move, value, nodes, _, seconds = self._run(position, depth, False, 2**62)
            return SearchResult(move, value, depth, nodes, seconds, False)
        return self._deepen(position, depth or 60, time_limit, start)

    def _deepen(self, position: Position, max_depth: int, time_limit: float, start: float):
        """Iterative deepening inside ``time_limit`` seconds (measured from ``start``).

        Each iteration gets a node budget = remaining time x speed, the speed being the
        slower of the running average and this search's last iteration, times ``SAFETY``;
        an iteration predicted (from the growth of the last two) not to fit is not started.
        """
        best = None
        total_nodes = 0
        last_nodes = prev_nodes = 0
        rate = self.rate
        for d in range(1, max(1, min(max_depth, position.empties)) + 1):
            remaining = time_limit - (time.perf_counter() - start)
            if best is not None:
                growth = last_nodes / prev_nodes if prev_nodes else 8.0
                if last_nodes * max(growth, 2.0) > remaining * rate:
                    break  # the next iteration would almost surely not finish
            budget = 1000 if best is None else int(max(0.0, remaining) * rate * SAFETY)
            move, value, nodes, aborted, seconds = self._run(position, d, False, budget)
            if nodes > 1000 and seconds > 0:
                rate = min(self.rate, nodes / seconds)
            total_nodes += nodes
            if aborted:
                if best is None:  # not even depth 1: search it without limit (tiny)
                    move, value, nodes, _, _ = self._run(position, 1, False, 2**62)
                    total_nodes += nodes
                    best = (move, value, 1)
                break
            best = (move, value, d)
            prev_nodes, last_nodes = last_nodes, nodes
        move, value, d = best
        return SearchResult(move, value, d, total_nodes, time.perf_counter() - start, False)
