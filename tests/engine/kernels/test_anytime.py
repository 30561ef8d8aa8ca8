"""Anytime search: the kernel's root hint and partial iterations, and the shared driver's
iterative deepening under a clock.

The kernel is checked on Reversi against its own fixed-depth values; the driver's decisions
under a fake clock whose time passes with the nodes searched (no timing in the tests)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from engine.kernels.search import driver
from engine.kernels.search.driver import NO_MOVE, UNLIMITED, Iteration, SearchDriver
from engine.kernels.search.tt import next_generation
from engine.reversi.files import reference_weights
from engine.reversi.search.searcher import Searcher
from tests.engine.kernels.work_clock import node_clock
from tests.engine.reversi.conftest import random_reachable

POSITIONS = [random_reachable(seed, plies) for seed in range(4) for plies in (12, 24, 36)]


def kernel_search(searcher: Searcher, position, depth: int, budget: int, hint: int):
    searcher.generation = next_generation()  # a cold table: the budget cuts at a fresh place
    move, value, nodes, aborted, _ = searcher._run(position, depth, False, budget, hint)
    return move, value, nodes, aborted


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_an_aborted_search_with_a_hint_plays_a_move_proven_at_least_as_good(index):
    """PV-first: the hint is searched first, so once it is done every move the aborted search
    returns has its exact value at this depth, and that is at least the hint's."""
    position, depth = POSITIONS[index], 4
    searcher = Searcher(reference_weights("wpc"), "othello", endgame_empties=0, tt_bits=12)
    root = searcher.search(position, depth=depth)
    value_at = {m: -searcher.search(position.play(m), depth=depth - 1).score
                for m in position.legal_moves()}
    assert max(value_at.values()) == root.score
    hint = min(value_at, key=value_at.get)  # the worst move as the hint: much left to find
    move, value, full_nodes, aborted = kernel_search(searcher, position, depth, UNLIMITED, hint)
    assert not aborted and value == root.score and value_at[move] == root.score
    seen_partial = 0
    for budget in np.linspace(2, full_nodes, 25).astype(int):
        move, value, nodes, aborted = kernel_search(searcher, position, depth, int(budget),
                                                    hint)
        if not aborted:
            assert value == root.score
        elif move != NO_MOVE:
            seen_partial += 1
            assert value == value_at[move] >= value_at[hint]
    assert seen_partial > 0


def test_without_a_hint_an_unlimited_search_is_the_fixed_depth_search():
    searcher = Searcher(reference_weights("wpc"), "othello", endgame_empties=0, tt_bits=12)
    for position in POSITIONS[:4]:
        want = searcher.search(position, depth=3)
        move, value, nodes, aborted = kernel_search(searcher, position, 3, UNLIMITED, NO_MOVE)
        assert (move, value, aborted) == (want.move, want.score, False)


class FakeSearch:
    """A search whose depth d needs ``nodes[d]`` nodes and whose time passes at ``rate`` nodes
    a second on a fake clock; an aborted slice's work is kept (the table) and the next slice of
    the same depth goes on from it. The move of depth d is ``10 + d`` (value d); an aborted
    depth has proven ``partial_move`` once ``proven`` of its nodes are searched."""

    def __init__(self, nodes: dict, rate: float, proven: float = 0.5, partial_move=99):
        self.nodes, self.rate, self.proven, self.partial_move = nodes, rate, proven, partial_move
        self.now, self.calls, self.done = 0.0, [], {}

    def clock(self) -> float:
        return self.now

    def run(self, depth: int, budget: int, hint: int):
        need = self.nodes[depth] - self.done.get(depth, 0)
        used = min(need, budget)
        self.done[depth] = self.done.get(depth, 0) + used
        self.now += used / self.rate
        self.calls.append((depth, budget, hint))
        if used < need:
            proven = self.done[depth] >= self.proven * self.nodes[depth]
            return (self.partial_move if proven else NO_MOVE), 50.0 + depth, used, True, \
                used / self.rate
        return 10 + depth, float(depth), used, False, used / self.rate


@pytest.fixture
def fake(monkeypatch):
    search = FakeSearch({d: 100 * 4 ** d for d in range(1, 12)}, rate=1e6)
    monkeypatch.setattr(driver.time, "perf_counter", search.clock)
    return search


def new_driver(rate: float) -> SearchDriver:
    return SearchDriver(tt_bits=8, shared=False, start_rate=rate, min_rate=1000.0)


def test_the_driver_uses_its_time_and_keeps_a_proven_partial_depth(fake):
    fake.proven = 0.2  # depth 7 is a quarter done when the clock stops it
    best, nodes = new_driver(1e6).deepen(fake.run, 20, 1.0, 0.0, first_budget=1000)
    assert 0.9 <= fake.now <= 1.0  # the time is used, not a prediction's share of it
    spent = np.cumsum([fake.nodes[d] for d in range(1, 12)])
    assert best == Iteration(99, 50.0 + best.depth, best.depth, partial=True)
    assert best.depth == np.searchsorted(spent, 0.96e6) + 1  # the depth the clock stopped
    assert fake.done[best.depth] < fake.nodes[best.depth] == 100 * 4 ** best.depth
    hints = {d: h for d, _, h in fake.calls}
    assert all(hints[d] == 10 + d - 1 for d in hints if d > 1)  # the previous depth's move
    assert hints[1] == NO_MOVE
    assert nodes == sum(fake.done.values())


