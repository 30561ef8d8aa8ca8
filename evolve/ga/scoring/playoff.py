"""The exported champion, chosen by a playoff: the champions of the last generations play each
other and the yardstick panel, with more games than a generation's round robin gives them, and
the best total score wins (ties: the later generation). The last round robin alone ranks
near-clones partly by noise; this spends a little more CPU once, at the end.

Games are plain tasks like the round robin's, seeded from ``PLAYOFF_GENERATION`` slots, so the
choice depends only on the config, the seed and the champion files.
"""

from __future__ import annotations

import csv
import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core.game import Champion
from engine.core.matches.specs import Player
from evolve.arena.elo import elo_estimate
from evolve.ga.console import generations_text, progress_bar
from evolve.ga.context import StudyContext
from evolve.ga.run_files.hooks import ChampionRecord
from evolve.ga.scoring.tournament import (
    PLAYOFF_GENERATION,
    GameTask,
    round_robin_tasks,
    yardstick_tasks,
)

log = logging.getLogger("evolve")


@dataclass(frozen=True)
class Candidate:
    generation: int
    champion: object  # engine.core.Champion read back from champions/gen_XXXX.json


def candidates(run_dir: Path, game, last: int, count: int) -> list[Candidate]:
    """Distinct champions of generations ``last - count + 1 .. last`` (a genome that stayed
    champion over several generations takes part once, as its latest generation)."""
    found: dict[bytes, Candidate] = {}
    for g in range(max(0, last - count + 1), last + 1):
        path = run_dir / "champions" / f"gen_{g:04d}.json"
        if path.is_file():
            champion = game.load_champion(path)
            found[np.asarray(champion.genome, np.float64).tobytes()] = Candidate(g, champion)
    return sorted(found.values(), key=lambda c: c.generation)


def playoff_tasks(n: int, panel: list[Player], openings, seed: int,
                  generation: int) -> list[GameTask]:
    """Every pair of candidates and every candidate against every panel opponent, each opening
    with both colours; one batch, indexed in order."""
    tasks = round_robin_tasks(n, openings, seed, generation)
    for i in range(n):
        for t in yardstick_tasks(i, panel, openings, seed, generation + 1 + i):
            tasks.append(GameTask(len(tasks), t.pairing, t.game, t.first, t.second, t.opening,
                                  t.seed))
    return tasks


@dataclass(frozen=True)
class Standing:
    generation: int
    games: int
    score: float  # fraction of points over all its games
    panel_elo: float  # against the panel alone
    panel_elo_ci95: tuple[float, float]


def standings(pool: list[Candidate], tasks, results) -> list[Standing]:
    points = np.zeros(len(pool))
    games = np.zeros(len(pool), dtype=int)
    panel_counts = [[0, 0, 0] for _ in pool]  # losses, draws, wins against the panel
    for task, res in zip(tasks, results, strict=True):
        for side, who in enumerate((task.first, task.second)):
            if isinstance(who, str | Champion):  # a panel player
                continue
            p = res.points_for(side)
            points[who] += p
            games[who] += 1
            if isinstance((task.second, task.first)[side], str | Champion):
                panel_counts[who][int(2 * p)] += 1
    out = []
    for i, cand in enumerate(pool):
        losses, draws, wins = panel_counts[i]
        est = elo_estimate(wins, draws, losses) if sum(panel_counts[i]) else None
        out.append(Standing(cand.generation, int(games[i]),
                            float(points[i] / games[i]) if games[i] else 0.0,
                            est.elo if est else float("nan"),
                            (est.elo_low, est.elo_high) if est else (float("nan"),) * 2))
    return out


def winner(table: list[Standing]) -> int:
    """Index of the best score; ties go to the later generation."""
    return max(range(len(table)), key=lambda i: (table[i].score, table[i].generation))


