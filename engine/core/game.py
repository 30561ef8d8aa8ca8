"""The ``Game`` contract: everything the GA, the arena, the CLIs and the web app use of a game.

A game package implements ``Game``, usually by subclassing ``engine.core.base.GameBase`` (which
supplies every member marked *optional* below), and registers itself as a plug-in under the
entry-point group ``board_evolve.games`` (``engine.core.registry``). Nothing here knows a board:
states and moves are opaque to the core (moves are ``int`` action ids; ``move_text`` /
``parse_move`` translate them).

Players are numbered by turn order: player 0 moves first (Reversi: black, Pentago Twist: white,
Hexifence: blue). ``Game.players`` names them; outputs use those names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

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

__all__ = ["DRAW", "JSON_EXPORT", "Champion", "ChampionFileError", "ExportFormat", "Game",
           "GameSettingsError", "GenomeSpec", "Option", "Outcome", "SearchSettings", "StepRule",
           "moves_text", "parse_moves"]


@runtime_checkable
class Game(Protocol):
    """A configured game. ``with_settings`` returns a copy configured from ``conf/game/<name>``
    (genome layout, board size, ...); everything else uses those settings.

    Members marked *optional* have a default in ``GameBase``; the others are the game's own."""

    name: str
    description: str
    players: tuple[str, str]  # names of player 0 (moves first) and player 1
    margin_unit: str  # "discs", "cells", "win"
    result_columns: tuple[str, ...]  # keys of Outcome.details written to games.csv
    seed_references: tuple[str, ...]  # reference genomes that seed a first population
    default_panel: tuple[str, ...]  # yardstick opponents (agent specs)
    # optional capabilities, declared (GameBase: JSON only, no commands, no config dir)
    export_formats: tuple[ExportFormat, ...]  # what ``evolve.export --format`` offers
    cli_commands: Mapping[str, str]  # ``engine.<command>`` -> module with ``main(argv)``
    config_dir: Path | None  # a folder holding ``game/<name>.yaml`` (plug-ins outside conf/)
    cli_selectors: Mapping[str, str]  # options that pick this game where tools take --game
    #   (Reversi: {"variant": "othello"} keeps ``--variant othello`` meaning ``--game othello``)

    # --- configuration and genome -------------------------------------------------------
    def with_settings(self, settings: Mapping[str, Any]) -> Game: ...

    def settings(self) -> dict: ...

    def genome_spec(self) -> GenomeSpec: ...

    def reference_genome(self, reference: str) -> np.ndarray: ...

    def reference_names(self) -> tuple[str, ...]: ...  # optional: the seed references

    def phase_of(self, state) -> int: ...  # optional (one phase): genome phase of ``state``

    def moves_left(self, state) -> int: ...  # optional (20): the mover's moves to come

    def progress(self, state) -> float: ...  # optional (0.5): share of the game played

    def check_search(self, search: SearchSettings) -> None: ...  # optional: GameSettingsError

    def learns_by_td(self) -> bool: ...  # optional (False): can this genome kind run td_learn?

    def td_learn(self, genome: np.ndarray, games: int, seed: Seed, alpha: float,
                 epsilon: float) -> np.ndarray: ...  # optional: TD self-play (below)

    def td_opponents(self) -> bool: ...  # optional (False): td_learn(..., opponents=specs)?

    def td_rounds(self) -> bool: ...  # optional (False): td_play and td_learn_games?

    def td_play(self, genome: np.ndarray, games: int, seed: Seed, epsilon: float,
                openings=None, opponents=(), self_play_share: float = 0.5
                ) -> dict: ...  # optional: fixed-genome self-play, recorded (opponents: only
    # where td_opponents())

    def td_learn_games(self, genome: np.ndarray, records, alpha: float
                       ) -> tuple[np.ndarray, np.ndarray]: ...  # optional: TD along records

    def td_step_rules(self) -> tuple[str, ...]: ...  # optional (()): StepRule names td_learn
    # and td_learn_games take as rule= (besides plain nlms, which every TD learner is)

    # --- agents ---------------------------------------------------------------------------
    def make_agent(self, genome: np.ndarray, search: SearchSettings, seed: Seed = None,
                   name: str = "") -> Agent: ...

    def make_panel_agent(self, spec: str, search: SearchSettings, seed: Seed = None) -> Agent: ...

    def check_spec(self, spec: str) -> None: ...  # ValueError naming what is allowed

    def agent_specs(self) -> tuple[str, ...]: ...  # documented spec forms, for help and --json

    def spec_searches(self, spec: str) -> bool: ...  # optional (True): do depth/time apply?

    def fixed_search(self, spec: str) -> str | None: ...  # optional (None): what an agent
    # whose search the settings do not change searches, in words ("depth 1, greedy ...")

    # --- playing (optional: the core's match runner over the state interface) --------------
    def random_openings(self, n: int, seed: Seed, min_plies: int,
                        max_plies: int) -> list[tuple[int, ...]]: ...

    def play(self, first: Agent, second: Agent, opening: Sequence[int] = (),
             seed: Seed = None) -> Outcome: ...

    # --- states (the match runner, play CLIs, the web app) ----------------------------------
    def initial_state(self): ...

    def to_move(self, state) -> int: ...

    def legal_moves(self, state) -> list[int]: ...  # a forced pass is a legal move

    def apply(self, state, move: int): ...  # ValueError saying why a move is illegal

    def is_terminal(self, state) -> bool: ...

    def outcome(self, state, moves: Sequence[int] = ()) -> Outcome: ...

    def state_text(self, state) -> str: ...

    def parse_state(self, text: str): ...  # ValueError on bad text

    def state_view(self, state) -> dict: ...  # optional: JSON-able board for renderers

    def move_text(self, move: int) -> str: ...  # optional (str of the id): files and wire

    def parse_move(self, text: str, state=None) -> int: ...  # optional: ValueError on bad text

    def move_label(self, move: int, state=None) -> str: ...  # optional: for people (web, logs)

    # --- files, figures, export, commands ------------------------------------------------------
    def save_champion(self, path: str | Path, genome: np.ndarray, name: str = "",
                      metadata: Mapping | None = None) -> None: ...  # optional: JSON by gene

    def load_champion(self, path: str | Path) -> Champion: ...  # optional; ChampionFileError

    def read_champion(self, document) -> Champion: ...  # optional: a parsed file's champion

    def champion_agent(self, champion: Champion, search: SearchSettings, seed: Seed = None
                       ) -> Agent: ...  # optional: the agent a loaded champion plays

    def recognizes(self, header: dict) -> bool: ...  # optional: is a file's header ours?

    def projected_genome(self, path: str | Path) -> np.ndarray: ...  # optional: a file's
    # evaluation as a genome of these settings (e.g. a smaller network in a bigger layout)

    def export(self, source: Path, fmt: str, out: Path, **options) -> None: ...  # optional

    def genome_figure(self, genome: np.ndarray, title: str = ""): ...  # optional: Figure|None

    def genome_figures(self, champion: Champion, history=()) -> dict: ...  # optional: {}

    def genome_markdown(self, genome: np.ndarray) -> str: ...  # optional: ""

    def cli_arguments(self, command: str) -> list[str]: ...  # optional: prepended to argv


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
