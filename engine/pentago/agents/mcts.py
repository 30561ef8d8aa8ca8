"""Monte-Carlo tree search as in the course's seed agent: UCT (c = sqrt 2) with random
play-outs and immediate win / loss checks at the root; the UCT loop is
``engine.kernels.search.mcts``.

What Pentago Twist supplies: a node's distinct successors are listed once, in a shared move
pool, the first time the descent reaches it; expansion then takes a uniformly random untried one
(an incremental Fisher-Yates shuffle). Heuristic play-outs (``guided``) play, at each step, the
best of ``samples`` random moves by the evaluation (a win when one is drawn). Randomness comes
from the seeded kernel RNG (``engine.kernels.rng``): a search with a play-out budget is
reproducible; a time budget runs the same kernel in chunks.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from engine.core.agent import Seed, check_search_args, make_rng
from engine.kernels.rng import below
from engine.kernels.rng import new_state as new_rng_state
from engine.kernels.search import mcts as uct
from engine.pentago.agents import tactics
from engine.pentago.genome.evaluation import evaluate
from engine.pentago.rules import bitboard as bb

EXPLORATION = math.sqrt(2.0)
REWARD = {bb.TO_MOVE_WINS: 1.0, bb.TO_MOVE_LOSES: 0.0, bb.DRAWN: 0.5}
TIMED_CAPACITY = 1 << 21  # nodes of a timed search
TIMED_POOL = 1 << 26  # pool entries of a timed search (it stops early when they run out)


class Nodes(NamedTuple):
    """Pentago's part of the tree (one row per node) and the play-out settings."""

    P: np.ndarray  # uint64: stones of the side to move at the node
    O: np.ndarray  # uint64
    pool_start: np.ndarray  # int64: where the node's successor list starts; -1: not listed
    pool_count: np.ndarray  # int64: how many distinct successors
    expanded: np.ndarray  # int64: how many of them are children already (the pool's front)
    pool: np.ndarray  # int16: successor lists of all listed nodes
    pool_used: np.ndarray  # int64[1]
    scratch_P: np.ndarray  # uint64[288]: distinct_children's output
    scratch_O: np.ndarray
    scratch_move: np.ndarray  # int64[288]
    scratch_set: np.ndarray  # int64[bb.DEDUP_SLOTS]: distinct_children_into's hash set
    guided: bool
    weights: np.ndarray
    phase_of_stones: np.ndarray
    samples: int


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


# The loop's callbacks (engine.kernels.search.mcts) run without reference counting (``_nrt=False``):
# counting the arrays they take out of ``game`` would cost more than the rest of a descent step.

@njit(cache=True, _nrt=False)
def _playout(game, node, rng):
    """Reward for the side to move at ``node`` after playing the game out."""
    P, O = game.P[node], game.O[node]
    flipped = False
    while True:
        r = bb.result(P, O)
        if r != bb.ONGOING:
            reward = _reward(r)
            return 1.0 - reward if flipped else reward
        P, O = bb.play(P, O, _playout_move(P, O, rng, game.guided, game.weights,
                                           game.phase_of_stones, game.samples))
        flipped = not flipped


@njit(cache=True, _nrt=False)
def _has_room(game):
    return game.pool_used[0] + bb.MOVES <= game.pool.shape[0]


@njit(cache=True, _nrt=False)
def _can_expand(game, node):
    """False at a finished game; a node not listed yet has successors to try."""
    if bb.result(game.P[node], game.O[node]) != bb.ONGOING:
        return False
    return game.pool_start[node] < 0 or game.expanded[node] < game.pool_count[node]


@njit(cache=True, _nrt=False)
def _expand(game, node, child, rng):
    """A uniformly random untried successor, swapped to the front of the node's list (which
    is made the first time)."""
    if game.pool_start[node] < 0:
        _list_successors(game, node)
    pool, start, k = game.pool, game.pool_start[node], game.expanded[node]
    j = start + k + below(rng, game.pool_count[node] - k)
    pool[start + k], pool[j] = pool[j], pool[start + k]
    game.expanded[node] = k + 1
    move = pool[start + k]
    game.P[child], game.O[child] = bb.play(game.P[node], game.O[node], move)
    game.pool_start[child], game.expanded[child] = -1, 0
    return move


