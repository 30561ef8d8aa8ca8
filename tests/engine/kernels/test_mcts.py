"""The shared UCT loop on a toy game (Nim: take 1-3 stones, taking the last one wins), against a
plain-Python UCT written from the textbook, and the search's Python helpers."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest
from numba import njit

from engine.kernels.rng import below
from engine.kernels.search import mcts as uct

ROOT = Path(__file__).resolve().parents[3]
MAX_TAKE = 3


class Nim(NamedTuple):
    stones: np.ndarray  # int64: stones left at the node
    untried: np.ndarray  # int64: bit t-1 set = "take t" not expanded yet
    room: bool


@njit
def _legal(stones):
    return (1 << min(stones, MAX_TAKE)) - 1


@njit
def _nim_has_room(game):
    return game.room


@njit
def _nim_can_expand(game, node):
    return game.untried[node] != 0  # none at 0 stones: the game is over


@njit
def _nim_expand(game, node, child, rng):
    """A uniformly random untried take (the k-th from the smallest)."""
    untried = game.untried[node]
    k, take = below(rng, _count(untried)), 0
    while k >= 0:
        take += 1
        if untried >> (take - 1) & 1:
            k -= 1
    game.untried[node] = untried & ~(1 << (take - 1))
    game.stones[child] = game.stones[node] - take
    game.untried[child] = _legal(game.stones[child])
    return take


@njit
def _count(bits):
    n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


@njit
def _nim_playout(game, node, rng):
    """Random takes to the end: the side to move at ``node`` wins iff it takes the last."""
    stones, to_move_is_root = game.stones[node], True
    while stones > 0:
        stones -= 1 + below(rng, min(stones, MAX_TAKE))
        to_move_is_root = not to_move_is_root
    return 0.0 if to_move_is_root else 1.0  # the side to move at the end has lost


@njit
def nim_run(tree, game, iterations, rng, exploration):
    return uct.uct(tree, game, iterations, rng, exploration, _nim_has_room, _nim_can_expand,
                   _nim_expand, _nim_playout)


def nim_search(stones: int, iterations: int, seed: int, exploration: float = 1.4,
               capacity: int | None = None, room: bool = True):
    capacity = capacity or iterations + 1
    tree = uct.new_tree(capacity)
    game = Nim(np.zeros(capacity, np.int64), np.zeros(capacity, np.int64), room)
    game.stones[0], game.untried[0] = stones, _legal(stones)
    rng = np.array([seed], np.uint64)
    ran = nim_run(tree, game, iterations, rng, exploration)
    return tree, ran


# --- the textbook UCT, in plain Python, drawing the same random numbers -----------------------

class Node:
    def __init__(self, stones: int, move: int, parent: Node | None):
        self.stones, self.move, self.parent = stones, move, parent
        self.untried = [t for t in range(1, MAX_TAKE + 1) if t <= stones]
        self.children: list[Node] = []  # newest first, as the kernel lists them
        self.visits, self.value = 0.0, 0.0


def reference_uct(stones: int, iterations: int, seed: int, exploration: float) -> Node:
    rng = np.array([seed], np.uint64)
    root = Node(stones, -1, None)
    for _ in range(iterations):
        node = root
        while node.stones > 0 and not node.untried:  # select
            log_n = math.log(node.visits)
            node = max(node.children, key=lambda c: c.value / c.visits  # first of equals
                       + exploration * math.sqrt(log_n / c.visits))
        if node.stones > 0:  # expand
            take = node.untried.pop(int(below(rng, len(node.untried))))
            child = Node(node.stones - take, take, node)
            node.children.insert(0, child)
            node = child
        reward = simulate(node.stones, rng)
        while node is not None:  # back up: a node's value is for the player who moved into it
            node.visits += 1.0
            node.value += 1.0 - reward
            reward, node = 1.0 - reward, node.parent
    return root


def simulate(stones: int, rng) -> float:
    to_move_is_root = True
    while stones > 0:
        stones -= 1 + int(below(rng, min(stones, MAX_TAKE)))
        to_move_is_root = not to_move_is_root
    return 0.0 if to_move_is_root else 1.0


@pytest.mark.parametrize("stones, iterations, seed, exploration", [
    (5, 200, 1, 1.4), (9, 500, 2, 1.4), (12, 1000, 3, 0.5), (7, 3, 4, 2.0), (21, 2000, 5, 1.0)])
def test_uct_visits_exactly_like_the_textbook_loop(stones, iterations, seed, exploration):
    tree, ran = nim_search(stones, iterations, seed, exploration)
    reference = reference_uct(stones, iterations, seed, exploration)
    assert ran == iterations
    assert uct.root_children(tree) == [(c.move, c.visits, c.value) for c in reference.children]
    assert tree.visits[0] == iterations


@pytest.mark.parametrize("stones, winning_take", [(5, 1), (6, 2), (7, 3), (9, 1), (11, 3)])
def test_uct_finds_the_winning_nim_move(stones, winning_take):
    # a multiple of 4 left to the opponent is a loss for them (known game value)
    tree, _ = nim_search(stones, 3000, seed=stones)
    move, visits, value = uct.most_visited(uct.root_children(tree))
    assert move == winning_take
    assert value / visits > 0.5


def test_a_full_tree_or_game_stops_the_search_early():
    tree, ran = nim_search(12, 100, seed=1, capacity=10)
    assert ran == 9 and tree.size[0] == 10  # one node per iteration until the arrays are full
    tree, ran = nim_search(12, 100, seed=1, room=False)
    assert ran == 0 and tree.visits[0] == 0


def test_a_won_position_is_a_leaf_backed_up_as_a_loss_for_the_side_to_move():
    tree, _ = nim_search(0, 5, seed=1)
    assert tree.size[0] == 1 and tree.visits[0] == 5 and tree.value[0] == 5.0


def test_run_iterations_with_a_budget_is_one_call():
    calls = []
    assert uct.run_iterations(lambda k: calls.append(k) or k, 1000, None) == 1000
    assert calls == [1000]


def test_run_iterations_stops_when_a_step_runs_short():
    calls = []
    assert uct.run_iterations(lambda k: calls.append(k) or min(k, 100), None, 60.0) == 100
    assert calls == [uct.TIMED_CHUNK]


def test_run_iterations_with_both_limits_never_passes_the_budget():
    calls = []
    assert uct.run_iterations(lambda k: calls.append(k) or k, 600, 60.0, chunk=256) == 600
    assert calls == [256, 256, 88]


def test_run_iterations_with_a_time_limit_looks_at_the_clock_between_chunks(monkeypatch):
    """A chunk takes one second of a clock that only the chunks move: any machine stops after
    the chunk that reaches the limit."""
    now = [0.0]

    def one_second(k):
        now[0] += 1.0
        return k

    monkeypatch.setattr(uct.time, "perf_counter", lambda: now[0])
    assert uct.run_iterations(one_second, None, 3.0, chunk=7) == 21
    now[0] = 0.0
    assert uct.run_iterations(one_second, None, 2.5, chunk=7) == 21


def test_most_visited_breaks_ties_by_the_lowest_move():
    assert uct.most_visited([(9, 5.0, 1.0), (3, 5.0, 4.0), (4, 2.0, 2.0)]) == (3, 5.0, 4.0)
    assert uct.most_visited([(1, 1.0, 0.0), (0, 1.0, 1.0)])[0] == 0


CACHED = """
from engine.pentago.agents.mcts import MCTSAgent as PentagoMCTS, mcts_run as pentago_run
from engine.pentago.rules.state import State
from engine.reversi.agents.mcts import MCTSAgent as ReversiMCTS, mcts_run as reversi_run
from engine.reversi.rules.state import Position
PentagoMCTS(playouts=20, seed=1)._search(*State().boards(), [0, 8, 16])  # the search first
ReversiMCTS(playouts=20, seed=1).select_move(Position.start())
print(len(pentago_run.stats.cache_misses), len(reversi_run.stats.cache_misses),
      len(pentago_run.stats.cache_hits), len(reversi_run.stats.cache_hits))
