"""The MCTS agents on the shared UCT loop play exactly what the code before it played.

``tests/data/mcts_baseline_moves.json`` was recorded from the checkout before the loop moved to
``engine.kernels.search.mcts`` (its commit is in the file; ``record_mcts_baseline.py`` beside this
test made it). Same seed, same settings: the same move, the same number of play-outs and the same
visits and reward sums at every root child, so the RNG draws came in the same order.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from engine.pentago.rules.state import State, parse_state
from engine.reversi.rules.state import PASS, Position

DATA = json.loads((Path(__file__).parents[2] / "data" / "mcts_baseline_moves.json").read_text())


def pentago_agent(config: dict, seed: int | None = None):
    from engine.pentago.agents.mcts import MCTSAgent

    kwargs = {**config, "seed": config["seed"] if seed is None else seed}
    if "weights" in kwargs:
        kwargs["weights"] = np.array(kwargs["weights"], dtype=float)
        kwargs["phase_of_stones"] = np.array(kwargs["phase_of_stones"], dtype=np.int64)
    return MCTSAgent(**kwargs)


def reversi_agent(config: dict, seed: int | None = None):
    from engine.reversi.agents.mcts import MCTSAgent

    kwargs = {**config, "seed": config["seed"] if seed is None else seed}
    if "weights" in kwargs:
        kwargs["weights"] = np.array(kwargs["weights"], dtype=float)
    return MCTSAgent(**kwargs)


def observed(agent, move: int, searched: bool, with_win_rate: bool) -> dict:
    """What the recording holds for one move (the root only when a search ran)."""
    entry = {"move": int(move), "playouts": agent.last_playouts if searched else None,
             "root": [list(c) for c in sorted(agent.last_root)] if searched else None}
    if with_win_rate:
        entry["win_rate"] = agent.last_info.get("win_rate")
    return entry


def check(agent, state, recorded: dict, with_win_rate: bool, where: str) -> int:
    agent.last_root = []
    move = agent.select_move(state)
    searched = bool(agent.last_root)
    assert observed(agent, move, searched, with_win_rate) == recorded, where
    return move


def cases(game: str, kind: str) -> list:
    found = [c for c in DATA[game] if c["kind"] == kind]
    assert found, f"no {kind} cases for {game} in the recording"
    return found


def test_the_recording_comes_from_the_old_code_and_holds_searches():
    assert DATA["recorded_from"]["commit"]
    for game in ("pentago", "reversi"):
        searched = [m for c in DATA[game] for m in c["moves"] if m.get("root")]
        assert len(searched) > 100


@pytest.mark.parametrize("case", cases("pentago", "positions"),
                         ids=lambda c: f"pentago-{c['agent']['playouts']}-{c['agent']['seed']}")
def test_pentago_moves_on_recorded_positions(case):
    agent = pentago_agent(case["agent"])  # one agent: its RNG runs on between positions
    for k, (text, recorded) in enumerate(zip(case["states"], case["moves"], strict=True)):
        check(agent, parse_state(text), recorded, True, f"position {k}")


@pytest.mark.parametrize("case", cases("pentago", "game"),
                         ids=lambda c: f"pentago-game-{c['agent']['seed']}")
def test_pentago_self_play_game(case):
    agents = (pentago_agent(case["agent"]), pentago_agent(case["agent"], case["second_seed"]))
    state = State()
    for ply, recorded in enumerate(case["moves"]):
        move = check(agents[state.to_move], state, recorded, True, f"ply {ply}")
        state = state.apply(move)
    assert state.is_over()


@pytest.mark.parametrize("case", cases("reversi", "positions"),
                         ids=lambda c: f"reversi-{c['agent']['playouts']}-{c['agent']['seed']}")
def test_reversi_moves_on_recorded_positions(case):
    agent = reversi_agent(case["agent"])
    for k, (text, recorded) in enumerate(zip(case["states"], case["moves"], strict=True)):
        check(agent, Position.parse(text), recorded, False, f"position {k}")


@pytest.mark.parametrize("case", cases("reversi", "game"),
                         ids=lambda c: f"reversi-game-{c['agent']['seed']}")
def test_reversi_self_play_game(case):
    agents = (reversi_agent(case["agent"]), reversi_agent(case["agent"], case["second_seed"]))
    position = Position.start()
    for ply, recorded in enumerate(case["moves"]):
        if position.legal_moves() == [PASS]:
            assert recorded == {"move": PASS}, f"ply {ply}"
            position = position.play(PASS)
            continue
        agent = agents[0 if position.black_to_move else 1]
        position = position.play(check(agent, position, recorded, False, f"ply {ply}"))
    assert position.is_game_over()
