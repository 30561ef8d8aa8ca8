"""The ``Game`` contract: what every front end (the match runner, the play commands, the web
board, ``evolve.evaluate``) uses of a game: its rules, its text and its agents by spec.

A game package implements ``Game``, usually by subclassing ``engine.core.base.GameBase``, and
registers itself as a plug-in under the entry-point group ``board_evolve.games``
(``engine.core.registry``). ``GameBase`` also supplies the ``Conveniences`` below (defaults a
game may override). Everything else a game can do is an optional capability it declares in
``capabilities`` and callers ask for (``engine.core.capabilities``: genomes, files, td, figures,
export, commands). Nothing here knows a board: states and moves are opaque to the core (moves
are ``int`` action ids; ``move_text`` / ``parse_move`` translate them).

Players are numbered by turn order: player 0 moves first (Reversi: black, Pentago Twist: white,
Hexifence: blue). ``Game.players`` names them; outputs use those names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from engine.core.agent import Agent, Seed
from engine.core.records import (
    DRAW,
    JSON_EXPORT,
    Champion,
    ChampionFileError,
    ExportFormat,
    GameSettingsError,
    GenomeSpec,
    Option,
    Outcome,
    SearchSettings,
    StepRule,
)

__all__ = ["DRAW", "JSON_EXPORT", "Champion", "ChampionFileError", "Conveniences",
           "ExportFormat", "Game",
           "GameSettingsError", "GenomeSpec", "Option", "Outcome", "SearchSettings", "StepRule",
           "moves_text", "parse_moves"]


@runtime_checkable
class Game(Protocol):
    """A configured game: ``with_settings`` returns a copy configured from ``conf/game/<name>``
    (board size, genome layout, ...); everything else uses those settings."""

    name: str
    description: str
    players: tuple[str, str]  # names of player 0 (moves first) and player 1
    margin_unit: str  # "discs", "cells", "win"
    result_columns: tuple[str, ...]  # keys of Outcome.details written to games.csv
    default_panel: tuple[str, ...]  # yardstick opponents (agent specs)
    capabilities: frozenset[str]  # the optional ones it declares (engine.core.capabilities)

    def with_settings(self, settings: Mapping[str, Any]) -> Game: ...

    def settings(self) -> dict: ...

    # --- rules ------------------------------------------------------------------------------
    def initial_state(self): ...

    def to_move(self, state) -> int: ...

    def legal_moves(self, state) -> list[int]: ...  # a forced pass is a legal move

    def apply(self, state, move: int): ...  # ValueError saying why a move is illegal

    def is_terminal(self, state) -> bool: ...

    def outcome(self, state, moves: Sequence[int] = ()) -> Outcome: ...

    # --- text -------------------------------------------------------------------------------
    def state_text(self, state) -> str: ...

    def parse_state(self, text: str): ...  # ValueError on bad text

    # --- agents by spec -----------------------------------------------------------------------
    def make_panel_agent(self, spec: str, search: SearchSettings, seed: Seed = None) -> Agent: ...

    def check_spec(self, spec: str) -> None: ...  # ValueError naming what is allowed

    def agent_specs(self) -> tuple[str, ...]: ...  # documented spec forms, for help and --json


@runtime_checkable
class Conveniences(Protocol):
    """What ``GameBase`` supplies to every game with a default (a game may override them; one
    not built on ``GameBase`` writes them too): move text for files and people, a board view,
    the core's openings and match runner, what a search spends time on, what a spec searches."""

    def move_text(self, move: int) -> str: ...  # str of the id: files and wire

    def parse_move(self, text: str, state=None) -> int: ...  # ValueError on bad text

    def move_label(self, move: int, state=None) -> str: ...  # for people (web, logs)

    def state_view(self, state) -> dict: ...  # JSON-able board for renderers

    def random_openings(self, n: int, seed: Seed, min_plies: int,
                        max_plies: int) -> list[tuple[int, ...]]: ...

    def play(self, first: Agent, second: Agent, opening: Sequence[int] = (),
             seed: Seed = None) -> Outcome: ...

    def moves_left(self, state) -> int: ...  # 20: the mover's moves to come (a game clock)

    def progress(self, state) -> float: ...  # 0.5: share of the game played (a game clock)

    def spec_searches(self, spec: str) -> bool: ...  # True: do depth/time apply?

    def fixed_search(self, spec: str) -> str | None: ...  # None: what an agent whose search
    # the settings do not change searches, in words ("depth 1, greedy ...")


def moves_text(game: Game, moves: Sequence[int]) -> str:
    """A compact move list (what ``games.csv`` records): move texts joined by spaces, or by
    commas when a move text holds a space (Pentago Twist's ``"x y a b"``)."""
    texts = [game.move_text(int(m)) for m in moves]
    return ("," if any(" " in t for t in texts) else " ").join(texts)


def parse_moves(game: Game, text: str) -> tuple[int, ...]:
    """The inverse of ``moves_text``: replays the moves so context-dependent text parses."""
    state, moves = game.initial_state(), []
    text = text.strip()
    if text and "," not in text and " " in text:  # one move whose text holds a space?
        try:
            move = game.parse_move(text, state)
        except ValueError:
            move = None  # a space-separated list
        if move is not None:
            game.apply(state, move)  # ValueError if illegal
            return (move,)
    for token in _split_moves(text):
        move = game.parse_move(token, state)
        state = game.apply(state, move)
        moves.append(move)
    return tuple(moves)


def _split_moves(text: str) -> list[str]:
    text = text.strip()
    if not text:
        return []
    return [t.strip() for t in text.split(",")] if "," in text else text.split()