def write_table(path: Path, table: list[Standing], chosen: int) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["generation", "games", "score", "panel_elo", "panel_elo_low",
                    "panel_elo_high", "chosen"])
        for i, s in enumerate(table):
            w.writerow([s.generation, s.games, s.score, s.panel_elo, *s.panel_elo_ci95,
                        int(i == chosen)])


def estimated_games(config, panel: list[str]) -> int:
    """Games of the playoff if every candidate is distinct (an upper bound, for the ETA)."""
    if not config.playoff.enabled:
        return 0
    n = min(config.playoff.generations, config.ga.generations)
    per_pairing = 2 * config.playoff.openings
    return (n * (n - 1) // 2 + n * len(panel)) * per_pairing if n > 1 else 0


PROGRESS_PARTS = 50  # with a progress bar, the games go out in about this many batches


def play(backend, context, tasks: list, bar) -> list:
    """Every task's result in task order. With a progress ``bar`` (tqdm) the tasks go to the
    backend in parts, all submitted at once so no worker idles; each game's seed is its task's,
    so the parts change no result."""
    if bar is None:
        return backend.submit(context, tasks).result()
    size = max(1, -(-len(tasks) // PROGRESS_PARTS))
    futures = [backend.submit(context, tasks[i:i + size]) for i in range(0, len(tasks), size)]
    results = []
    for future in futures:
        results += future.result()
        bar.update(len(future.tasks))
    return results


def choose_champion(ctx: StudyContext, backend, last_generation: int) -> ChampionRecord | None:
    """Play the playoff of the study ``ctx`` among the champions of the generations up to
    ``last_generation``; rewrite ``champion.json`` with the winner and write
    ``playoff.csv``. None when the playoff is off or has fewer than two candidates (the last
    generation's champion, already in ``champion.json``, is then the one exported)."""
    c, run_dir, panel = ctx.config, ctx.run_dir, ctx.panel
    if not c.playoff.enabled:
        return None
    pool = candidates(run_dir, ctx.game, last_generation, c.playoff.generations)
    first = max(0, last_generation - c.playoff.generations + 1)
    span = generations_text(last_generation - first + 1, first)
    if len(pool) < 2:
        log.info("no playoff: %s had one distinct champion, generation %d's, exported as it "
                 "is", span, last_generation)
        return None
    genomes = np.vstack([np.asarray(p.champion.genome, np.float64)[None, :] for p in pool])
    openings = ctx.openings("playoff.openings", PLAYOFF_GENERATION, c.playoff.openings)
    tasks = playoff_tasks(len(pool), panel, openings, c.seed, PLAYOFF_GENERATION)
    context = ctx.players(genomes)
    log.info("playoff: the %d distinct champions of %s (%s) play each other%s, %d games",
             len(pool), span, _listed(pool), " and the panel" if panel else "",
             len(tasks))
    bar = progress_bar(len(tasks), "playoff", c.progress)
    try:
        results = play(backend, context, tasks, bar)
    finally:
        if bar is not None:
            bar.close()
    table = standings(pool, tasks, results)
    i = winner(table)
    write_table(run_dir / "playoff.csv", table, i)
    chosen = pool[i].champion
    metadata = {**chosen.metadata, "selection": {
        "method": "playoff", "generation": pool[i].generation,
        "candidates": [p.generation for p in pool], "score": table[i].score,
        "games": table[i].games, "table": "playoff.csv"}}
    tmp = run_dir / ".champion.json.tmp"
    ctx.game.save_champion(tmp, chosen.genome, chosen.name, metadata)
    tmp.replace(run_dir / "champion.json")
    log.info("playoff: generation %d's champion wins (score %.3f over %d games; playoff.csv) "
             "and is exported as champion.json", pool[i].generation, table[i].score,
             table[i].games)
    return ChampionRecord(np.asarray(chosen.genome, np.float64), chosen.name, metadata)


def _listed(pool: list[Candidate]) -> str:
    return ", ".join(str(p.generation) for p in pool)
