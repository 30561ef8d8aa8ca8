"""The CS303 agent's exact endgame (pure Python): the solver's values against brute force and
the engine's own solver, the move it plays (the first that wins, else the first that draws), how
the timed search hands it the end of a move, and its deadline."""

from __future__ import annotations

import numpy as np
import pytest

from engine.reversi.endgame import solver as engine_solver
from engine.reversi.endgame import table as engine_table
from engine.reversi.rules.state import Position
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.test_cs303 import ai_module, chessboard_of, exact  # noqa: F401

INF = float("inf")


def endgame_positions(empties: range, seeds: range) -> list[Position]:
    """Positions of random games with a number of empty squares in ``empties``, side to move
    not passing."""
    out = []
    for seed in seeds:
        for e in empties:
            pos = random_reachable(seed, 60 - e)
            if pos.empties in empties and pos.legal_moves_mask():
                out.append(pos)
    return out


def engine_value(pos: Position) -> int:
    table = engine_table.new_table(16)
    return engine_solver.solve_exact(pos.player, pos.opponent, True, table, 1)[1]


def child_values(module, pos: Position) -> dict[int, int]:
    """Each legal move's exact value for the side to move (the engine's solver)."""
    return {m: -engine_value(pos.play(m)) for m in pos.legal_moves()}


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def test_values_equal_brute_force_in_every_window(ai_module):  # noqa: F811
    """1-7 empties: the table-free search, the last square and passes; fail-soft bounds."""
    checked = 0
    for pos in endgame_positions(range(1, 8), range(40)):
        v = exact(pos)
        solver = ai_module.Solver(INF)
        assert solver.value(pos.player, pos.opponent, -65, 65) == v, pos
        for alpha, beta in ((v - 1, v + 1), (v, v + 1), (v - 1, v), (v + 2, v + 6),
                            (v - 9, v - 3)):
            got = ai_module.Solver(INF).value(pos.player, pos.opponent, alpha, beta)
            if alpha < v < beta:
                assert got == v
            elif v <= alpha:
                assert v <= got <= alpha
            else:
                assert beta <= got <= v
        checked += 1
    assert checked >= 150


def test_values_equal_the_engines_solver(ai_module):  # noqa: F811
    """8-13 empties: the table, the ordering and the null windows, against an independent
    solver (``engine.reversi.endgame.solver``, itself checked against brute force)."""
    positions = endgame_positions(range(8, 14), range(8))
    for pos in positions:
        assert ai_module.Solver(INF).value(pos.player, pos.opponent, -65, 65) == \
            engine_value(pos), pos
    assert len(positions) >= 30


def test_the_root_plays_the_first_winning_move_else_the_first_drawing_one(ai_module):  # noqa: F811
    outcomes = set()
    for pos in endgame_positions(range(6, 12), range(20)):
        P, O = pos.player, pos.opponent
        values = child_values(ai_module, pos)
        order = [sq for sq, _, _ in ai_module.fastest_first(P, O, pos.legal_moves_mask())]
        outcome, move = ai_module.Solver(INF).root(P, O)
        assert outcome == sign(max(values.values())), pos
        outcomes.add(outcome)
        if outcome == -1:
            assert move is None
            continue
        assert move == next(sq for sq in order if sign(values[sq]) == outcome)
        # the deepening's move, when it wins (draws) as well, is the one played
        other = [sq for sq in order if sign(values[sq]) == outcome and sq != move]
        if other:
            assert ai_module.Solver(INF).root(P, O, other[-1]) == (outcome, other[-1])
    assert outcomes == {-1, 0, 1}


def test_the_ordering_puts_the_hint_first_then_fewest_replies(ai_module):  # noqa: F811
    pos = next(p for p in endgame_positions(range(14, 20), range(10))
               if len(p.legal_moves()) >= 4)
    P, O = pos.player, pos.opponent
    kids = ai_module.fastest_first(P, O, pos.legal_moves_mask())
    replies = [2 * ai_module._popcount(ai_module.legal_moves(nP, nO))
               for _, nP, nO in kids]  # corners aside, the key's main term
    assert sorted(sq for sq, _, _ in kids) == sorted(pos.legal_moves())
    for (sq, nP, nO) in kids:
        assert Position(nP, nO, not pos.black_to_move) == pos.play(sq)
    assert replies[0] <= replies[-1] + 2
    hint = kids[-1][0]
    assert ai_module.fastest_first(P, O, pos.legal_moves_mask(), hint)[0][0] == hint


