"""The contract in capabilities: a small required ``Game``, optional capabilities a game
declares and callers ask for, listed by the registry and ``python -m engine.games``."""

from __future__ import annotations

import json

import pytest

from engine.core import capabilities as cap
from engine.core import registry
from engine.core.base import GameBase
from engine.core.game import Conveniences, Game, Outcome


class TakeOne:
    name = "take one"

    def reset(self, seed=None):
        pass

    def select_move(self, state):
        return 1


class Nim(GameBase):
    """Rules and agents only: take 1 or 2 of 5 stones, taking the last one wins."""

    name, description, players = "nim", "Nim: 5 stones, take 1 or 2", ("first", "second")

    def initial_state(self):
        return (5, 0)

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        return [m for m in (1, 2) if m <= state[0]]

    def apply(self, state, move):
        if move not in self.legal_moves(state):
            raise ValueError(f"cannot take {move}")
        return (state[0] - move, 1 - state[1])

    def is_terminal(self, state):
        return state[0] == 0

    def outcome(self, state, moves=()):
        return Outcome(1 - state[1], 1.0, len(moves), tuple(moves))

    def state_text(self, state):
        return f"{state[0]} {state[1]}"

    def parse_state(self, text):
        stones, mover = text.split()
        return (int(stones), int(mover))

    def make_panel_agent(self, spec, search, seed=None):
        return TakeOne()

    def check_spec(self, spec):
        if spec != "random":
            raise ValueError(f"unknown agent spec {spec!r} (allowed: random)")

    def agent_specs(self):
        return ("random",)


def test_the_required_contract_is_small():
    methods = [n for n, v in vars(Game).items() if callable(v) and not n.startswith("_")]
    assert 10 <= len(methods) <= 15, methods
    assert "genome_spec" not in methods and "td_learn" not in methods


def test_a_rules_only_game_is_a_game_that_declares_no_capability():
    game = Nim()
    assert isinstance(game, Game) and isinstance(game, Conveniences)
    assert cap.capabilities(game) == ()
    assert not any(cap.has(game, name) for name in cap.CAPABILITIES)
    assert cap.export_formats(game) == ()
    assert cap.commands(game) == {"play": cap.PLAY_ANY}
    assert cap.arguments(game, "play") == ["--game", "nim"]
    with pytest.raises(ValueError, match="evolving needs a game with 'genomes'.*declares none"):
        cap.require(game, cap.GENOMES, "evolving")
    outcome = game.play(game.make_panel_agent("random", None, 1),
                        game.make_panel_agent("random", None, 2), seed=3)
    assert outcome.winner == 0 and outcome.plies == 5  # one stone a move: the first takes the last


def test_a_declared_capability_must_be_there():
    class Claims(Nim):
        capabilities = frozenset({"td", "chess"})

    with pytest.raises(TypeError, match="unknown capability 'chess'"):
        cap.capabilities(Claims())

    class NoFigures:  # declares figures, writes none of them
        name, capabilities = "bare", frozenset({"figures"})

    with pytest.raises(TypeError, match="declares 'figures' but lacks"):
        cap.capabilities(NoFigures())
    with pytest.raises(ValueError, match="unknown capability"):
        cap.has(Nim(), "chess")


def test_the_registry_lists_each_games_capabilities():
    table = registry.game_capabilities()
    common = {"genomes", "files", "td", "figures", "export", "commands"}
    for name in ("othello", "reversed_reversi"):
        assert set(table[name]) == common | {"labels"}
    for name in ("pentago_twist", "hexifence"):
        assert set(table[name]) == common
    assert list(table["othello"]) == list(cap.CAPABILITIES)  # in the documented order


def test_python_m_engine_games_shows_the_capabilities(capsys):
    from engine.games import main

    assert main(["--json"]) == 0
    games = {g["name"]: g for g in json.loads(capsys.readouterr().out)}
    assert games["othello"]["capabilities"][:2] == ["genomes", "files"]
    assert main([]) == 0
    assert "capabilities: genomes, files, td, figures, export, commands" in \
        capsys.readouterr().out
