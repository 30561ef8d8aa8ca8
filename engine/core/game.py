"""What the GA, the arena, the CLIs and the web app need from any game (numpy only).

A game package (``engine/reversi``, ``engine/pentago``, ``engine/hexifence``) implements ``Game``
and registers it in ``engine.core.registry``. Nothing here knows a board: states and moves are
opaque to the core (moves are ``int`` action ids; ``move_text`` / ``parse_move`` translate them).

Players are numbered by turn order: player 0 moves first (Reversi: black, Pentago Twist: white,
Hexifence: blue). ``Game.players`` names them; outputs use those names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from engine.core.agent import Agent, Seed

DRAW = -1  # Outcome.winner of a drawn game


class GameSettingsError(ValueError):
    """A bad game setting; the message is one line naming the key (``game.genome.phases=0 ...``)."""


class ChampionFileError(ValueError):
    """A champion/weights file that cannot be used; the message names the file and the field."""


@dataclass(frozen=True)
class SearchSettings:
    """How an evolved agent searches; identical for the whole population and the panel.

    ``endgame_empties``: search exactly (to the end of the game) once this few moves remain
    (Reversi: empty squares; Pentago Twist: empty cells; Hexifence: undrawn edges).
    ``time_limit``: seconds per move with iterative deepening (``None``: fixed ``depth``)."""

    depth: int = 2
    endgame_empties: int = 8
    time_limit: float | None = None

    def to_dict(self) -> dict:
        d = asdict(self)
        if d["time_limit"] is None:  # files written before time limits existed stay identical
            del d["time_limit"]
        return d


@dataclass(frozen=True)
class Outcome:
    """How one game ended. ``margin`` is from player 0's view in the game's own unit (discs,
    cells, 1 for a Pentago win); ``details`` holds game-specific numbers (Reversi: disc counts),
    written as columns of ``games.csv`` in the order of ``Game.result_columns``."""

    winner: int  # 0, 1 or DRAW
    margin: float
    plies: int
    moves: tuple[int, ...] = ()  # every ply from the start, opening included
    details: dict = field(default_factory=dict)

    def score_for(self, player: int) -> float:
        """1 for a win, 0.5 for a draw, 0 for a loss."""
        if self.winner == DRAW:
            return 0.5
        return 1.0 if self.winner == player else 0.0


@dataclass(frozen=True)
class GenomeSpec:
    """The flat float64 genome: gene names, named blocks (crossover swaps whole blocks) and the
    default initialisation/clipping bounds of every gene."""

    names: tuple[str, ...]
    blocks: Mapping[str, slice]
    lower: np.ndarray
    upper: np.ndarray

    @property
    def size(self) -> int:
        return len(self.names)

    def default_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return self.lower, self.upper


@dataclass
class Champion:
    """A genome read back from a champion file, with the game settings it was evolved under."""

    game: str
    genome: np.ndarray
    settings: dict  # the game's settings (``Game.with_settings`` accepts them)
    name: str = ""
    metadata: dict = field(default_factory=dict)


@runtime_checkable
class Game(Protocol):
    """A configured game. ``with_settings`` returns a copy configured from ``conf/game/<name>``
    (genome layout, board size, ...); everything else uses those settings."""

    name: str
    description: str
    players: tuple[str, str]  # names of player 0 (moves first) and player 1
    margin_unit: str  # "discs", "cells", "win"
    result_columns: tuple[str, ...]  # keys of Outcome.details written to games.csv
    seed_references: tuple[str, ...]  # reference genomes that seed a first population
    default_panel: tuple[str, ...]  # yardstick opponents (agent specs)

    # --- configuration and genome -------------------------------------------------------
    def with_settings(self, settings: Mapping[str, Any]) -> Game: ...

    def settings(self) -> dict: ...

    def genome_spec(self) -> GenomeSpec: ...

    def reference_genome(self, reference: str) -> np.ndarray: ...

    def reference_names(self) -> tuple[str, ...]: ...

    def phase_of(self, state) -> int: ...  # which genome phase evaluates ``state``

    # --- agents ---------------------------------------------------------------------------
    def make_agent(self, genome: np.ndarray, search: SearchSettings, seed: Seed = None,
                   name: str = "") -> Agent: ...

    def make_panel_agent(self, spec: str, search: SearchSettings, seed: Seed = None) -> Agent: ...

    def check_spec(self, spec: str) -> None: ...  # ValueError naming what is allowed

    def agent_specs(self) -> tuple[str, ...]: ...  # documented spec forms, for help and --json

    # --- playing --------------------------------------------------------------------------
    def random_openings(self, n: int, seed: Seed, min_plies: int,
                        max_plies: int) -> list[tuple[int, ...]]: ...

    def play(self, first: Agent, second: Agent, opening: Sequence[int] = (),
             seed: Seed = None) -> Outcome: ...

    # --- states (the generic match runner, play CLIs, the web app) -------------------------
    def initial_state(self): ...

    def to_move(self, state) -> int: ...

    def legal_moves(self, state) -> list[int]: ...  # a forced pass is a legal move

    def apply(self, state, move: int): ...  # ValueError saying why a move is illegal

    def is_terminal(self, state) -> bool: ...

    def outcome(self, state, moves: Sequence[int] = ()) -> Outcome: ...

    def state_text(self, state) -> str: ...

    def parse_state(self, text: str): ...  # ValueError on bad text

    def state_view(self, state) -> dict: ...  # JSON-able board description for renderers

    def move_text(self, move: int) -> str: ...

    def parse_move(self, text: str, state=None) -> int: ...  # ValueError on bad text

    # --- files and figures ------------------------------------------------------------------
    def save_champion(self, path: str | Path, genome: np.ndarray, name: str = "",
                      metadata: Mapping | None = None) -> None: ...

    def load_champion(self, path: str | Path) -> Champion: ...  # ChampionFileError

    def genome_figure(self, genome: np.ndarray, title: str = ""): ...  # Figure or None


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
