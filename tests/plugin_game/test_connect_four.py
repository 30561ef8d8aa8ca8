"""The plug-in example game against independent references: rules on a list-of-columns board
(no bits), perft counts that follow from the rules, and alpha-beta equal to plain minimax with
the same leaf evaluation. The shared conformance test (``tests/engine/core``) covers it too, as
it covers every registered game."""

import numpy as np
import pytest
from connect_four import rules
from connect_four.game import GAME
from connect_four.search import WIN, evaluate

from engine.core import SearchSettings, game_names

WEIGHTS = np.tile(np.array([1.0, 4.0, 16.0, -1.0, -4.0, -16.0, 2.0]), (2, 1))


def test_the_plug_in_is_registered_through_its_entry_point():
    assert "connect_four" in game_names()


def slow_winner(columns: list[list[int]]) -> int | None:
    """The player (0 or 1) with four in a row on a list-of-columns board, by brute force."""
    def at(c, r):
        return columns[c][r] if 0 <= c < 7 and 0 <= r < len(columns[c]) else None

    for c in range(7):
        for r in range(6):
            who = at(c, r)
            if who is None:
                continue
            for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if all(at(c + k * dc, r + k * dr) == who for k in range(4)):
                    return who
    return None


def random_line(rng, plies):
    state, columns, moves = GAME.initial_state(), [[] for _ in range(7)], []
    for _ in range(plies):
        legal = GAME.legal_moves(state)
        if not legal:
            break
        c = legal[int(rng.integers(len(legal)))]
        columns[c].append(state.to_move)
        state = GAME.apply(state, c)
        moves.append(c)
    return state, columns, moves


def test_rules_agree_with_a_list_of_columns_reference_on_random_games():
    rng = np.random.default_rng(0)
    for _ in range(300):
        state, columns, _ = random_line(rng, 42)
        winner = slow_winner(columns)
        outcome = GAME.outcome(state, ())
        assert (None if outcome.winner == -1 else outcome.winner) == winner
        full = sum(map(len, columns)) == 42
        assert GAME.is_terminal(state) and (winner is not None or full)


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_counts_follow_from_the_rules(depth):
    """No game can end before ply 7, so every sequence of up to 6 drops is legal (7^d); at 7
    plies only the 7 sequences filling one column seven times overflow."""
    expected = 7 ** depth - (7 if depth == 7 else 0)
    assert rules.perft(0, 0, depth) == expected


def minimax(state, depth):
    if GAME.is_terminal(state):
        o = GAME.outcome(state, ())
        return 0.0 if o.winner == -1 else -(WIN + 42 - state.plies)
    if depth == 0:
        return evaluate(np.uint64(state.P), np.uint64(state.O), WEIGHTS,
                        GAME.make_agent(WEIGHTS.ravel(), SearchSettings(1)).phase_of_stones)
    return max(-minimax(GAME.apply(state, c), depth - 1) for c in GAME.legal_moves(state))


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_alphabeta_equals_plain_minimax(depth):
    rng = np.random.default_rng(depth)
    agent = GAME.make_agent(WEIGHTS.ravel(), SearchSettings(depth))
    for _ in range(12):
        state, _, _ = random_line(rng, int(rng.integers(0, 20)))
        if GAME.is_terminal(state):
            continue
        move = agent.select_move(state)
        assert agent.last_info["eval"] == pytest.approx(minimax(state, depth))
        assert -minimax(GAME.apply(state, move), depth - 1) == pytest.approx(
            agent.last_info["eval"])


def test_a_smoke_study_of_the_plug_in_runs_and_exports_a_champion(tmp_path):
    """The plug-in's config comes from its own package (``Game.config_dir``): ``game=`` finds it
    through Hydra's search path, and the champion file it writes loads back."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "evolve", "+experiment=smoke",
                           "game=connect_four", f"hydra.run.dir={tmp_path}"],
                          cwd=root, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    champion = GAME.load_champion(tmp_path / "champion.json")
    assert champion.game == "connect_four" and champion.genome.shape == (14,)


def test_the_plug_in_declares_what_the_ga_needs_and_no_other_capability():
    from engine.core.capabilities import capabilities, commands, export_formats

    assert capabilities(GAME) == ("genomes",)
    assert [f.name for f in export_formats(GAME)] == ["json"]
    assert list(commands(GAME)) == ["play"]
