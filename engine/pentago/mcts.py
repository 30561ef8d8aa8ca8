"""Monte-Carlo tree search as in the course's seed agent: UCT (c = sqrt 2) with random
play-outs and immediate win / loss checks at the root, all iterations inside numba.

The tree is flat arrays (one row per node, children as a sibling list). A node's distinct
successors are listed once, in a shared move pool, when it is first expanded; expansion then
takes a uniformly random untried one (an incremental Fisher-Yates shuffle). ``value[n]`` holds
the reward sum (win 1, draw 0.5, loss 0) of the player who moved into node ``n``, so UCT at every
node maximises its own mover's mean. Heuristic play-outs (``guided``) play, at each step, the
best of ``samples`` random moves by the evaluation (a win when one is drawn). Randomness comes
from the explicit RNG of ``engine.pentago.bits``, seeded from the agent: a search with a
play-out budget is reproducible; a time budget runs the same kernel in chunks.
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit

from engine.core.agent import Seed, make_rng
from engine.kernels.rng import below
from engine.kernels.rng import new_state as new_rng_state
from engine.pentago import bitboard as bb
from engine.pentago import tactics
from engine.pentago.evaluation import evaluate

NONE = -1
EXPLORATION = math.sqrt(2.0)
REWARD = {bb.TO_MOVE_WINS: 1.0, bb.TO_MOVE_LOSES: 0.0, bb.DRAWN: 0.5}


@njit(cache=True)
def _reward(r):
    return 1.0 if r == bb.TO_MOVE_WINS else 0.0 if r == bb.TO_MOVE_LOSES else 0.5


@njit(cache=True)
def _playout_move(P, O, rng, guided, weights, phase_of_stones, samples):
    move = bb.random_move(P, O, rng)
    if not guided:
        return move
    best = -np.inf
    for _ in range(samples):
        nP, nO = bb.play(P, O, move)
        r = bb.result(nP, nO)
        v = 1e9 if r == bb.TO_MOVE_LOSES else -1e9 if r == bb.TO_MOVE_WINS else \
            0.0 if r == bb.DRAWN else -evaluate(nP, nO, weights, phase_of_stones)
        if v > best:
            best, chosen = v, move
        if r == bb.TO_MOVE_LOSES:
            break
        move = bb.random_move(P, O, rng)
    return chosen


@njit(cache=True)
def _playout(P, O, rng, guided, weights, phase_of_stones, samples):
    """Reward for the side to move at (P, O) after playing the game out."""
    flipped = False
    while True:
        r = bb.result(P, O)
        if r != bb.ONGOING:
            reward = _reward(r)
            return 1.0 - reward if flipped else reward
        P, O = bb.play(P, O, _playout_move(P, O, rng, guided, weights, phase_of_stones,
                                           samples))
        flipped = not flipped


@njit(cache=True)
def mcts_run(node_P, node_O, parent, first_child, sibling, move, visits, value, pool_start,
             pool_count, expanded, pool, counters, iterations, rng, exploration, guided,
             weights, phase_of_stones, samples):
    """Run up to ``iterations`` UCT iterations. ``counters`` = [nodes, pool entries used] is
    updated; stops early (returns the iterations done) when the node or pool arrays would
    overflow."""
    c_P, c_O = np.empty(bb.MOVES, np.uint64), np.empty(bb.MOVES, np.uint64)
    c_move = np.empty(bb.MOVES, np.int64)
    for it in range(iterations):
        if counters[0] + 1 > node_P.shape[0] or counters[1] + bb.MOVES > pool.shape[0]:
            return it
        node = 0
        while bb.result(node_P[node], node_O[node]) == bb.ONGOING:
            if pool_start[node] < 0:  # first expansion: list the distinct successors
                n = bb.distinct_children(node_P[node], node_O[node], c_P, c_O, c_move)
                pool_start[node], pool_count[node] = counters[1], n
                pool[counters[1]:counters[1] + n] = c_move[:n]
                counters[1] += n
            start, k = pool_start[node], expanded[node]
            if k < pool_count[node]:  # expansion: a random untried successor
                j = start + k + below(rng, pool_count[node] - k)
                pool[start + k], pool[j] = pool[j], pool[start + k]
                expanded[node] = k + 1
                child = counters[0]
                counters[0] += 1
                mv = pool[start + k]
                node_P[child], node_O[child] = bb.play(node_P[node], node_O[node], mv)
                parent[child], move[child], sibling[child] = node, mv, first_child[node]
                first_child[child], pool_start[child], expanded[child] = NONE, -1, 0
                visits[child], value[child] = 0.0, 0.0
                first_child[node] = child
                node = child
                break
            log_n = np.log(visits[node])  # selection: the best UCT child
            best, best_child, child = -1.0, first_child[node], first_child[node]
            while child != NONE:
                ucb = value[child] / visits[child] + exploration * np.sqrt(log_n / visits[child])
                if ucb > best:
                    best, best_child = ucb, child
                child = sibling[child]
            node = best_child
        r = _playout(node_P[node], node_O[node], rng, guided, weights, phase_of_stones, samples)
        while node != NONE:  # value[n] is for the player who moved into n
            visits[node] += 1.0
            value[node] += 1.0 - r
            r = 1.0 - r
            node = parent[node]
    return iterations


class MCTSAgent:
    """UCT with a play-out budget (reproducible; default 1000) or a time budget per move.

    ``weights`` / ``phase_of_stones`` (the evaluation's arrays) switch on heuristic play-outs.
    The root checks come first: a winning move is played at once, and moves that lose at once
    or let the opponent win in one are searched only if nothing else is left.
    """

    def __init__(self, playouts: int | None = None, time_limit: float | None = None,
                 weights: np.ndarray | None = None, phase_of_stones: np.ndarray | None = None,
                 samples: int = 4, seed: Seed = None, exploration: float = EXPLORATION,
                 name: str | None = None):
        if playouts is None and time_limit is None:
            playouts = 1000
        if playouts is not None and playouts < 1:
            raise ValueError(f"playouts must be >= 1, got {playouts}")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be > 0 seconds, got {time_limit}")
        self.playouts, self.time_limit = playouts, time_limit
        self.guided = weights is not None
        self.weights = np.zeros((1, 18)) if weights is None else np.asarray(weights, float)
        self.phase_of_stones = np.zeros(37, np.int64) if phase_of_stones is None else \
            np.asarray(phase_of_stones, np.int64)
        self.samples, self.exploration = int(samples), float(exploration)
        self.name = name or ("mcts_h" if self.guided else "mcts")
        self.last_playouts = 0
        self.last_info: dict = {}
        self.reset(seed)

    def reset(self, seed: Seed = None) -> None:
        self._rng = make_rng(seed)

    def select_move(self, state) -> int:
        P, O = state.boards()
        top, candidates = tactics.best_ranked_moves(P, O)
        if top == tactics.WIN or len(candidates) == 1:
            self.last_info = {"win_rate": 1.0 if top == tactics.WIN else None}
            return candidates[0]
        tree, counters = self._search(P, O, candidates)
        return self._most_visited(tree)

    def _search(self, P, O, candidates: list[int]):
        budget = self.playouts if self.time_limit is None else None
        capacity = 1 + (budget if budget is not None else 1 << 21)
        # room for every node's successor list with a budget; a timed search that fills its
        # pool (far beyond the play-outs a few seconds allow) just stops early
        pool_size = bb.MOVES * capacity if budget is not None else 1 << 26
        tree = _new_tree(capacity, pool_size)
        tree["node_P"][0], tree["node_O"][0], tree["parent"][0] = P, O, NONE
        tree["first_child"][0], tree["pool_start"][0] = NONE, 0
        tree["pool_count"][0] = len(candidates)
        tree["pool"][: len(candidates)] = candidates
        counters = np.array([1, len(candidates)], np.int64)
        rng, done, start = new_rng_state(self._rng), 0, time.perf_counter()
        while budget is None or done < budget:
            chunk = 256 if budget is None else budget - done
            ran = mcts_run(*tree.values(), counters, chunk, rng, self.exploration, self.guided,
                           self.weights, self.phase_of_stones, self.samples)
            done += ran
            if ran < chunk or (budget is None and time.perf_counter() - start
                               >= self.time_limit):
                break
        self.last_playouts = done
        self.pool_used = int(counters[1])
        return tree, counters

    def _most_visited(self, tree) -> int:
        best_move, best, child = NONE, -1.0, tree["first_child"][0]
        while child != NONE:  # ties: lowest move id, deterministic
            v, mv = tree["visits"][child], int(tree["move"][child])
            if v > best or (v == best and mv < best_move):
                best_move, best, best_child = mv, v, child
            child = tree["sibling"][child]
        self.last_info = {"win_rate": float(tree["value"][best_child] / max(best, 1.0))}
        return best_move


def _new_tree(capacity: int, pool_size: int) -> dict[str, np.ndarray]:
    """Empty node arrays in ``mcts_run``'s argument order (np.zeros maps pages lazily, so a
    large time-budget capacity costs only what is used)."""
    u64, i64 = np.uint64, np.int64
    dtypes = dict(node_P=u64, node_O=u64, parent=i64, first_child=i64, sibling=i64, move=i64,
                  visits=np.float64, value=np.float64, pool_start=i64, pool_count=i64,
                  expanded=i64)
    tree = {key: np.zeros(capacity, dtype) for key, dtype in dtypes.items()}
    tree["pool"] = np.zeros(pool_size, np.int16)
    return tree
