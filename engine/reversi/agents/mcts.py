"""Monte-Carlo tree search (UCT) with random or weight-guided playouts, all inside numba; the
UCT loop is ``engine.kernels.search.mcts``.

What Reversi supplies: each node keeps its position and the set of its untried squares (a
bitboard), or a pending pass when the side to move has none but the opponent has; expansion
plays a uniformly random untried square (or the pass). Randomness comes from the explicit
splitmix64 state of ``engine.kernels.rng``, seeded from the agent's generator: a search with a
playout budget is reproducible. A time budget runs the same kernel in chunks.

Rewards are variant-aware: the playout's final position is scored with ``final_score`` under
the variant (win 1, draw 0.5, loss 0). Guided playouts (when ``weights`` is given) pick, with
probability ``1 - guide_epsilon``, the legal square with the highest positional weight of the
current phase, else a random move.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.core.agent import Seed, check_search_args
from engine.kernels.rng import new_state, random_bit, uniform
from engine.kernels.search import mcts as uct
from engine.reversi.agents.simple import SeededAgent, legal_list, positional_arrays
from engine.reversi.rules import bitboard as bb
from engine.reversi.rules.state import PASS, Position, Variant

TIMED_CAPACITY = 1 << 20  # nodes of a timed search


class Nodes(NamedTuple):
    """Reversi's part of the tree (one row per node) and the playout settings."""

    P: np.ndarray  # uint64: discs of the side to move at the node
    O: np.ndarray  # uint64
    untried: np.ndarray  # uint64: legal squares not expanded yet
    pass_pending: np.ndarray  # bool: the only move is a pass, not expanded yet
    reversed_rules: bool
    guided: bool
    phase_of_discs: np.ndarray
    positional: np.ndarray
    guide_epsilon: float


@njit(cache=True)
def _reward(P, O, reversed_rules):
    s = bb.final_score(P, O, reversed_rules)
    return 1.0 if s > 0 else 0.0 if s < 0 else 0.5


@njit(cache=True)
def _playout_move(P, O, moves, state, guided, phase_of_discs, positional, guide_epsilon):
    if not guided or uniform(state) < guide_epsilon:
        return random_bit(state, moves)
    row = positional[phase_of_discs[bb.popcount(P | O) + 1]]
    best_sq, best = -1, -1e300
    while moves:
        sq = bb.lowest_bit_index(moves)
        moves &= moves - bb.ONE
        if row[sq] > best:
            best_sq, best = sq, row[sq]
    return best_sq


# The loop's callbacks (engine.kernels.search.mcts) run without reference counting (``_nrt=False``):
# counting the arrays they take out of ``game`` would cost more than the rest of a descent step.

@njit(cache=True, _nrt=False)
def _playout(game, node, state):
    """Reward for the side to move at ``node`` after playing the game out."""
    P, O = game.P[node], game.O[node]
    root_to_move = True
    passed = False
    while True:
        moves = bb.legal_moves(P, O)
        if moves == bb.ZERO:
            if passed:
                break  # neither side can move: (P, O) is the final position, P to move
            passed = True
            P, O = O, P
        else:
            passed = False
            sq = _playout_move(P, O, moves, state, game.guided, game.phase_of_discs,
                               game.positional, game.guide_epsilon)
            P, O = bb.make_move(P, O, sq, bb.flips(P, O, sq))  # already swapped
        root_to_move = not root_to_move
    r = _reward(P, O, game.reversed_rules)
    return r if root_to_move else 1.0 - r


@njit(cache=True, _nrt=False)
def set_position(game, n, P, O):
    """Row ``n`` holds (P, O): its untried squares, or a pending pass."""
    game.P[n], game.O[n] = P, O
    moves = bb.legal_moves(P, O)
    game.untried[n] = moves
    game.pass_pending[n] = moves == bb.ZERO and bb.legal_moves(O, P) != bb.ZERO


@njit(cache=True, _nrt=False)
def _has_room(game):
    return True


@njit(cache=True, _nrt=False)
def _can_expand(game, node):
    return game.untried[node] != bb.ZERO or game.pass_pending[node]


@njit(cache=True, _nrt=False)
def _expand(game, node, child, state):
    """A uniformly random untried square, or the pending pass."""
    P, O = game.P[node], game.O[node]
    if game.pass_pending[node]:
        game.pass_pending[node] = False
        move, nP, nO = PASS, O, P
    else:
        move = random_bit(state, game.untried[node])
        game.untried[node] &= ~(bb.ONE << np.uint64(move))
        nP, nO = bb.make_move(P, O, move, bb.flips(P, O, move))
    set_position(game, child, nP, nO)
    return move


@njit(cache=True)
def mcts_run(tree, game, iterations, state, exploration):
    """Up to ``iterations`` UCT iterations (``engine.kernels.search.mcts.uct``); returns how
    many ran."""
    return uct.uct(tree, game, iterations, state, exploration, _has_room, _can_expand, _expand,
                   _playout)


class MCTSAgent(SeededAgent):
    """UCT with a playout budget (reproducible; default 1000) or a per-move time budget.

    ``weights`` (a ``Weights``, a weights file path or a (64,)/(8, 8) matrix) guides the
    playouts; without it they are uniformly random.
    """

    def __init__(self, variant: Variant | str = "othello", playouts: int | None = None,
                 time_limit: float | None = None, weights=None, seed: Seed = None,
                 exploration: float = 1.4, guide_epsilon: float = 0.3, name: str | None = None):
        self.variant = Variant.parse(variant)
        check_search_args(time_limit=time_limit)
        if not 0.0 <= guide_epsilon <= 1.0:
            raise ValueError(f"guide_epsilon must be in [0, 1], got {guide_epsilon}")
        self.playouts, self.time_limit = uct.playout_budget(playouts, time_limit), time_limit
        self.exploration, self.guide_epsilon = exploration, guide_epsilon
        self.guided = weights is not None
        self.phase_of_discs, self.positional = (
            positional_arrays(weights) if self.guided
            else (np.zeros(65, np.int64), np.zeros((1, 64)))
        )
        self.name = name or ("mcts_guided" if self.guided else "mcts")
        self.last_playouts = 0
        self.last_root: list[tuple[int, float, float]] = []  # (move, visits, reward sum)
        self.reset(seed)

    def select_move(self, position: Position) -> int:
        moves = legal_list(position)
        if len(moves) == 1:
            return moves[0]
        state = new_state(self._rng)
        capacity = 1 + (self.playouts if self.time_limit is None else TIMED_CAPACITY)
        tree, game = uct.new_tree(capacity, PASS), self._nodes(capacity)
        set_position(game, 0, *position.boards)
        self.last_playouts = uct.run_iterations(
            lambda k: mcts_run(tree, game, k, state, self.exploration), self.playouts,
            self.time_limit)
        self.last_root = uct.root_children(tree)
        return uct.most_visited(self.last_root)[0]

    def _nodes(self, capacity: int) -> Nodes:
        u64 = np.uint64
        return Nodes(np.zeros(capacity, u64), np.zeros(capacity, u64), np.zeros(capacity, u64),
                     np.zeros(capacity, np.bool_), self.variant.is_reversed, self.guided,
                     self.phase_of_discs, self.positional, float(self.guide_epsilon))
