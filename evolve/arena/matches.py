"""Evaluation games as plain data, played by the shared execution layer (``evolve.execution``).

A game is an ``EvalTask`` (two players, an opening, a seed tuple); an ``EvalContext`` plays a
list of them and returns, in the same order, who won (0 = the task's first player, 1, or
``DRAW``). Agents are built fresh for every game from their specs, so a result cannot depend on
which worker played it or what it played before. Players are agent specs of the game or
champion files (a run directory means its ``champion.json``); a player that is a champion file
is read once, by the command (``read_players``), and travels to the workers as a ``Champion``
(``EvalSettings.champions``), so no game reads it again.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from engine.core.champions.files import (
    ChampionDocument,
    champion_game,
    read_document,
    resolve_source,
)
from engine.core.game import Champion, SearchSettings
from engine.core.matches import specs
from engine.core.matches.clock import ClockedAgent, TimeControl
from evolve.execution.games import configured_game

MAX_DEPTH_WITH_TIME = 60  # "no depth limit" when a per-move time budget is given


@dataclass(frozen=True)
class EvalSettings:
    game: str
    depth: int | None = 4  # None with time_limit: iterative deepening within the time only
    time_limit: float | None = None  # seconds per move
    epsilon: float = 0.0  # both sides play a random legal move with this probability
    endgame_empties: int = 8
    game_settings: dict = field(default_factory=dict)
    clock: str | None = None  # a whole-game time control, e.g. "60+1" (engine.core.matches.clock)
    # (spec, its search) where a player's search is its own (evolve.arena.searches)
    player_search: tuple[tuple[str, SearchSettings], ...] = ()
    # (spec, its Champion) for the players that are champion files, each read once
    champions: tuple[tuple[str, Champion], ...] = ()

    def as_dict(self) -> dict:
        d = asdict(self)
        del d["player_search"]  # written per player by the command (its "search" entry)
        del d["champions"]  # the players' files, named by the command's "players"
        for key in ("game_settings", "clock"):  # files written before them stay identical
            if not d[key]:
                del d[key]
        return d

    def player(self, spec: str):
        """What plays ``spec``: its loaded ``Champion``, else the spec itself."""
        return dict(self.champions).get(spec, spec)

    def search_for(self, spec: str) -> SearchSettings:
        """The search ``spec`` is built with: its own, else the match's."""
        return dict(self.player_search).get(spec) or self.search()

    def search(self) -> SearchSettings:
        depth = self.depth if self.depth is not None else MAX_DEPTH_WITH_TIME
        if self.clock is not None:  # a timed agent; its clock sets its limit before each move
            return SearchSettings(depth, self.endgame_empties, TimeControl.parse(self.clock).base)
        return SearchSettings(depth, self.endgame_empties, self.time_limit)


@dataclass(frozen=True)
class EvalTask:
    index: int  # game number within its match (even: the match's player moves first)
    first: str  # agent spec or champion file
    second: str
    opening: tuple[int, ...]
    seed: tuple[int, ...]  # SeedSequence entropy


@dataclass(frozen=True)
class EvalContext:
    settings: EvalSettings

    def game(self):
        return configured_game(self.settings.game, self.settings.game_settings)

    def play(self, tasks: list[EvalTask]) -> list[int]:
        """Winner (0 = ``first``, 1 = ``second``, or ``DRAW``) of every task, in order."""
        game, winners = self.game(), []
        for task in tasks:
            first_seed, second_seed, game_seed = np.random.SeedSequence(list(task.seed)).spawn(3)
            first = make_player(game, task.first, self.settings, first_seed)
            second = make_player(game, task.second, self.settings, second_seed)
            winners.append(int(game.play(first, second, task.opening, game_seed).winner))
        return winners