@njit(cache=True, _nrt=False)
def _list_successors(game, node):
    """The node's distinct successors, appended to the pool (element by element: a slice is
    an array of its own, which needs reference counting)."""
    n = bb.distinct_children_into(game.P[node], game.O[node], game.scratch_P, game.scratch_O,
                                  game.scratch_move, game.scratch_set)
    start = game.pool_used[0]
    game.pool_start[node], game.pool_count[node] = start, n
    for i in range(n):
        game.pool[start + i] = game.scratch_move[i]
    game.pool_used[0] += n


@njit(cache=True)
def mcts_run(tree, game, iterations, rng, exploration):
    """Up to ``iterations`` UCT iterations (``engine.kernels.search.mcts.uct``); returns how
    many ran."""
    return uct.uct(tree, game, iterations, rng, exploration, _has_room, _can_expand, _expand,
                   _playout)


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
        check_search_args(time_limit=time_limit)
        self.playouts, self.time_limit = uct.playout_budget(playouts, time_limit), time_limit
        self.guided = weights is not None
        self.weights = np.zeros((1, 18)) if weights is None else np.asarray(weights, float)
        self.phase_of_stones = np.zeros(37, np.int64) if phase_of_stones is None else \
            np.asarray(phase_of_stones, np.int64)
        self.samples, self.exploration = int(samples), float(exploration)
        self.name = name or ("mcts_h" if self.guided else "mcts")
        self.last_playouts = 0
        self.last_info: dict = {}
        self.last_root: list[tuple[int, float, float]] = []  # (move, visits, reward sum)
        self.reset(seed)

    def reset(self, seed: Seed = None) -> None:
        self._rng = make_rng(seed)

    def select_move(self, state) -> int:
        P, O = state.boards()
        top, candidates = tactics.best_ranked_moves(P, O)
        if top == tactics.WIN or len(candidates) == 1:
            self.last_info = {"win_rate": 1.0 if top == tactics.WIN else None}
            return candidates[0]
        tree = self._search(P, O, candidates)
        self.last_root = uct.root_children(tree)
        move, visits, value = uct.most_visited(self.last_root)
        self.last_info = {"win_rate": value / max(visits, 1.0)}
        return move

    def _search(self, P, O, candidates: list[int]) -> uct.Tree:
        """The tree after the search; the root's successor list is ``candidates``."""
        budget = self.playouts if self.time_limit is None else None
        capacity = 1 + (budget if budget is not None else TIMED_CAPACITY)
        # room for every node's successor list with a budget; a timed search that fills its
        # pool (far beyond the play-outs a few seconds allow) just stops early
        game = self._nodes(capacity, bb.MOVES * capacity if budget is not None else TIMED_POOL)
        game.P[0], game.O[0] = P, O
        game.pool_start[0], game.pool_count[0] = 0, len(candidates)
        game.pool[: len(candidates)] = candidates
        game.pool_used[0] = len(candidates)
        tree, rng = uct.new_tree(capacity), new_rng_state(self._rng)
        self.last_playouts = uct.run_iterations(
            lambda k: mcts_run(tree, game, k, rng, self.exploration), budget, self.time_limit)
        self.pool_used = int(game.pool_used[0])
        return tree

    def _nodes(self, capacity: int, pool_size: int) -> Nodes:
        u64, i64 = np.uint64, np.int64
        return Nodes(np.zeros(capacity, u64), np.zeros(capacity, u64),
                     np.zeros(capacity, i64), np.zeros(capacity, i64), np.zeros(capacity, i64),
                     np.zeros(pool_size, np.int16), np.zeros(1, i64), np.empty(bb.MOVES, u64),
                     np.empty(bb.MOVES, u64), np.empty(bb.MOVES, i64),
                     np.empty(bb.DEDUP_SLOTS, i64), self.guided,
                     self.weights, self.phase_of_stones, self.samples)
