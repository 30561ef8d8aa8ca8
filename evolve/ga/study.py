"""One configured study and its generation loop. Reads like its pseudocode:

    population = initial population (seeded from reference genomes + scoped random)
    for each generation:
        (ga.local_search=td) each learner learns by TD self-play (evolve.ga.local_search)
        score everyone by a round robin            (the problem: evolve.ga.scoring.tournament)
        champion = best; play it against the panel (the yardstick)
        population = algorithm.advance(population, fitness)  (the GA, CMA-ES or the ES:
                                                               evolve.ga.algorithms)
        hooks: CSVs, champion files, plot, log line; checkpoint (atomic, evolve.ga.state)
    exported champion = playoff among the last champions (evolve.ga.scoring.playoff)

Consecutive generations overlap on the workers: generation g's yardstick and generation g+1's
round robin are submitted (as futures) before generation g's outputs are written, so neither the
panel nor the plot waits on idle workers. Every game's seed is fixed by its task, so the overlap
never changes a result.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from evolve.ga import algorithms, local_search
from evolve.ga.configuration.config import Config, ResolvedConfig, config_hash, to_dict
from evolve.ga.console import ProgressLog, generations_text, legend
from evolve.ga.context import StudyContext
from evolve.ga.operators import diversity
from evolve.ga.population import Population
from evolve.ga.run_files.figure import FitnessPlot
from evolve.ga.run_files.hooks import ChampionRecord, ChampionWriter, CsvLogger, GenerationReport
from evolve.ga.run_files.objective import Objective, write_objective
from evolve.ga.scoring import yardstick
from evolve.ga.scoring.fitness import (
    FITNESS_GENERATION_OFFSET,
    Opponents,
    opponent_tasks,
    opponents_for,
    score_mix,
)
from evolve.ga.scoring.playoff import choose_champion, estimated_games
from evolve.ga.scoring.progress import Member, diversity_groups, elite_score
from evolve.ga.scoring.sampled import sampled_tasks
from evolve.ga.scoring.tournament import round_robin_tasks
from evolve.ga.state import Snapshot, State, save, snapshot

log = logging.getLogger("evolve")
INIT_STREAM = 7  # SeedSequence([seed, INIT_STREAM]) drives initialisation and breeding


@dataclass(frozen=True)
class RunResult:
    run_dir: Path
    champion: ChampionRecord
    generation: int  # last completed generation
    fitness: np.ndarray  # last generation's fitness
    yardstick: dict[str, float]
    config: Config | None = None
    panel: list[str] = field(default_factory=list)
    objective: Objective | None = None  # what a sweeper optimises (objective.json)


@dataclass(frozen=True)
class FitnessGames:
    """A generation's submitted fitness games: the round robin's ``round_robin`` tasks first,
    then the games against the fixed ``opponents``."""

    tasks: list
    future: object  # the backend's future of the games' results
    round_robin: int
    opponents: Opponents


@dataclass(frozen=True)
class Pending:
    """A generation scored and bred whose yardstick games are still out: what ``finish``
    needs to write its outputs and checkpoint it."""

    report: GenerationReport
    yardstick: yardstick.YardstickGames | None
    snapshot: Snapshot


class Study:
    """One configured study (a ``ResolvedConfig``: the config, its game, genome layout, bounds
    and panel) and its hooks; its helpers see it as a ``StudyContext``. ``started``: the
    ``time.monotonic()`` this process started at (the log's elapsed time counts from it)."""

    def __init__(self, resolved: ResolvedConfig, run_dir: Path, started: float | None = None):
        self.ctx = StudyContext(resolved, run_dir)
        self.config, self.run_dir = resolved.config, run_dir
        self.started = time.monotonic() if started is None else started
        self.game, self.spec, self.bounds = resolved.game, resolved.spec, resolved.bounds
        # the panel's labels: what the outputs and the log name (the tasks take ``ctx.panel``)
        self.search, self.panel = self.ctx.search, self.ctx.panel_labels
        self.hash = config_hash(self.config)
        self.groups = list(diversity_groups(np.zeros((1, self.spec.size)), self.bounds,
                                            self.spec.blocks))
        # the GA, CMA-ES or the ES (``ga.algorithm``; ``evolve.ga.algorithms``): made by
        # ``initial_state``, or remade from the checkpoint on a resumed run's first use
        self.algorithm: algorithms.Algorithm | None = None

    def initial_state(self) -> State:
        """Generation 0's population (before any local search: ``loop`` runs it)."""
        ga = self.config.ga
        rng = np.random.default_rng(np.random.SeedSequence([self.config.seed, INIT_STREAM]))
        learns = ga.local_search != "none"
        self.algorithm = algorithms.new(self.ctx, rng)
        first = self.algorithm.first(0)
        return State(0, first, rng, ga.population, 0.0, needs_learning=learns,
                     algorithm_state=self.algorithm.state() if learns else {})

    def hooks(self, state: State) -> list:
        csv = CsvLogger(self.run_dir, self.game, list(self.spec.names), self.panel, self.groups,
                        self.ctx.label)
        csv.resume(state.generation - 1)
        hooks = [csv, ChampionWriter(self.run_dir, self.game)]
        if self.config.plot:
            hooks.append(FitnessPlot(self.run_dir))
        if self.config.progress:
            hooks.append(ProgressLog(self.config.ga.generations,
                                     estimated_games(self.config, self.panel)))
        if self.config.tracking.backend == "mlflow":  # MLflow is imported only then
            from evolve.ga.run_files.tracking import MlflowTracker

            hooks.append(MlflowTracker(self.config, self.run_dir))
        return hooks

    def loop(self, state: State, backend) -> RunResult:
        """Generation g is complete once its yardstick is in; its outputs and checkpoint are
        written after generation g+1's games have been submitted (see the module docstring)."""
        c, hooks = self.config, self.hooks(state)
        if state.generation >= c.ga.generations:  # resumed a finished run
            log.info("%s already ran %s (raise ga.generations to continue)", self.run_dir,
                     generations_text(c.ga.generations))
            return self.ended(self.finished_result(state, backend), hooks)
        self._clock, pending = time.perf_counter(), None
        if state.needs_learning:
            state.population = local_search.learn(self.ctx, backend, state.population,
                                                  state.generation)
            state.needs_learning = False
        fitness_games = self.submit_fitness_games(backend, state.generation, state.population,
                                                  state.hall_of_fame)
        if c.progress:
            log.info(legend(c, self.panel))
            log.info("playing generation %d: %d fitness games%s", state.generation,
                     len(fitness_games.tasks), ", then the champion against the panel"
                     if self.panel else "")
        for g in range(state.generation, c.ga.generations):
            report = self.score(g, state.population, fitness_games)
            self.next_population(state, report)
            # bred after the last generation too: the checkpoint then always holds the next
            # population, so a finished run can be continued with a larger ga.generations
            games = yardstick.submit(self.ctx, backend, report, state.hall_of_fame)
            state.population = local_search.learn(self.ctx, backend, state.population, g + 1)
            if g + 1 < c.ga.generations:
                fitness_games = self.submit_fitness_games(backend, g + 1, state.population,
                                                          state.hall_of_fame)
            if pending is not None:
                self.finish(pending, state, hooks)
            pending = Pending(report, games, snapshot(state))
        last = self.finish(pending, state, hooks)
        champion = choose_champion(self.ctx, backend, last.generation) or last.champion
        return self.ended(RunResult(self.run_dir, champion, last.generation,
                                    last.standings.fitness, last.yardstick, c, self.panel), hooks)

    def ended(self, result: RunResult, hooks) -> RunResult:
        """The run's objective (``objective.json``), then the hooks' end of the run (the
        tracker's files)."""
        result = replace(result, objective=write_objective(self.run_dir, self.config,
                                                           result.champion, result.generation))
        for hook in hooks:
            if hasattr(hook, "on_run_end"):
                hook.on_run_end(result)
        return result

    def submit_fitness_games(self, backend, g: int, pop: Population,
                             hall_of_fame: list[Member] = ()) -> FitnessGames:
        """The fitness games: the round robin (unless its weight is 0), then every individual
        against the fixed opponents (``evolve.ga.scoring.fitness``)."""
        c, n = self.config, len(pop)
        tasks = []
        if c.fitness.population > 0:
            openings = self.ctx.openings("games.openings", g, c.games.openings)
            k = c.games.opponents_per_individual
            tasks = sampled_tasks(n, k, openings, c.seed, g) if k else \
                round_robin_tasks(n, openings, c.seed, g)
        opponents = opponents_for(c.fitness, list(self.ctx.resolved.opponents),
                                  list(hall_of_fame), g)
        round_robin = len(tasks)
        players = opponents.players(n)
        if players:
            openings = self.ctx.openings("fitness.openings", FITNESS_GENERATION_OFFSET + g,
                                         c.fitness.openings)
            tasks += opponent_tasks(n, players, openings, c.seed, g, len(tasks), n * (n - 1) // 2)
        future = backend.submit(self.ctx.players(opponents.genomes(pop.genomes)), tasks)
        return FitnessGames(tasks, future, round_robin, opponents)

    def next_population(self, state: State, report: GenerationReport) -> None:
        """The algorithm's half: tell it the generation's fitness, ask for the next
        population."""
        g = report.generation
        if self.algorithm is None:  # resumed: remade from what the checkpoint says
            self.algorithm = algorithms.resumed(self.ctx, state.rng, state.algorithm_state, g,
                                                state.population.genomes)
        state.population = self.algorithm.advance(g, report.population,
                                                  report.standings.fitness, state.next_id)
        state.algorithm_state = self.algorithm.state()
        state.next_id += self.algorithm.new_per_generation

    def score(self, g: int, pop: Population, fitness_games: FitnessGames) -> GenerationReport:
        """The generation's report from its fitness games (yardstick still out)."""
        c, tasks, results = self.config, fitness_games.tasks, fitness_games.future.result()
        standings = score_mix(len(pop), tasks, results, c.fitness, c.games,
                              fitness_games.round_robin, fitness_games.opponents)
        best = int(np.argmax(standings.fitness))  # ties: lowest index (elites come first)
        return GenerationReport(
            generation=g, generations=c.ga.generations, population=pop, standings=standings,
            games=list(zip(tasks, results, strict=True)),
            fitness_labels=fitness_games.opponents.labels(len(pop)), champion_index=best,
            champion=self.champion(g, pop, best, standings.fitness[best]),
            diversity=diversity(pop.genomes, self.bounds),
            diversity_groups=diversity_groups(pop.genomes, self.bounds, self.spec.blocks),
            elite_score=elite_score(standings, c.ga.elites))

    def finish(self, pending: Pending, state: State, hooks) -> GenerationReport:
        """Wait for the yardstick games, run the hooks and checkpoint the snapshot. A
        generation's wall time is the time since the previous one finished; the elapsed time
        counts from the start of the process (plus earlier processes of a resumed run)."""
        report = pending.report
        if pending.yardstick is not None:
            report = yardstick.collect(self.ctx, report, pending.yardstick)
        now = time.perf_counter()
        report = replace(report, wall_seconds=now - self._clock,
                         elapsed=state.elapsed + time.monotonic() - self.started)
        self._clock = now
        for hook in hooks:
            hook.on_generation(report)
        if report.joins_hall_of_fame:
            elo = report.champion_elo.elo if report.champion_elo else math.nan
            state.hall_of_fame.append(Member(report.generation,
                                             tuple(report.champion.genome.tolist()),
                                             elo if math.isfinite(elo) else None))
        save(self.run_dir, to_dict(self.config), report.generation, pending.snapshot, state,
             report.elapsed)
        return report

    def score_generation(self, g: int, pop: Population, backend) -> GenerationReport:
        """One generation on its own, fitness games then yardstick (for benchmarks)."""
        report = self.score(g, pop, self.submit_fitness_games(backend, g, pop))
        games = yardstick.submit(self.ctx, backend, report, [])
        return yardstick.collect(self.ctx, report, games) if games else report

    def champion(self, g: int, pop: Population, best: int, fitness: float) -> ChampionRecord:
        c = self.config
        metadata = {
            "provenance": {"run_dir": str(self.run_dir.resolve()), "generation": g,
                           "seed": c.seed, "config_hash": self.hash, "fitness": float(fitness),
                           "individual_id": int(pop.ids[best])},
            "search": self.search.to_dict(),
            "selection": {"method": "round_robin", "generation": g},
        }
        return ChampionRecord(pop.genomes[best].copy(),
                              f"{c.game.name}-gen{g:04d}-id{int(pop.ids[best])}", metadata)

    def finished_result(self, state: State, backend) -> RunResult:
        """A resumed run that had played every generation: only the playoff may be missing
        (killed during it)."""
        champion = self.game.load_champion(self.run_dir / "champion.json")
        record = ChampionRecord(champion.genome, champion.name, champion.metadata)
        if self.config.playoff.enabled and \
                champion.metadata.get("selection", {}).get("method") != "playoff":
            record = choose_champion(self.ctx, backend, state.generation - 1) or record
        return RunResult(self.run_dir, record, state.generation - 1, np.array([]), {},
                         self.config, self.panel)