def make_player(game, spec: str, settings: EvalSettings, seed):
    agent = specs.make_agent(game, settings.player(spec), settings.search_for(spec), seed=seed)
    if settings.clock is not None:
        agent = ClockedAgent(agent, TimeControl.parse(settings.clock), game)
    if settings.epsilon > 0:
        from engine.core.matches.agents import EpsilonAgent

        agent = EpsilonAgent(agent, settings.epsilon, game.legal_moves, seed=seed)
    return agent


# --- players ----------------------------------------------------------------------------------


def file_of(spec: str) -> str | None:
    """The champion file or run directory a spec names: the spec itself when it is a path, else
    its last ``:`` field (Reversi's ``eps0.1:a.json`` and ``mcts::a.json`` name ``a.json``)."""
    last = spec.rsplit(":", 1)[-1]
    for candidate in (spec, last):
        if candidate and Path(candidate).exists():
            return candidate
    return last if last.lower().endswith((".json", ".npz")) else None


def resolve_players(specs: list[str]) -> list[str]:
    """Specs with run directories replaced by their champion.json (a missing file fails later,
    in ``check_specs``, with the game's own message)."""
    resolved = []
    for spec in specs:
        path = file_of(spec)
        if path is not None and Path(path).is_dir():
            spec = spec[: len(spec) - len(path)] + str(resolve_source(path))
        resolved.append(spec)
    return resolved


def read_players(players: list[str]) -> dict[str, ChampionDocument]:
    """``{spec: its parsed file}`` for the players that are champion files: the one read of
    each (``ChampionFileError`` naming a file that is no champion file)."""
    return {spec: read_document(spec) for spec in players
            if file_of(spec) == spec and Path(spec).is_file()}


def file_games(players: list[str], documents: dict | None = None) -> dict[str, str]:
    """``{champion file: game}`` for the players that are files naming their game (from
    ``documents``, the files read already, where they hold it)."""
    from engine.core.champions.files import recognizing_game

    documents = documents or {}
    found = {}
    for spec in players:
        path = file_of(spec)
        if spec in documents:
            game = recognizing_game(documents[spec].header)
            game = game.name if game is not None else None
        elif path is not None and Path(path).is_file():
            game = champion_game(path)
        else:
            continue
        if game:
            found[path] = game
    return found


def load_players(documents: dict[str, ChampionDocument], game) -> dict[str, Champion]:
    """``{spec: Champion}`` of the files read by ``read_players``, read by ``game``."""
    from engine.core.champions.files import champion_of

    return {spec: champion_of(document, game) for spec, document in documents.items()}


def choose_game(requested: str | None, players: list[str], documents: dict | None = None
                ) -> tuple[str, str | None]:
    """(game to play, warning or None): ``requested`` (``--game``) if given, else the one game
    the champion files name. A file for another game is refused, except between games that can
    read it (Othello weights under Reversed Reversi rules): allowed, with a warning."""
    from engine.core.champions.files import champion_of
    from engine.core.registry import get_game

    documents = documents or {}
    found = file_games(players, documents)
    if requested is None:
        games = sorted(set(found.values()))
        if len(games) != 1:
            raise ValueError(f"cannot tell the game from the champion files (games: "
                             f"{', '.join(games) or 'none'}); give --game NAME")
        return games[0], None
    game = get_game(requested)
    others = {path: g for path, g in found.items() if g != requested}
    for path, other in others.items():
        try:
            if path in documents:
                champion_of(documents[path], game)
            else:
                game.load_champion(path)
        except ValueError:
            raise ValueError(f"{path} is a {other} champion; it cannot play {requested}") from None
    if not others:
        return requested, None
    listed = ", ".join(f"{Path(p).name} ({g})" for p, g in others.items())
    return requested, f"--game {requested} overrides the game of {listed}"


def check_specs(players: list[str], settings: EvalSettings) -> None:
    """Build each player once so that an unknown spec or a bad file fails before any game."""
    game = EvalContext(settings).game()
    for spec in players:
        specs.check_spec(game, settings.player(spec))
        make_player(game, spec, settings, 0)
