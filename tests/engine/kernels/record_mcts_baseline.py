"""Record what the MCTS agents of an older checkout play, as test data for the shared UCT loop.

    python tests/engine/kernels/record_mcts_baseline.py /work/baseline \
        tests/data/mcts_baseline_moves.json

The checkout given first is put at the front of ``sys.path``, so its ``engine`` package is the
one imported, not this worktree's (``tests/engine/baseline_checkout.py``). Run it on the code
from before the UCT loop moved to the shared kernel (``engine.kernels.search.mcts``):
``test_mcts_baseline.py`` beside it then proves the new agents play the same moves with the
same root statistics (same RNG draws in the same order).

What is recorded, all with play-out budgets (reproducible): Pentago Twist's and Reversi's
``MCTSAgent`` on random reachable positions (text forms stored), random and guided play-outs,
several seeds and settings; and whole self-play games, where one agent per side keeps its RNG
from move to move. For each move: the move, the play-outs run, the root children's
(move, visits, reward sum), and Pentago's ``win_rate``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(1, str(Path(__file__).resolve().parents[3]))  # for tests.engine, after the script
from tests.engine.baseline_checkout import use_checkout, write_json  # noqa: E402

POSITIONS_PER_CONFIG = 8


def main(code: str, out: str) -> None:
    data = {"recorded_from": use_checkout(code),
            "command": f"python tests/engine/kernels/record_mcts_baseline.py {code} {out}",
            "pentago": record_pentago(), "reversi": record_reversi()}
    write_json(data, out, '{"move"')
    print(f"wrote {out}: {len(data['pentago'])} Pentago and {len(data['reversi'])} Reversi cases")


# --- observing the root -------------------------------------------------------------------

def root_rows(tree) -> list[list]:
    """(move, visits, reward sum) of every root child, sorted by move."""
    rows, child = [], int(tree["first_child"][0])
    while child != -1:
        rows.append([int(tree["move"][child]), float(tree["visits"][child]),
                     float(tree["value"][child])])
        child = int(tree["sibling"][child])
    return sorted(rows)


def watch_pentago_root():
    from engine.pentago.agents import mcts

    seen = {}
    original = mcts.MCTSAgent._most_visited

    def spy(self, tree):
        seen["root"] = root_rows(tree)
        return original(self, tree)

    mcts.MCTSAgent._most_visited = spy
    return seen


def watch_reversi_root():
    from engine.reversi.agents import mcts

    seen = {}
    original = mcts.MCTSAgent._most_visited

    def spy(t):
        seen["root"] = root_rows(t)
        return original(t)

    mcts.MCTSAgent._most_visited = staticmethod(spy)
    return seen


def move_entry(agent, move, seen, extra=()) -> dict:
    root = seen.pop("root", None)  # None: the move needed no search (forced or a win now)
    entry = {"move": int(move), "playouts": None if root is None else int(agent.last_playouts),
             "root": root}
    for key in extra:
        value = getattr(agent, "last_info", {}).get(key)
        entry[key] = None if value is None else float(value)
    return entry


# --- Pentago Twist --------------------------------------------------------------------------

def pentago_positions(seed: int, n: int) -> list:
    from engine.pentago.rules.state import State

    rng = np.random.default_rng(seed)
    positions = []
    while len(positions) < n:
        state, plies = State(), int(rng.integers(0, 25))
        for _ in range(plies):
            if state.is_over():
                break
            legal = state.legal_moves()
            state = state.apply(legal[int(rng.integers(len(legal)))])
        if not state.is_over():
            positions.append(state)
    return positions


def pentago_configs() -> list[dict]:
    rng = np.random.default_rng(2024)
    weights = np.round(rng.normal(0.0, 1.0, size=(3, 18)), 3)
    phase = np.minimum(np.arange(37) * 3 // 37, 2)
    guided = {"weights": weights.tolist(), "phase_of_stones": phase.tolist()}
    return [
        {"playouts": 300, "seed": 1},
        {"playouts": 1000, "seed": 7},
        {"playouts": 57, "seed": 3, "exploration": 0.7},
        {"playouts": 1, "seed": 5},
        {"playouts": 400, "seed": 11, **guided, "samples": 4},
        {"playouts": 150, "seed": 12, **guided, "samples": 1},
    ]


def pentago_agent(config: dict):
    from engine.pentago.agents.mcts import MCTSAgent

    kwargs = dict(config)
    for key in ("weights", "phase_of_stones"):
        if key in kwargs:
            kwargs[key] = np.array(kwargs[key], dtype=float if key == "weights" else np.int64)
    return MCTSAgent(**kwargs)


def record_pentago() -> list[dict]:
    from engine.pentago.rules.state import State, state_text

    seen = watch_pentago_root()
    cases = []
    for k, config in enumerate(pentago_configs()):
        agent = pentago_agent(config)  # one agent: its RNG runs on from position to position
        positions = pentago_positions(100 + k, POSITIONS_PER_CONFIG)
        moves = [move_entry(agent, agent.select_move(s), seen, ("win_rate",)) for s in positions]
        cases.append({"kind": "positions", "agent": config,
                      "states": [state_text(s) for s in positions], "moves": moves})
    for config in pentago_configs()[:3] + pentago_configs()[4:5]:
        agents = (pentago_agent(config), pentago_agent({**config, "seed": config["seed"] + 50}))
        state, moves = State(), []
        while not state.is_over():
            agent = agents[state.to_move]
            move = agent.select_move(state)
            moves.append(move_entry(agent, move, seen, ("win_rate",)))
            state = state.apply(move)
        cases.append({"kind": "game", "agent": config, "second_seed": config["seed"] + 50,
                      "moves": moves})
    return cases


# --- Reversi --------------------------------------------------------------------------------

def reversi_positions(seed: int, n: int) -> list:
    from engine.reversi.rules.state import Position

    rng = np.random.default_rng(seed)
    positions = []
    while len(positions) < n:
        position, plies = Position.start(), int(rng.integers(0, 58))
        for _ in range(plies):
            legal = position.legal_moves()
            if not legal:
                break
            position = position.play(legal[int(rng.integers(len(legal)))])
        if position.legal_moves() and len(position.legal_moves()) > 1:
            positions.append(position)
    return positions


def reversi_configs() -> list[dict]:
    rng = np.random.default_rng(64)
    matrix = np.round(rng.normal(0.0, 10.0, size=64), 2).tolist()
    return [
        {"variant": "othello", "playouts": 200, "seed": 1},
        {"variant": "reversed", "playouts": 800, "seed": 2},
        {"variant": "othello", "playouts": 61, "seed": 3, "exploration": 0.5},
        {"variant": "reversed", "playouts": 2, "seed": 4},
        {"variant": "othello", "playouts": 300, "seed": 5, "weights": matrix},
        {"variant": "reversed", "playouts": 300, "seed": 6, "weights": matrix,
         "guide_epsilon": 0.0},
        {"variant": "othello", "playouts": 100, "seed": 7, "weights": matrix,
         "guide_epsilon": 1.0},
    ]


def reversi_agent(config: dict):
    from engine.reversi.agents.mcts import MCTSAgent

    kwargs = dict(config)
    if "weights" in kwargs:
        kwargs["weights"] = np.array(kwargs["weights"], dtype=float)
    return MCTSAgent(**kwargs)


def record_reversi() -> list[dict]:
    from engine.reversi.rules.state import PASS, Position

    seen = watch_reversi_root()
    cases = []
    for k, config in enumerate(reversi_configs()):
        agent = reversi_agent(config)
        positions = reversi_positions(200 + k, POSITIONS_PER_CONFIG)
        moves = [move_entry(agent, agent.select_move(p), seen) for p in positions]
        cases.append({"kind": "positions", "agent": config,
                      "states": [p.to_string() for p in positions], "moves": moves})
    for config in reversi_configs()[:2] + reversi_configs()[4:5]:
        agents = (reversi_agent(config), reversi_agent({**config, "seed": config["seed"] + 50}))
        position, moves = Position.start(), []
        while position.legal_moves():
            if position.legal_moves() == [PASS]:
                moves.append({"move": PASS})  # forced: no agent asked, as in the match runner
                position = position.play(PASS)
                continue
            agent = agents[0 if position.black_to_move else 1]
            move = agent.select_move(position)
            moves.append(move_entry(agent, move, seen))
            position = position.play(move)
        cases.append({"kind": "game", "agent": config, "second_seed": config["seed"] + 50,
                      "moves": moves})
    return cases


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1], sys.argv[2])
