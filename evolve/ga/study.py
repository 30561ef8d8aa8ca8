"""One configured study and its generation loop. Reads like its pseudocode:

    population = initial population (seeded from reference genomes + scoped random)
    for each generation:
        score everyone by a round robin            (the problem: evolve.ga.tournament)
        champion = best; play it against the panel (the yardstick)
        population = breed(population, fitness)     (the algorithm: evolve.ga.population)
        hooks: CSVs, champion files, plot, log line; checkpoint (atomic, evolve.ga.state)
    exported champion = playoff among the last champions (evolve.ga.playoff)

Consecutive generations overlap on the workers: generation g's yardstick and generation g+1's
round robin are submitted (as futures) before generation g's outputs are written, so neither the
panel nor the plot waits on idle workers. Every game's seed is fixed by its task, so the overlap
never changes a result.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core.game import SearchSettings
from evolve.ga.cmaes import CmaSearch, population_of, rebuilt
from evolve.ga.config import Config, ConfigError, config_hash, make_game, to_dict
from evolve.ga.fitness import (
    FITNESS_GENERATION_OFFSET,
    opponent_tasks,
    opponents_for,
    score_mix,
)
from evolve.ga.hooks import (
    ChampionRecord,
    ChampionWriter,
    CsvLogger,
    FitnessPlot,
    GenerationReport,
    ProgressLog,
)
from evolve.ga.operators import diversity
from evolve.ga.playoff import choose_champion
from evolve.ga.population import Population, breed, gene_bounds, initial_population
from evolve.ga.progress import (
    Member,
    anchors_for,
    champion_rating,
    counts_by_opponent,
    diversity_groups,
    elite_score,
    hall_of_fame_score,
    joins,
)
from evolve.ga.sampled import sampled_tasks
from evolve.ga.schema import fitness_opponents
from evolve.ga.state import Snapshot, State, save, snapshot
from evolve.ga.tournament import (
    YARDSTICK_GENERATION_OFFSET,
    Context,
    openings_for,
    round_robin_tasks,
    yardstick_scores,
    yardstick_tasks,
)
from evolve.ga.validation import openings_error

log = logging.getLogger("evolve")
INIT_STREAM = 7  # SeedSequence([seed, INIT_STREAM]) drives initialisation and breeding


@dataclass
class RunResult:
    run_dir: Path
    champion: ChampionRecord
    generation: int  # last completed generation
    fitness: np.ndarray  # last generation's fitness
    yardstick: dict[str, float]



class Study:
    """One configured study: the game, the genome layout and the hooks."""

    def __init__(self, config: Config, run_dir: Path):
        self.config, self.run_dir = config, run_dir
        self.game = make_game(config)
        self.spec = self.game.genome_spec()
        self.bounds = gene_bounds(self.spec, config.ga.bound_scale)
        self.blocks = list(self.spec.blocks.values())
        self.search = SearchSettings(config.search.depth, config.search.endgame_empties)
        self.panel = list(config.yardstick.panel or self.game.default_panel) \
            if config.yardstick.enabled else []
        self.hash = config_hash(config)
        self.groups = list(diversity_groups(np.zeros((1, self.spec.size)), self.bounds,
                                            self.spec.blocks))
        self.cma = None  # the CMA-ES (``ga.algorithm=cmaes``), built or rebuilt on first use

    def new_cma(self) -> CmaSearch:
        refs = self.config.game.seed_references or self.game.seed_references
        return CmaSearch(self.config.seed, self.bounds, self.game.reference_genome(refs[0]),
                         self.config.ga.cma_sigma0, self.config.ga.population)

    def initial_state(self) -> State:
        ga = self.config.ga
        rng = np.random.default_rng(np.random.SeedSequence([self.config.seed, INIT_STREAM]))
        if ga.algorithm == "cmaes":
            self.cma = self.new_cma()
            return State(0, population_of(self.cma.ask(), 0), rng, ga.population, 0.0)
        refs = self.config.game.seed_references or self.game.seed_references
        genomes = {r: self.game.reference_genome(r) for r in refs}
        pop = initial_population(ga.population, genomes, self.bounds, rng, ga.seeded_fraction,
                                 ga.seed_noise, ga.random_scope)
        return State(0, pop, rng, ga.population, 0.0)

    def hooks(self, state: State) -> list:
        csv = CsvLogger(self.run_dir, self.game, list(self.spec.names), self.panel, self.groups)
        csv.resume(state.generation - 1)
        hooks = [csv, ChampionWriter(self.run_dir, self.game)]
        if self.config.plot:
            hooks.append(FitnessPlot(self.run_dir))
        if self.config.progress:
            hooks.append(ProgressLog(state.generation, state.elapsed))
        return hooks

    def loop(self, state: State, backend) -> RunResult:
        """Generation g is complete once its yardstick is in; its outputs and checkpoint are
        written after generation g+1's games have been submitted (see the module docstring)."""
        c, hooks = self.config, self.hooks(state)
        if state.generation >= c.ga.generations:  # resumed a finished run
            log.info("%s already ran all %d generations (raise ga.generations to continue)",
                     self.run_dir, c.ga.generations)
            return self.finished_result(state, backend)
        self._clock, previous = time.perf_counter(), None
        round_robin = self.submit_round_robin(backend, state.generation, state.population,
                                              state.hall_of_fame)
        for g in range(state.generation, c.ga.generations):
            report = self.score(g, state.population, *round_robin)
            self.next_population(state, report, g)
            # bred after the last generation too: the checkpoint then always holds the next
            # population, so a finished run can be continued with a larger ga.generations
            yardstick = self.submit_yardstick(backend, report, state.hall_of_fame)
            if g + 1 < c.ga.generations:
                round_robin = self.submit_round_robin(backend, g + 1, state.population,
                                                      state.hall_of_fame)
            if previous is not None:
                self.finish(*previous, state, hooks)
            previous = (report, yardstick, snapshot(state))
        last = self.finish(*previous, state, hooks)
        champion = self.playoff(backend, last.generation) or last.champion
        return RunResult(self.run_dir, champion, last.generation, last.standings.fitness,
                         last.yardstick)

    def playoff(self, backend, last_generation: int) -> ChampionRecord | None:
        """Choose the exported champion among the last generations' champions (see
        ``evolve.ga.playoff``); rewrites ``champion.json`` and writes ``playoff.csv``."""
        return choose_champion(self, backend, last_generation)

    def submit_round_robin(self, backend, g: int, pop: Population,
                           hall_of_fame: list[Member] = ()):
        """The fitness games: the round robin (unless its weight is 0), then every individual
        against the fixed opponents (``evolve.ga.fitness``)."""
        c, n = self.config, len(pop)
        tasks = []
        if c.fitness.population > 0:
            openings = self.openings("games.openings", g, c.games.openings)
            k = c.games.opponents_per_individual
            tasks = sampled_tasks(n, k, openings, c.seed, g) if k else \
                round_robin_tasks(n, openings, c.seed, g)
        opponents = opponents_for(c.fitness, fitness_opponents(c, self.game), list(hall_of_fame),
                                  g)
        mix = (len(tasks), opponents)
        players = opponents.players(n)
        if players:
            openings = self.openings("fitness.openings", FITNESS_GENERATION_OFFSET + g,
                                     c.fitness.openings)
            tasks += opponent_tasks(n, players, openings, c.seed, g, len(tasks), n * (n - 1) // 2)
        ctx = Context(c.game.name, c.game.settings, self.search, opponents.genomes(pop.genomes))
        return tasks, backend.submit(ctx, tasks), mix

    def submit_yardstick(self, backend, report: GenerationReport, hall_of_fame: list[Member]):
        """The champion of ``report``'s generation against every panel opponent and the hall
        of fame's anchors (their genomes follow the population's in the batch's context)."""
        if not self.panel:
            return None
        c, g, pop = self.config, report.generation, report.population
        anchors = anchors_for(hall_of_fame, g, c.yardstick.hall_of_fame_size)
        genomes = np.vstack([pop.genomes, *[np.array(m.genome)[None, :] for m in anchors]])
        indices = [len(pop) + k for k in range(len(anchors))]
        report.anchor_labels = {i: f"hof_gen{m.generation:04d}"
                                for i, m in zip(indices, anchors, strict=True)}
        ctx = Context(c.game.name, c.game.settings, self.search, genomes)
        openings = self.openings("yardstick.openings", YARDSTICK_GENERATION_OFFSET + g,
                                 c.yardstick.openings)
        tasks = yardstick_tasks(report.champion_index, [*self.panel, *indices], openings,
                                c.seed, g)
        return tasks, backend.submit(ctx, tasks)

    def next_population(self, state: State, report: GenerationReport, g: int) -> None:
        """The algorithm's half: GA breeding, or CMA-ES tell + ask."""
        c, fitness = self.config, report.standings.fitness
        if c.ga.algorithm == "cmaes":
            if self.cma is None:  # resumed: replay what the checkpoint says was told
                self.cma = rebuilt(self.new_cma(), state.told, state.population.genomes)
            self.cma.tell(fitness)
            state.told.append([float(f) for f in fitness])
            state.population = population_of(self.cma.ask(), state.next_id)
            state.next_id += c.ga.population
            return
        state.population = breed(state.population, fitness, state.rng, c.ga, self.bounds,
                                 self.blocks, g, state.next_id, report.diversity)
        state.next_id += c.ga.population - c.ga.elites

    def score(self, g: int, pop: Population, tasks, future, mix) -> GenerationReport:
        """The generation's report from its fitness games (yardstick still empty)."""
        c, results = self.config, future.result()
        standings = score_mix(len(pop), tasks, results, c.fitness, c.games, *mix)
        best = int(np.argmax(standings.fitness))  # ties: lowest index (elites come first)
        report = GenerationReport(g, c.ga.generations, pop, standings,
                                  list(zip(tasks, results, strict=True)), {}, [], best,
                                  self.champion(g, pop, best, standings.fitness[best]),
                                  diversity(pop.genomes, self.bounds), 0.0, 0.0,
                                  diversity_groups(pop.genomes, self.bounds, self.spec.blocks),
                                  elite_score(standings, c.ga.elites))
        report.fitness_labels = mix[1].labels(len(pop))
        return report

    def finish(self, report: GenerationReport, yardstick, snap: Snapshot, state: State,
               hooks) -> GenerationReport:
        """Wait for the yardstick, run the hooks and checkpoint ``snap``. A generation's wall
        time is the time since the previous one finished."""
        if yardstick is not None:
            self.add_yardstick(report, *yardstick)
        now = time.perf_counter()
        report.wall_seconds, self._clock = now - self._clock, now
        state.elapsed += report.wall_seconds
        report.elapsed = state.elapsed
        for hook in hooks:
            hook.on_generation(report)
        if report.joins_hall_of_fame:
            elo = report.champion_elo.elo if report.champion_elo else math.nan
            state.hall_of_fame.append(Member(report.generation,
                                             tuple(report.champion.genome.tolist()),
                                             elo if math.isfinite(elo) else None))
        save(self.run_dir, to_dict(self.config), report.generation, snap, state)
        return report

    def score_generation(self, g: int, pop: Population, backend) -> GenerationReport:
        """One generation on its own, round robin then yardstick (for benchmarks)."""
        report = self.score(g, pop, *self.submit_round_robin(backend, g, pop))
        yardstick = self.submit_yardstick(backend, report, [])
        if yardstick is not None:
            self.add_yardstick(report, *yardstick)
        return report

    def add_yardstick(self, report: GenerationReport, tasks, future) -> GenerationReport:
        """The champion's yardstick results: its score per panel agent, its Elo against the
        panel, its score against the hall of fame (``evolve.ga.progress``)."""
        results = future.result()
        report.yardstick = yardstick_scores(self.panel, report.champion_index, tasks, results)
        report.yardstick_games = list(zip(tasks, results, strict=True))
        counts = counts_by_opponent(report.champion_index, tasks, results)
        report.champion_elo = champion_rating(counts)
        report.hall_of_fame_score = hall_of_fame_score(counts)
        report.joins_hall_of_fame = joins(report.generation,
                                          self.config.yardstick.hall_of_fame_every, counts)
        return report

    def openings(self, key: str, generation: int, n: int) -> list:
        """``openings_for`` with a one-line error: generation 0 is checked at start, but a later
        generation's draw could still come up short when ``n`` is close to what exists."""
        g = self.config.games
        try:
            return openings_for(self.game, self.config.seed, generation, n, g.min_plies,
                                g.max_plies)
        except ValueError as exc:
            raise ConfigError(openings_error(key, n, g.min_plies, g.max_plies, exc)) from None

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
            record = self.playoff(backend, state.generation - 1) or record
        return RunResult(self.run_dir, record, state.generation - 1, np.array([]), {})