def test_a_depth_stopped_before_its_first_move_is_proven_plays_the_last_completed(fake):
    fake.proven = 1.1  # never proven
    best, _ = new_driver(1e6).deepen(fake.run, 20, 1.0, 0.0, first_budget=1000)
    assert not best.partial and best.move == 10 + best.depth
    assert 0.9 <= fake.now <= 1.0


def test_slices_read_the_clock_often_and_never_pass_the_limit(fake):
    new_driver(1e6).deepen(fake.run, 20, 1.0, 0.0, first_budget=1000)
    assert max(b for _, b, _ in fake.calls[1:]) <= driver.SLICE * 1e6
    assert fake.now <= 1.0 * (1 - driver.RESERVE) + 1e-9


def test_a_forced_result_or_the_last_depth_stops_early(fake):
    best, _ = new_driver(1e6).deepen(fake.run, 3, 10.0, 0.0)
    assert best == Iteration(13, 3.0, 3) and fake.now < 1.0
    fake.now = 0.0
    best, _ = new_driver(1e6).deepen(fake.run, 20, 10.0, 0.0, final=lambda v: v >= 2.0)
    assert best.depth == 2


def test_depth_one_is_finished_even_past_a_tiny_first_budget(fake):
    best, _ = new_driver(1e6).deepen(fake.run, 20, 1e-6, 0.0, first_budget=10)
    assert best == Iteration(11, 1.0, 1)
    assert fake.calls[:2] == [(1, 10, NO_MOVE), (1, UNLIMITED, NO_MOVE)]


def test_the_predictive_deepening_kept_to_measure_against_leaves_its_time_unused(fake):
    """The predictive deepening: a depth predicted not to fit is not started, and the
    root has no hint; the anytime driver, on the same search, uses the time it was given."""
    old = new_driver(1e6)
    old.deepening = "predictive"
    best, _ = old.deepen(fake.run, 20, 1.0, 0.0, first_budget=1000)
    assert fake.now < 0.6 and not best.partial and best.move == 10 + best.depth
    assert {h for _, _, h in fake.calls} == {NO_MOVE}
    fake.now, fake.calls, fake.done = 0.0, [], {}
    new_driver(1e6).deepen(fake.run, 20, 1.0, 0.0, first_budget=1000)
    assert fake.now > 0.9


# --- a fixed depth with a deadline (the browser board's cap) --------------------------------
DEADLINE_GAMES = ("othello", "reversed_reversi", "pentago_twist", "hexifence")


def champion_agent(name: str, depth: int):
    from engine.core import SearchSettings, get_game
    from engine.core.agent import set_deadline

    game = get_game(name)
    spec = f"experiments/results/champions/{name}.json"
    return game, game.make_panel_agent(spec, SearchSettings(depth=depth, endgame_empties=4)), \
        set_deadline


@pytest.mark.parametrize("name", DEADLINE_GAMES)
def test_a_fixed_depth_finished_before_its_deadline_plays_the_fixed_depth_move(monkeypatch,
                                                                               name):
    """The clock stands still, so the deadline is never reached however slow the machine."""
    monkeypatch.setattr(driver.time, "perf_counter", lambda: 0.0)
    game, plain, set_deadline = champion_agent(name, 3)
    _, timed, _ = champion_agent(name, 3)
    assert set_deadline(timed, 60.0)
    for opening in game.random_openings(6, 11, 4, 12):
        state = game.initial_state()
        for move in opening:
            state = game.apply(state, move)
        if len(game.legal_moves(state)) < 2:
            continue
        plain.reset(0)
        timed.reset(0)
        assert timed.select_move(state) == plain.select_move(state)
        assert timed.last_info["eval"] == plain.last_info["eval"]
        assert "cut" not in timed.last_info


@pytest.mark.parametrize(("name", "searcher"), [("othello", "engine.reversi.search.searcher"),
                                                ("reversed_reversi",
                                                 "engine.reversi.search.searcher"),
                                                ("pentago_twist", "engine.pentago.search.searcher"),
                                                ("hexifence", "engine.hexifence.search.searcher")])
def test_a_deadline_stops_a_deep_fixed_depth_and_says_how_deep_it_got(monkeypatch, name,
                                                                      searcher):
    """On a clock that only the nodes searched move, so the depth it gets to is the same on
    any machine (and not the hours depth 30 would take)."""
    clock = node_clock(monkeypatch, importlib.import_module(searcher))
    game, agent, set_deadline = champion_agent(name, 30)
    state = game.initial_state()
    for move in game.random_openings(1, 3, 6, 6)[0]:
        state = game.apply(state, move)
    assert set_deadline(agent, 0.2)
    move = agent.select_move(state)
    assert 0.1 < clock.now <= 0.2 and move in game.legal_moves(state)
    info = agent.last_info
    assert info["cut"] is True and 1 <= info["depth"] < 30 and info["depth_asked"] == 30