def test_search_root_solves_after_the_deepenings_share(ai_module, monkeypatch):  # noqa: F811
    """The deepening stops at once (its share of no time), the solve has all the time; after
    a proven loss the deepening goes on."""
    monkeypatch.setattr(ai_module, "heuristic_deadline", lambda deadline: 0.0)
    seen = set()
    for pos in endgame_positions(range(9, 11), range(16)):  # lost: a full-depth deepening
        values = child_values(ai_module, pos)
        heard = []
        depth, nodes, outcome = ai_module.search_root(pos.player, pos.opponent, INF,
                                                      heard.append, solve_empties=64)
        assert nodes > 0 and outcome == sign(max(values.values()))
        if outcome >= 0:
            assert depth < pos.empties
            assert sign(values[heard[-1]]) == outcome  # a winning (drawing) move is played
        else:  # lost: the deepening went on, here without a deadline to its exact end
            assert depth == pos.empties
            assert values[heard[-1]] == max(values.values())
        seen.add(outcome)
    assert {-1, 1} <= seen


def test_the_solve_stops_at_its_deadline_and_leaves_the_move(ai_module):  # noqa: F811
    pos = endgame_positions(range(20, 22), range(5))[0]
    heard = []
    solver = ai_module.Solver(0.0)  # long past: the first clock read stops it
    assert ai_module.solve_after(solver, pos.player, pos.opponent, None, heard.append) is None
    assert heard == [] and solver.nodes == ai_module.Solver.CHECK_EVERY


def test_it_solves_only_what_its_speed_expects_to_finish(ai_module):  # noqa: F811
    speed = ai_module.SolveSpeed(1_000_000)
    now = ai_module.time.perf_counter()
    assert speed.fits(10, now + 0.01)  # 150,000 / 4**6 nodes
    assert not speed.fits(24, now + 60.0)  # 150,000 * 4**8 = 9.8e9 nodes
    assert not speed.fits(8, now - 1.0)  # no time left
    speed.measured(2_000_000, 0.5)
    assert speed.rate == pytest.approx(0.5 * 1_000_000 + 0.5 * 4_000_000)
    speed.measured(10, 0.001)  # too short to time
    assert speed.rate == pytest.approx(2_500_000)


def won_positions_played(module, empties: int, seeds: range, time_out: float) -> list[dict]:
    """Through the platform interface, ``go`` on won positions of ``empties`` empty squares:
    asserts that it plays a winning move; returns each move's ``last_search``."""
    told = []
    for pos in endgame_positions(range(empties, empties + 1), seeds):
        values = child_values(module, pos)
        if max(values.values()) <= 0:
            continue
        ai = module.AI(8, -1 if pos.black_to_move else 1, time_out)
        ai.go(chessboard_of(pos))
        r, c = ai.candidate_list[-1]
        assert values[8 * r + c] > 0, pos
        told.append(ai.last_search)
    return told


def test_go_near_the_end_plays_a_proven_win(ai_module):  # noqa: F811
    """With 2 s a move and 10 empties the solve has more than enough time on any machine."""
    told = won_positions_played(ai_module, 10, range(30), 2.0)
    assert len(told) >= 5
    assert all(t["solved"] in (1, None) for t in told)  # None: the deepening reached the end


def test_the_exact_value_is_reversed_reversi(ai_module):  # noqa: F811
    """Fewer discs win: a full board of 40 own discs is a loss by 16."""
    P = (1 << 40) - 1
    O = ((1 << 64) - 1) ^ P
    assert ai_module.Solver(INF).value(P, O, -65, 65) == -16
    assert np.sign(ai_module.final_score(P, O)) == -1
