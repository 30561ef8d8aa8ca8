"""Which games a match plays, in which order, on which backend.

Game ``k`` of a match uses opening ``k // 2`` with the sides swapped on odd ``k``, and its
agents' seeds come from ``SeedSequence([seed, match, k])``: results do not depend on the backend
or the number of workers (with a fixed depth; a time budget makes searches depend on the
machine's speed). Without an SPRT every game of every match goes to the backend at once (all
workers busy); with a stopping SPRT a match plays a few pairs at a time until the test decides.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from evolve.arena.elo import fit_elo
from evolve.arena.matches import EvalContext, EvalSettings, EvalTask
from evolve.arena.tally import Match, MatchResult
from evolve.execution.backends import RayConfig, make_backend
from evolve.execution.games import OPENINGS_STREAM

SPRT_BATCH_PAIRS = 8  # pairs played between two SPRT looks at the results (decision per pair)
PROGRESS_STEPS = 50  # with a progress bar, a batch goes to the backend in about this many parts


def openings(game, n_pairs: int, seed: int, min_plies: int = 4,
             max_plies: int = 8) -> list[tuple[int, ...]]:
    """The match openings: like the GA's ``tournament.openings_for`` but with no generation
    in the seed (so they are not a GA run's generation-0 openings for the same seed)."""
    ss = np.random.SeedSequence([seed, OPENINGS_STREAM])
    return [tuple(o) for o in game.random_openings(n_pairs, ss, min_plies, max_plies)]


def match_tasks(a: str, b: str, match: int, games: range, opening_list,
                seed: int) -> list[EvalTask]:
    """Games ``games`` of match ``match``: even k has ``a`` move first, odd k has ``b``."""
    tasks = []
    for k in games:
        first, second = (a, b) if k % 2 == 0 else (b, a)
        tasks.append(EvalTask(k, first, second, opening_list[k // 2], (seed, match, k)))
    return tasks


class Runner:
    """Evaluation games on the shared execution layer: ``runner(tasks) -> winners``.

    With a ``progress`` bar (anything with ``update(n)``, ``total`` and ``refresh()``, e.g.
    ``tqdm``) a batch is submitted in parts, all at once so every worker stays busy, and the
    bar moves as each part comes back. Every game is seeded on its own, so the parts do not
    change any result."""

    def __init__(self, settings: EvalSettings, backend, progress=None):
        self.context, self.backend, self.progress = EvalContext(settings), backend, progress
        self.game = self.context.game()

    def __call__(self, tasks: list[EvalTask]) -> list[int]:
        if self.progress is None:
            return self.backend.play(self.context, tasks)
        size = max(self.backend.workers, -(-len(tasks) // PROGRESS_STEPS))
        futures = [self.backend.submit(self.context, tasks[start:start + size])
                   for start in range(0, len(tasks), size)]
        winners = []
        for future in futures:
            winners += future.result()
            self.progress.update(len(future.tasks))
        return winners

    def skip(self, games: int) -> None:
        """``games`` that will not be played (an SPRT stopped its match): off the bar's total."""
        if self.progress is not None and games:
            self.progress.total -= games
            self.progress.refresh()


def open_backend(name: str, workers: int | None, address: str | None, game: str,
                 game_settings: dict | None = None, runtime_env: dict | None = None):
    """The backend training uses (``evolve.execution``): warm Ray actors, ``ray.address``."""
    from evolve.execution.games import warm_up

    if workers is not None and workers < 1:  # ray.init(num_cpus=0) would wait forever
        raise ValueError(f"--workers must be >= 1, got {workers}")
    ray_cfg = RayConfig(address=address, num_cpus=None if address else workers,
                        workers=workers, chunks_per_worker=4, runtime_env=runtime_env or {})
    warm = functools.partial(warm_up, game, game_settings or {})
    return make_backend(name, ray_cfg, warm_up=warm)


def play_sequential(runner, match: Match, index: int, n_games: int, opening_list, seed: int):
    """SPRT with stopping: batches of pairs until the test decides; games of the last batch
    after the deciding pair are discarded, so the result does not depend on the batch size."""
    a, b = match.result.player, match.result.opponent
    batch = 2 * SPRT_BATCH_PAIRS
    for start in range(0, n_games, batch):
        games = range(start, min(n_games, start + batch))
        tasks = match_tasks(a, b, index, games, opening_list, seed)
        for task, winner in zip(tasks, runner(tasks), strict=True):
            if match.record(task, winner):
                runner.skip(n_games - games.stop)
                return match.finish()
    return match.finish()


def play_all(runner, matches: list[Match], n_games: int, opening_list,
             seed: int) -> list[MatchResult]:
    """Every game of every match in one batch (keeps all workers busy); an SPRT, if any, is
    still evaluated pair by pair in game order and reports where it would have stopped."""
    tasks = []
    for index, match in enumerate(matches):  # the match index seeds its games
        r = match.result
        tasks.append(match_tasks(r.player, r.opponent, index, range(n_games), opening_list, seed))
    winners = iter(runner([t for ts in tasks for t in ts]))
    for match, ts in zip(matches, tasks, strict=True):
        for task in ts:
            match.record(task, next(winners))
    return [m.finish() for m in matches]


def evaluate(player: str, opponents: list[str], settings: EvalSettings, games: int, seed: int,
             runner, sprt_elo=None, alpha=0.05, beta=0.05, stop=True) -> list[MatchResult]:
    """``player`` against each opponent, ``games`` (rounded up to even) games each.

    With ``sprt_elo`` and ``stop`` each match ends as soon as the SPRT accepts H0 or H1;
    with ``stop=False`` all games are played and the SPRT's stopping point is reported.
    """
    games = games + games % 2
    opening_list = openings(runner.game, games // 2, seed)
    matches = [Match(player, opp, sprt_elo, alpha, beta) for opp in opponents]
    if sprt_elo is not None and stop:
        return [play_sequential(runner, m, i, games, opening_list, seed)
                for i, m in enumerate(matches)]
    return play_all(runner, matches, games, opening_list, seed)


def round_robin(players: list[str], settings: EvalSettings, games: int, seed: int, runner):
    """Every pair plays ``games`` games (same openings for all pairs); returns (matches, elo,
    score, played) with ``score[i, j]`` the points i took from j."""
    games = games + games % 2
    opening_list = openings(runner.game, games // 2, seed)
    n = len(players)
    pairs = list(itertools.combinations(range(n), 2))
    matches = [Match(players[i], players[j]) for i, j in pairs]
    results = play_all(runner, matches, games, opening_list, seed)
    score, played = np.zeros((n, n)), np.zeros((n, n))
    for (i, j), res in zip(pairs, results, strict=True):
        score[i, j], score[j, i] = res.wins + res.draws / 2, res.losses + res.draws / 2
        played[i, j] = played[j, i] = res.games
    return results, fit_elo(score, played), score, played