"""


@pytest.mark.slow  # two processes compiling from an empty cache: the cold-cache tier
def test_the_games_search_kernels_compile_from_nothing_and_load_from_the_cache(tmp_path):
    """From an empty numba cache the search kernels compile even when nothing else of the game
    was compiled first (callbacks without reference counting cannot compile a function that
    allocates); a second process loads them from the cache although the loop takes the game's
    functions: a Ray worker must not compile the search again."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", CACHED], capture_output=True, text=True,
                           env=env, cwd=ROOT, timeout=900) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr[-2000:]
        assert "Cannot cache" not in run.stderr
    assert runs[0].stdout.split() == ["1", "1", "0", "0"]  # compiled
    assert runs[1].stdout.split() == ["0", "0", "1", "1"]  # loaded


def test_playout_budget_defaults_only_without_a_time_limit_and_refuses_zero():
    assert uct.playout_budget(None, None) == uct.DEFAULT_PLAYOUTS
    assert uct.playout_budget(None, 0.5) is None and uct.playout_budget(7, 0.5) == 7
    with pytest.raises(ValueError, match="playouts must be >= 1, got 0"):
        uct.playout_budget(0, None)


@pytest.mark.parametrize("make", ["pentago", "reversi"])
def test_the_agents_refuse_a_bad_budget_with_one_line(make):
    from engine.pentago.agents.mcts import MCTSAgent as PentagoMCTS
    from engine.reversi.agents.mcts import MCTSAgent as ReversiMCTS

    agent = PentagoMCTS if make == "pentago" else ReversiMCTS
    with pytest.raises(ValueError, match="playouts must be >= 1, got -3"):
        agent(playouts=-3)
    with pytest.raises(ValueError, match="time_limit must be > 0 seconds, got 0"):
        agent(time_limit=0)
