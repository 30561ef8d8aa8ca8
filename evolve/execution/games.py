"""Games as indexed, seeded tasks, and the configured games that play them (built once per
process: Ray actors are reused across batches).

Games are plain data (``GameTask``) with an index, so any backend can play them in any order and
on any worker: a game's seed is fixed by the task, and results are put back by index. The GA's
tournament and the arena's matches both speak this language.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.core.game import DRAW, Champion, Game, Outcome, SearchSettings, moves_text
from engine.core.matches import specs

OPENINGS_STREAM = 1 << 30  # pairing slot for the openings' seed (never a real pairing index)

_GAMES: dict[tuple[str, str], Game] = {}


def configured_game(name: str, settings: dict) -> Game:
    from engine.core.registry import get_game

    key = (name, repr(sorted(settings.items())))
    if key not in _GAMES:
        _GAMES[key] = get_game(name, settings)
    return _GAMES[key]


@dataclass(frozen=True)
class GameTask:
    index: int  # position in this batch's result list
    pairing: int
    game: int  # game number within the pairing
    # population index, or a panel player (an agent spec, or a Champion loaded once); player 0
    # (moves first)
    first: int | specs.Player
    second: int | specs.Player
    opening: tuple[int, ...]
    seed: tuple[int, ...]  # SeedSequence entropy


@dataclass(frozen=True)
class GameResult:
    """What a worker sends back: the outcome with its moves as compact text."""

    index: int
    winner: int  # 0 (first player), 1 or DRAW
    margin: float
    plies: int
    details: tuple  # values of ``Game.result_columns``
    moves: str

    @classmethod
    def of(cls, index: int, game: Game, outcome: Outcome) -> GameResult:
        details = tuple(outcome.details[c] for c in game.result_columns)
        return cls(index, int(outcome.winner), float(outcome.margin), int(outcome.plies),
                   details, moves_text(game, outcome.moves))

    def points_for(self, player: int) -> float:
        return 0.5 if self.winner == DRAW else float(self.winner == player)


@dataclass(frozen=True)
class Context:
    """Everything a worker needs besides the tasks; shipped once per generation."""

    game: str
    settings: dict  # the game's settings (``Game.with_settings``)
    search: SearchSettings
    genomes: np.ndarray
    # both players move uniformly at random with this probability (``games.epsilon``), drawn
    # from each player's seed: a game stays a function of its task
    epsilon: float = 0.0

    def play(self, tasks: list[GameTask]) -> list[GameResult]:
        return play_tasks(self, tasks)


def play_tasks(context: Context, tasks: list[GameTask]) -> list[GameResult]:
    """Play ``tasks`` in order with fresh agents per game (no state leaks between games, so a
    game's result cannot depend on which worker played it or what it played before)."""
    game = configured_game(context.game, context.settings)
    results = []
    for task in tasks:
        ss = np.random.SeedSequence(list(task.seed))
        first_seed, second_seed, game_seed = ss.spawn(3)
        first = _agent(game, context, task.first, first_seed)
        second = _agent(game, context, task.second, second_seed)
        outcome = game.play(first, second, task.opening, game_seed)
        results.append(GameResult.of(task.index, game, outcome))
    return results


def _agent(game: Game, context: Context, who, seed):
    if isinstance(who, str | Champion):
        agent = specs.make_agent(game, who, context.search, seed=seed)
    else:
        agent = game.make_agent(context.genomes[who], context.search, seed=seed, name=f"g{who}")
    if context.epsilon > 0:
        from engine.core.matches.agents import EpsilonAgent

        agent = EpsilonAgent(agent, context.epsilon, game.legal_moves, seed=seed)
    return agent


def warm_up(name: str, settings: dict, learns: bool = False) -> None:
    """Compile the game's kernels (one short game; with ``learns``, one game of TD self-play
    too, for ``ga.local_search=td``) before the first timed generation."""
    game = configured_game(name, settings)
    low, high = game.genome_spec().default_bounds()
    genome = (np.asarray(low, dtype=np.float64) + np.asarray(high, dtype=np.float64)) / 2
    context = Context(name, settings, SearchSettings(depth=1, endgame_empties=4), genome[None, :])
    context.play([GameTask(0, 0, 0, 0, "random", (), (0, 0, 0, 0))])
    if learns:
        game.td_learn(genome, 1, 0, 0.01, 0.1)
