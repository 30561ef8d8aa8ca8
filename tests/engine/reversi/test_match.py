"""Match runner and openings: records replay to the same result, seeds reproduce games, and the
core's runner plays exactly the games Reversi's own runner played before it."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from engine.reversi.agents.factory import make_agent
from engine.reversi.agents.mcts import MCTSAgent
from engine.reversi.agents.simple import EpsilonAgent, GreedyAgent, RandomAgent
from engine.reversi.rules.state import PASS, Position, square
from tests.engine.reversi import reference_rules as ref
from tests.engine.reversi.helpers_match import GameRecord, play_game, play_pairs, random_openings


def replay(moves: list[int]) -> Position:
    position = Position.start()
    for move in moves:
        position = position.play(move)  # raises on any illegal move or pass
    return position


def check_record(record: GameRecord, opening=()) -> None:
    final = replay(record.moves)
    assert final.is_game_over()
    assert final.disc_counts() == (record.black_discs, record.white_discs)
    assert tuple(record.moves[: record.opening_plies]) == tuple(opening)
    # sign-correct score from an independent reference: cells from black's view
    cells = ref.from_boards(final.black, final.white)
    assert record.black_score == ref.final_score(cells, record.variant)
    expected = "black" if record.black_score > 0 else "white" if record.black_score < 0 else "draw"
    assert record.winner == expected


@pytest.mark.parametrize("variant", ["othello", "reversed"])
def test_records_replay_to_their_result(variant):
    openings = random_openings(6, seed=1)
    records = play_pairs(GreedyAgent(variant), RandomAgent(), openings, variant, seed=2)
    records += play_pairs(MCTSAgent(variant, playouts=30), EpsilonAgent(GreedyAgent(variant), 0.5),
                          openings[:2], variant, seed=3)
    for i, record in enumerate(records[:12]):
        check_record(record, openings[i // 2])
        assert record.variant == variant
    for record in records:
        check_record(record, record.moves[: record.opening_plies])


def test_reversed_score_is_the_negated_othello_score_for_the_same_game():
    othello_record = play_game(RandomAgent(), RandomAgent(), "othello", seed=5)
    script = ScriptedAgent(othello_record.moves)
    reversed_record = play_game(script, script, "reversed", opening=othello_record.moves[:4])
    assert reversed_record.moves == othello_record.moves
    check_record(reversed_record, othello_record.moves[:4])
    assert reversed_record.black_score == -othello_record.black_score
    assert reversed_record.winner != othello_record.winner or othello_record.winner == "draw"


class ScriptedAgent:
    """Replays a recorded game: the move the record played in each position."""

    name = "scripted"

    def __init__(self, moves):
        self.by_position = {}
        position = Position.start()
        for move in moves:
            self.by_position[position] = move
            position = position.play(move)

    def reset(self, seed=None):
        pass

    def select_move(self, position):
        return self.by_position[position]


def test_passes_are_recorded_and_legal():
    records = [play_game(RandomAgent(), RandomAgent(), seed=s) for s in range(300)]
    with_pass = [r for r in records if PASS in r.moves]
    assert with_pass, "300 random games should contain a pass"
    for record in with_pass:
        check_record(record)


def test_same_seed_same_game_different_seed_different_game():
    def game(seed):
        return play_game(RandomAgent(), EpsilonAgent(GreedyAgent(), 0.3), seed=seed)

    assert game(11) == game(11)
    assert len({tuple(game(s).moves) for s in range(5)}) > 1


def test_illegal_opening_is_refused():
    with pytest.raises(ValueError, match="opening ply 2"):
        play_game(RandomAgent(), RandomAgent(), opening=(square("d3"), square("a1")))
    with pytest.raises(ValueError, match="opening ply 1"):
        play_game(RandomAgent(), RandomAgent(), opening=(PASS,))


def test_an_agent_playing_an_illegal_move_is_named():
    class Cheater(RandomAgent):
        def select_move(self, position):
            return square("a1")

    with pytest.raises(ValueError, match="cheat"):
        play_game(Cheater(name="cheat"), RandomAgent())


def test_openings_are_distinct_legal_and_reproducible():
    openings = random_openings(50, seed=7, min_plies=4, max_plies=8)
    assert openings == random_openings(50, seed=7)
    assert openings != random_openings(50, seed=8)
    positions = set()
    for opening in openings:
        assert 4 <= len(opening) <= 8 and PASS not in opening
        position = replay(list(opening))
        assert not position.is_game_over()
        positions.add(position)
    assert len(positions) == len(openings)


def test_too_many_openings_is_an_error():
    # only 244 move sequences (fewer positions) exist after 4 plies
    with pytest.raises(ValueError, match="distinct openings"):
        random_openings(245, seed=0, min_plies=4, max_plies=4, max_tries=3000)


def test_play_pairs_swaps_colours_on_every_opening():
    a, b = GreedyAgent(name="A"), RandomAgent(name="B")
    openings = random_openings(3, seed=4)
    records = play_pairs(a, b, openings, "othello", seed=9)
    assert len(records) == 6
    for i, record in enumerate(records):
        assert (record.black_name, record.white_name) == (("A", "B") if i % 2 == 0 else ("B", "A"))
        assert tuple(record.moves[: record.opening_plies]) == openings[i // 2]
    assert records == play_pairs(a, b, openings, "othello", seed=9)
    assert [r.score_for(True) for r in records[:1]] in ([1.0], [0.5], [0.0])


# --- the same games as the runner before engine.core.matches.runner played them -------------------

BASELINE = json.loads((Path(__file__).parents[2] / "data" / "reversi_match_baseline.json")
                      .read_text())  # recorded by record_match_baseline.py beside this file


@pytest.mark.parametrize("case", BASELINE["openings"], ids=lambda c: f"seed{c['seed']}")
def test_openings_are_the_ones_the_old_runner_drew(case):
    openings = random_openings(case["n"], case["seed"], case["min_plies"], case["max_plies"])
    assert [list(o) for o in openings] == case["openings"]


@pytest.mark.parametrize("case", BASELINE["pairs"], ids=lambda c: f"{c['a']}-{c['b']}")
def test_games_are_the_ones_the_old_runner_played(case):
    """Agents that draw random numbers at every move they are asked for: asking them for a
    move the old runner did not (or the reverse) would change the games."""
    agents = [make_agent(spec, case["variant"], depth=2, seed=0) for spec in (case["a"], case["b"])]
    openings = random_openings(len(case["openings"]), case["seed"] + 100)
    assert [list(o) for o in openings] == case["openings"]
    records = play_pairs(*agents, openings, case["variant"], seed=case["seed"])
    assert [asdict(r) for r in records] == case["records"]


def test_the_recorded_games_hold_passes_and_single_legal_squares():
    passes = single_squares = 0
    for record in (r for case in BASELINE["pairs"] for r in case["records"]):
        position = Position.start()
        for ply, move in enumerate(record["moves"]):
            legal = position.legal_moves()
            passes += legal == [PASS]
            asked = ply >= record["opening_plies"]
            single_squares += asked and len(legal) == 1 and legal != [PASS]
            position = position.play(move)
    assert passes > 10 and single_squares > 10
