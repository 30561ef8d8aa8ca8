"""The UCT loop of Monte-Carlo tree search, written once for every game (numba).

A search tree is flat arrays, one row per node (``Tree``): children form a list through
``first_child`` / ``sibling`` (newest first), ``move`` is the move into a node and ``value`` the
reward sum (win 1, draw 0.5, loss 0) of the player who made it, so UCT at every node maximises
its own mover's mean. A game keeps its own per-node rows (positions, untried moves) and settings
in one tuple, ``game``, and supplies four jitted functions over it:

- ``has_room(game) -> bool``: may one more iteration start (a game's own arrays can fill up);
- ``can_expand(game, node) -> bool``: has ``node`` an untried move; a node with none and no
  child is a finished game, where the descent stops; with children, it goes on to the best UCT
  child;
- ``expand(game, node, child, rng) -> move``: choose an untried move of ``node`` (the only
  randomness of the descent) and fill row ``child`` of the game's arrays with its position;
- ``playout(game, node, rng) -> reward``: play the game out from ``node``; the reward of the side
  to move there.

Compile the callbacks without reference counting (``@njit(cache=True, _nrt=False)``, like the
alpha-beta kernel's): counting the arrays a callback takes out of ``game`` costs more than the
rest of a descent step. Such a callback must not call anything that allocates (numba compiles
the callee without reference counting too, and fails from an empty cache): keep scratch arrays
in ``game`` instead (Pentago Twist lists successors into them).

Numba will not cache a compiled function that passes functions as arguments (every process
would compile the search again), so ``uct`` is inlined into its caller (``inline="always"``, at
numba's IR level) and each game wraps it in its own ``@njit(cache=True)`` entry point that names
its four functions as globals: after inlining they are plain calls, and the entry is cached.
Numba checks only the entry's own source file for changes: after editing this one, delete the
games' cached entries (``__pycache__/mcts.mcts_run-*.nbi``) or they keep the old loop. The
Python side (``playout_budget``, ``new_tree``, ``run_iterations``, ``root_children``,
``most_visited``) serves the agents.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import njit

NONE = -1
TIMED_CHUNK = 256  # iterations between two looks at the clock in a timed search
DEFAULT_PLAYOUTS = 1000  # an agent's budget when given neither play-outs nor a time limit


class Tree(NamedTuple):
    parent: np.ndarray  # int64; NONE at the root
    first_child: np.ndarray  # int64; NONE while the node has no child
    sibling: np.ndarray  # int64: the next child of the same parent, NONE after the last
    move: np.ndarray  # int64: the move into the node
    visits: np.ndarray  # float64
    value: np.ndarray  # float64: reward sum of the player who moved into the node
    size: np.ndarray  # int64[1]: rows in use


def new_tree(capacity: int, root_move: int = NONE) -> Tree:
    """A tree holding only its root, with room for ``capacity`` nodes (np.zeros maps pages
    lazily, so a large capacity for a timed search costs only the nodes used)."""
    i64 = np.int64
    tree = Tree(*(np.zeros(capacity, i64) for _ in range(4)), np.zeros(capacity),
                np.zeros(capacity), np.ones(1, i64))
    tree.parent[0], tree.first_child[0], tree.sibling[0] = NONE, NONE, NONE
    tree.move[0] = root_move
    return tree


@njit(inline="always")
def uct(tree, game, iterations, rng, exploration, has_room, can_expand, expand, playout):
    """Run up to ``iterations`` UCT iterations; returns how many ran (fewer when the tree or
    the game's arrays are full)."""
    # the arrays are taken out of the tuple once: taking one out inside the loops would update
    # its reference count every time
    parent, first_child, sibling, move, visits, value, size = tree
    for it in range(iterations):
        if size[0] >= parent.shape[0] or not has_room(game):
            return it
        node = 0
        while True:
            if can_expand(game, node):
                child = size[0]
                size[0] += 1
                parent[child], move[child] = node, expand(game, node, child, rng)
                sibling[child], first_child[child] = first_child[node], NONE
                visits[child], value[child] = 0.0, 0.0
                first_child[node] = child
                node = child
                break
            if first_child[node] == NONE:
                break  # nothing to expand and no child: the game is over here
            node = _best_child(first_child, sibling, visits, value, node, exploration)
        _backpropagate(parent, visits, value, node, playout(game, node, rng))
    return iterations


@njit(inline="always")
def _best_child(first_child, sibling, visits, value, node, exploration):
    """The child with the highest UCB1 (the first of equals in list order)."""
    log_n = np.log(visits[node])
    best, best_child, child = -1.0, first_child[node], first_child[node]
    while child != NONE:
        ucb = value[child] / visits[child] + exploration * np.sqrt(log_n / visits[child])
        if ucb > best:
            best, best_child = ucb, child
        child = sibling[child]
    return best_child


@njit(inline="always")
def _backpropagate(parent, visits, value, node, reward):
    """``reward`` is for the side to move at ``node``: its mover gets the complement."""
    while node != NONE:
        visits[node] += 1.0
        value[node] += 1.0 - reward
        reward = 1.0 - reward
        node = parent[node]


def playout_budget(playouts: int | None, time_limit: float | None) -> int | None:
    """An agent's play-out budget: ``playouts`` (``ValueError`` unless >= 1), or
    ``DEFAULT_PLAYOUTS`` when neither it nor a time limit is given."""
    if playouts is not None and playouts < 1:
        raise ValueError(f"playouts must be >= 1, got {playouts}")
    return DEFAULT_PLAYOUTS if playouts is None and time_limit is None else playouts


def run_iterations(step: Callable[[int], int], playouts: int | None,
                   time_limit: float | None, chunk: int = TIMED_CHUNK) -> int:
    """Call ``step(k)`` (run up to ``k`` iterations, return how many ran) until ``playouts``
    iterations ran, ``time_limit`` seconds passed (looked at every ``chunk`` iterations) or a
    step ran short (a full tree). Returns the iterations run. With a budget and no time limit
    it is one call: reproducible."""
    done, start = 0, time.perf_counter()
    while playouts is None or done < playouts:
        want = chunk if time_limit is not None else playouts - done
        if playouts is not None:
            want = min(want, playouts - done)
        ran = step(want)
        done += ran
        if ran < want or (time_limit is not None
                          and time.perf_counter() - start >= time_limit):
            break
    return done


def root_children(tree: Tree) -> list[tuple[int, float, float]]:
    """(move, visits, reward sum) of every child of the root, in list order."""
    children, child = [], int(tree.first_child[0])
    while child != NONE:
        children.append((int(tree.move[child]), float(tree.visits[child]),
                         float(tree.value[child])))
        child = int(tree.sibling[child])
    return children


def most_visited(children: list[tuple[int, float, float]]) -> tuple[int, float, float]:
    """The most visited child; ties go to the lowest move id (deterministic)."""
    return max(children, key=lambda c: (c[1], -c[0]))
