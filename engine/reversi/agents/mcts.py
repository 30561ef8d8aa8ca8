"""Monte-Carlo tree search (UCT) with random or weight-guided playouts, all inside numba.

The tree is a set of flat arrays (one row per node, children as a sibling list), so a whole
search is one compiled call and costs microseconds per playout. Randomness comes from the
explicit splitmix64 state of ``engine.kernels.rng``, seeded from the agent's generator: a
search with a playout budget is reproducible. A time budget runs the same kernel in chunks.

Rewards are variant-aware: the playout's final position is scored with ``final_score`` under
the variant (win 1, draw 0.5, loss 0). ``value[n]`` holds the reward sum of the player who made
the move leading to node ``n``, so UCT at every node maximises its own mover's mean reward.
Guided playouts (when ``weights`` is given) pick, with probability ``1 - guide_epsilon``, the
legal square with the highest positional weight of the current phase, else a random move.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from engine.core.agent import Seed, make_rng
from engine.kernels.rng import new_state, random_bit, uniform
from engine.reversi import bitboard as bb
from engine.reversi.agents.simple import legal_list, positional_arrays
from engine.reversi.position import PASS, Position, Variant

NONE = -1


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


@njit(cache=True)
def _playout(P, O, state, reversed_rules, guided, phase_of_discs, positional, guide_epsilon):
    """Reward for the side to move at (P, O) after playing the game out."""
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
            sq = _playout_move(P, O, moves, state, guided, phase_of_discs, positional,
                               guide_epsilon)
            P, O = bb.make_move(P, O, sq, bb.flips(P, O, sq))  # already swapped
        root_to_move = not root_to_move
    r = _reward(P, O, reversed_rules)
    return r if root_to_move else 1.0 - r


@njit(cache=True)
def _new_node(tree_P, tree_O, untried, parent, first_child, sibling, move, n, P, O, par, mv):
    tree_P[n], tree_O[n], parent[n], move[n] = P, O, par, mv
    first_child[n], sibling[n] = NONE, NONE
    moves = bb.legal_moves(P, O)
    if moves == bb.ZERO and bb.legal_moves(O, P) != bb.ZERO:
        untried[n] = bb.ZERO
        return True  # the only move is a pass
    untried[n] = moves
    return False


@njit(cache=True)
def mcts_run(tree_P, tree_O, untried, pass_pending, parent, first_child, sibling, move, visits,
             value, n_nodes, iterations, state, reversed_rules, exploration, guided,
             phase_of_discs, positional, guide_epsilon):
    """Run ``iterations`` UCT iterations on the tree whose ``n_nodes`` rows are filled; returns
    the new node count. Capacity must be >= n_nodes + iterations."""
    for _ in range(iterations):
        node = 0
        # selection: descend while fully expanded and not terminal
        while untried[node] == bb.ZERO and not pass_pending[node] and first_child[node] != NONE:
            log_n = np.log(visits[node])
            best, best_child = -1.0, first_child[node]
            child = first_child[node]
            while child != NONE:
                ucb = value[child] / visits[child] + exploration * np.sqrt(log_n / visits[child])
                if ucb > best:
                    best, best_child = ucb, child
                child = sibling[child]
            node = best_child
        # expansion
        P, O = tree_P[node], tree_O[node]
        if untried[node] != bb.ZERO or pass_pending[node]:
            if pass_pending[node]:
                pass_pending[node] = False
                mv, nP, nO = 64, O, P
            else:
                mv = random_bit(state, untried[node])
                untried[node] &= ~(bb.ONE << np.uint64(mv))
                nP, nO = bb.make_move(P, O, mv, bb.flips(P, O, mv))
            child = n_nodes
            n_nodes += 1
            pass_pending[child] = _new_node(tree_P, tree_O, untried, parent, first_child, sibling,
                                            move, child, nP, nO, node, mv)
            sibling[child] = first_child[node]
            first_child[node] = child
            visits[child] = 0.0
            value[child] = 0.0
            node = child
        # simulation: reward for the side to move at ``node``
        r = _playout(tree_P[node], tree_O[node], state, reversed_rules, guided, phase_of_discs,
                     positional, guide_epsilon)
        # backpropagation: value[n] is for the player who moved into n (= not to move at n)
        while node != NONE:
            visits[node] += 1.0
            value[node] += 1.0 - r
            r = 1.0 - r
            node = parent[node]
    return n_nodes


class MCTSAgent:
    """UCT with a playout budget (reproducible; default 1000) or a per-move time budget.

    ``weights`` (a ``Weights``, a weights file path or a (64,)/(8, 8) matrix) guides the
    playouts; without it they are uniformly random.
    """

    def __init__(self, variant: Variant | str = "othello", playouts: int | None = None,
                 time_limit: float | None = None, weights=None, seed: Seed = None,
                 exploration: float = 1.4, guide_epsilon: float = 0.3, name: str | None = None):
        self.variant = Variant.parse(variant)
        if playouts is None and time_limit is None:
            playouts = 1000
        if playouts is not None and playouts < 1:
            raise ValueError(f"playouts must be >= 1, got {playouts}")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be > 0 seconds, got {time_limit}")
        if not 0.0 <= guide_epsilon <= 1.0:
            raise ValueError(f"guide_epsilon must be in [0, 1], got {guide_epsilon}")
        self.playouts, self.time_limit = playouts, time_limit
        self.exploration, self.guide_epsilon = exploration, guide_epsilon
        self.guided = weights is not None
        self.phase_of_discs, self.positional = (
            positional_arrays(weights) if self.guided
            else (np.zeros(65, np.int64), np.zeros((1, 64)))
        )
        self.name = name or ("mcts_guided" if self.guided else "mcts")
        self.last_playouts = 0
        self.reset(seed)

    def reset(self, seed: Seed = None) -> None:
        self._rng = make_rng(seed)

    @staticmethod
    def _tree(capacity: int) -> dict[str, np.ndarray]:
        """Empty node arrays, in ``mcts_run``'s argument order (np.zeros maps pages lazily, so
        a large time-budget capacity costs only the nodes actually used)."""
        u64, i64 = np.uint64, np.int64
        dtypes = dict(tree_P=u64, tree_O=u64, untried=u64, pass_pending=np.bool_, parent=i64,
                      first_child=i64, sibling=i64, move=i64, visits=np.float64,
                      value=np.float64)
        return {key: np.zeros(capacity, dtype) for key, dtype in dtypes.items()}

    def select_move(self, position: Position) -> int:
        moves = legal_list(position)
        if len(moves) == 1:
            return moves[0]
        state = new_state(self._rng)
        chunk = self.playouts if self.time_limit is None else 256
        capacity = 1 + (self.playouts if self.time_limit is None else 1 << 20)
        t = self._tree(capacity)
        P, O = position.boards
        t["pass_pending"][0] = _new_node(t["tree_P"], t["tree_O"], t["untried"], t["parent"],
                                         t["first_child"], t["sibling"], t["move"], 0, P, O,
                                         NONE, PASS)
        n_nodes, done, start = 1, 0, time.perf_counter()
        while True:
            k = min(chunk, capacity - n_nodes)
            if self.playouts is not None:
                k = min(k, self.playouts - done)
            if k <= 0:
                break
            n_nodes = mcts_run(*t.values(), n_nodes, k, state, self.variant.is_reversed,
                               self.exploration, self.guided, self.phase_of_discs,
                               self.positional, self.guide_epsilon)
            done += k
            if self.time_limit is not None and time.perf_counter() - start >= self.time_limit:
                break
        self.last_playouts = done
        return self._most_visited(t)

    @staticmethod
    def _most_visited(t) -> int:
        best_move, best = PASS, -1.0
        child = t["first_child"][0]
        while child != NONE:  # ties: lowest square, deterministic
            v, mv = t["visits"][child], int(t["move"][child])
            if v > best or (v == best and mv < best_move):
                best_move, best = mv, v
            child = t["sibling"][child]
        return best_move
