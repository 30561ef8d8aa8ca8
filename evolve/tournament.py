"""The problem: score a whole population by a full round robin (and the champion by a panel).

Games are plain data (``GameTask``) with an index, so any backend can play them in any order
and on any worker: every game's seed comes from ``SeedSequence([seed, generation, pairing,
game])`` and results are put back by index, which makes the fitness table independent of how the
work was split.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from engine.games import Game, SearchSettings
from engine.reversi.position import move_name

OPENINGS_STREAM = 1 << 30  # pairing slot for the openings' seed (never a real pairing index)
YARDSTICK_STREAM = 1 << 29  # yardstick pairings are YARDSTICK_STREAM + opponent index


@dataclass(frozen=True)
class GameTask:
    index: int  # position in this batch's result list
    pairing: int
    game: int  # game number within the pairing
    black: int | str  # population index, or a panel agent spec
    white: int | str
    opening: tuple[int, ...]
    seed: tuple[int, ...]  # SeedSequence entropy


@dataclass(frozen=True)
class GameResult:
    index: int
    black_discs: int
    white_discs: int
    black_score: int
    winner: str  # "black" | "white" | "draw"


@dataclass(frozen=True)
class Context:
    """Everything a worker needs besides the tasks; shipped once per generation."""

    game: str
    search: SearchSettings
    genomes: np.ndarray
    phase_bounds: tuple[int, ...]  # disc counts where phases 2.. start
    symmetric: bool


def openings_for(game: Game, seed: int, generation: int, n: int, min_plies: int, max_plies: int):
    """The generation's openings, identical for every pair (fresh each generation)."""
    ss = np.random.SeedSequence([seed, generation, OPENINGS_STREAM])
    return game.random_openings(n, ss, min_plies=min_plies, max_plies=max_plies)


def round_robin_tasks(n: int, openings, seed: int, generation: int) -> list[GameTask]:
    """Every pair (i < j) plays every opening twice, i black first, then j black."""
    tasks = []
    for pairing, (i, j) in enumerate(itertools.combinations(range(n), 2)):
        for k, opening in enumerate(openings):
            for swap in (0, 1):
                g = 2 * k + swap
                black, white = (j, i) if swap else (i, j)
                tasks.append(GameTask(len(tasks), pairing, g, black, white, tuple(opening),
                                      (seed, generation, pairing, g)))
    return tasks


def yardstick_tasks(champion: int, panel, openings, seed: int, generation: int) -> list[GameTask]:
    """The champion against each panel opponent, every opening with both colours."""
    tasks = []
    for p, spec in enumerate(panel):
        for k, opening in enumerate(openings):
            for swap in (0, 1):
                g = 2 * k + swap
                black, white = (spec, champion) if swap else (champion, spec)
                tasks.append(GameTask(len(tasks), p, g, black, white, tuple(opening),
                                      (seed, generation, YARDSTICK_STREAM + p, g)))
    return tasks


def play_tasks(context: Context, tasks: list[GameTask], game_registry=None) -> list[GameResult]:
    """Play ``tasks`` in order with fresh agents per game (no state leaks between games, so a
    game's result cannot depend on which worker played it or what it played before)."""
    from engine.games import get_game

    game = get_game(context.game)
    weights: dict[int, object] = {}
    results = []
    for task in tasks:
        ss = np.random.SeedSequence(list(task.seed))
        black_seed, white_seed, game_seed = ss.spawn(3)
        black = _agent(game, context, task.black, weights, black_seed)
        white = _agent(game, context, task.white, weights, white_seed)
        record = game.play(black, white, task.opening, game_seed)
        results.append(GameResult(task.index, int(record.black_discs), int(record.white_discs),
                                  int(record.black_score), str(record.winner)))
    return results


def _agent(game: Game, context: Context, who, cache: dict, seed):
    if isinstance(who, str):
        return game.make_panel_agent(who, context.search, seed=seed)
    if who not in cache:
        cache[who] = game.weights_from_genome(context.genomes[who], context.phase_bounds,
                                              context.symmetric, name=f"g{who}")
    return game.make_agent(cache[who], context.search, seed=seed)


@dataclass
class Standings:
    fitness: np.ndarray
    wins: np.ndarray
    draws: np.ndarray
    losses: np.ndarray


def score_round_robin(n: int, tasks, results, win: float, draw: float, loss: float) -> Standings:
    """Fitness = sum of points over all games (default +5 / 0 / -5)."""
    wins, draws, losses = (np.zeros(n, dtype=np.int64) for _ in range(3))
    for task, res in zip(tasks, results, strict=True):
        assert task.index == res.index
        if res.winner == "draw":
            draws[task.black] += 1
            draws[task.white] += 1
        else:
            black_won = res.winner == "black"
            winner, loser = (task.black, task.white) if black_won else (task.white, task.black)
            wins[winner] += 1
            losses[loser] += 1
    fitness = win * wins + draw * draws + loss * losses
    return Standings(fitness.astype(np.float64), wins, draws, losses)


def yardstick_scores(panel, champion: int, tasks, results) -> dict[str, float]:
    """Champion's score fraction against each panel opponent (win 1, draw 0.5)."""
    points = {spec: [] for spec in panel}
    for task, res in zip(tasks, results, strict=True):
        spec = task.white if task.black == champion else task.black
        champion_colour = "black" if task.black == champion else "white"
        won, drawn = res.winner == champion_colour, res.winner == "draw"
        points[spec].append(1.0 if won else 0.5 if drawn else 0.0)
    return {spec: float(np.mean(p)) for spec, p in points.items()}


def opening_text(opening) -> str:
    return " ".join(move_name(m) for m in opening)
