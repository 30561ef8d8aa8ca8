"""The generation loop. Reads like its pseudocode:

    population = initial population (seeded from reference genomes + scoped random)
    for each generation:
        score everyone by a round robin            (the problem: evolve.ga.tournament)
        champion = best; play it against the panel (the yardstick)
        population = breed(population, fitness)     (the algorithm: evolve.ga.population)
        hooks: CSVs, champion files, plot, log line; checkpoint (atomic)

Consecutive generations overlap on the workers: generation g's yardstick and generation g+1's
round robin are submitted (as futures) before generation g's outputs are written, so neither the
panel nor the plot waits on idle workers. Every game's seed is fixed by its task, so the overlap
never changes a result.
"""

from __future__ import annotations

import functools
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine.core.game import SearchSettings
from evolve.execution.backends import make_backend
from evolve.ga import checkpoint as ckpt
from evolve.ga.cmaes import CmaSearch, population_of, rebuilt
from evolve.ga.config import (
    PLAYOFF_GENERATION,
    YARDSTICK_GENERATION_OFFSET,
    Config,
    ConfigError,
    config_hash,
    fitness_opponents,
    make_game,
    openings_error,
    to_config,
    to_dict,
)
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
from evolve.ga.playoff import candidates, playoff_tasks, standings, winner, write_table
from evolve.ga.population import Population, breed, gene_bounds, initial_population
from evolve.ga.progress import (
    Member,
    anchors_for,
    champion_rating,
    counts_by_opponent,
    diversity_groups,
    elite_score,
    joins,
)
from evolve.ga.resume import command_line_keys, merged_config
from evolve.ga.sampled import sampled_tasks
from evolve.ga.tournament import (
    Context,
    openings_for,
    round_robin_tasks,
    warm_up,
    yardstick_scores,
    yardstick_tasks,
)

log = logging.getLogger("evolve")
INIT_STREAM = 7  # SeedSequence([seed, INIT_STREAM]) drives initialisation and breeding


@dataclass
class RunResult:
    run_dir: Path
    champion: ChampionRecord
    generation: int  # last completed generation
    fitness: np.ndarray  # last generation's fitness
    yardstick: dict[str, float]


@dataclass
class State:
    generation: int  # next generation to score
    population: Population
    rng: np.random.Generator
    next_id: int
    elapsed: float
    hall_of_fame: list[Member] = field(default_factory=list)
    told: list[list[float]] = field(default_factory=list)  # CMA-ES: fitness per generation


def run(cfg, run_dir: str | Path | None = None, backend=None) -> RunResult:
    """Run (or resume) a study; ``cfg`` is a composed Hydra config, a dict or a ``Config``."""
    config = to_config(cfg)
    if config.resume:
        config, state, run_dir = _resume(config)
    else:
        run_dir = Path(run_dir or _hydra_output_dir())
        state = None
    run_dir.mkdir(parents=True, exist_ok=True)
    study = Study(config, run_dir)
    state = state or study.initial_state()
    backend = backend or study_backend(config)
    try:
        return study.loop(state, backend)
    finally:
        backend.close()


def study_backend(config: Config, crash_flag: str | None = None):
    """The configured backend, its Ray actors warmed up on this study's game."""
    warm = functools.partial(warm_up, config.game.name, config.game.settings)
    return make_backend(config.backend, config.ray, warm_up=warm, crash_flag=crash_flag)


def _hydra_output_dir() -> str:
    try:
        from hydra.core.hydra_config import HydraConfig

        return HydraConfig.get().runtime.output_dir
    except ValueError:  # not running under @hydra.main
        return "."


def _resume(current: Config) -> tuple[Config, State, Path]:
    """The saved config wins; the command line may change only where the run executes and may
    raise ``ga.generations`` (see ``evolve.ga.resume``)."""
    run_dir = Path(current.resume)
    try:
        saved = ckpt.load(run_dir)
    except ckpt.CheckpointError as exc:
        raise ConfigError(f"resume={current.resume}: {exc}") from None
    config = merged_config(saved.config, current, command_line_keys(current))
    finished = saved.generation + 1 >= saved.config["ga"]["generations"]
    if finished and not saved.next_bred and config.ga.generations > saved.generation + 1:
        raise ConfigError(f"resume={current.resume}: this checkpoint (written by an older "
                          f"version) cannot be extended to ga.generations="
                          f"{config.ga.generations}")
    state = State(saved.generation + 1, saved.population, ckpt.restore_rng(saved.rng_state),
                  saved.next_id, saved.elapsed,
                  [Member(m["generation"], tuple(m["genome"]), m["elo"])
                   for m in saved.hall_of_fame],
                  list(saved.algorithm_state.get("told", [])))
    log.info("resuming %s after generation %d (backend %s)", run_dir, saved.generation + 1,
             config.backend)
    return config, state, run_dir


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
            previous = (report, yardstick, self.snapshot(state))
        last = self.finish(*previous, state, hooks)
        champion = self.playoff(backend, last.generation) or last.champion
        return RunResult(self.run_dir, champion, last.generation, last.standings.fitness,
                         last.yardstick)

    def playoff(self, backend, last_generation: int) -> ChampionRecord | None:
        """Choose the exported champion among the last generations' champions (see
        ``evolve.ga.playoff``); rewrites ``champion.json`` and writes ``playoff.csv``."""
        c = self.config
        if not c.playoff.enabled:
            return None
        pool = candidates(self.run_dir, self.game, last_generation, c.playoff.generations)
        if not pool:
            return None
        genomes = np.vstack([np.asarray(p.champion.genome, np.float64)[None, :] for p in pool])
        openings = self.openings("playoff.openings", PLAYOFF_GENERATION, c.playoff.openings)
        tasks = playoff_tasks(len(pool), self.panel, openings, c.seed, PLAYOFF_GENERATION)
        context = Context(c.game.name, c.game.settings, self.search, genomes)
        results = backend.submit(context, tasks).result() if tasks else []
        table = standings(pool, tasks, results)
        i = winner(table)
        write_table(self.run_dir / "playoff.csv", table, i)
        chosen = pool[i].champion
        metadata = {**chosen.metadata, "selection": {
            "method": "playoff", "generation": pool[i].generation,
            "candidates": [p.generation for p in pool], "score": table[i].score,
            "games": table[i].games, "table": "playoff.csv"}}
        tmp = self.run_dir / ".champion.json.tmp"
        self.game.save_champion(tmp, chosen.genome, chosen.name, metadata)
        tmp.replace(self.run_dir / "champion.json")
        log.info("playoff among the champions of generations %s: generation %d's wins "
                 "(score %.3f over %d games)", [p.generation for p in pool],
                 pool[i].generation, table[i].score, table[i].games)
        return ChampionRecord(np.asarray(chosen.genome, np.float64), chosen.name, metadata)

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
        ratings = {i: m.elo for i, m in zip(indices, anchors, strict=True)}
        return tasks, backend.submit(ctx, tasks), ratings

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

    def snapshot(self, state: State) -> tuple:
        """What the checkpoint of a finished generation holds: the next population, the RNG
        right after breeding it, the next free id (taken before breeding any further) and the
        algorithm's state (CMA-ES: the fitness told so far)."""
        told = {"told": [list(f) for f in state.told]} if state.told else {}
        return state.population, state.rng.bit_generator.state, state.next_id, told

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

    def finish(self, report: GenerationReport, yardstick, snapshot: tuple, state: State,
               hooks) -> GenerationReport:
        """Wait for the yardstick, run the hooks and checkpoint ``snapshot``. A generation's
        wall time is the time since the previous one finished."""
        if yardstick is not None:
            self.add_yardstick(report, *yardstick)
        now = time.perf_counter()
        report.wall_seconds, self._clock = now - self._clock, now
        state.elapsed += report.wall_seconds
        report.elapsed = state.elapsed
        for hook in hooks:
            hook.on_generation(report)
        elo = report.champion_elo
        if elo is not None and joins(report.generation, self.config.yardstick.hall_of_fame_every,
                                     elo.elo):
            state.hall_of_fame.append(Member(report.generation,
                                             tuple(report.champion.genome.tolist()), elo.elo))
        population, rng_state, next_id, algorithm_state = snapshot
        ckpt.save(self.run_dir, ckpt.Checkpoint(
            to_dict(self.config), report.generation, next_id, population, rng_state,
            state.elapsed, hall_of_fame=[m.as_dict() for m in state.hall_of_fame],
            algorithm_state=algorithm_state))
        return report

    def score_generation(self, g: int, pop: Population, backend) -> GenerationReport:
        """One generation on its own, round robin then yardstick (for benchmarks)."""
        report = self.score(g, pop, *self.submit_round_robin(backend, g, pop))
        yardstick = self.submit_yardstick(backend, report, [])
        if yardstick is not None:
            self.add_yardstick(report, *yardstick)
        return report

    def add_yardstick(self, report: GenerationReport, tasks, future,
                      ratings: dict) -> GenerationReport:
        results = future.result()
        report.yardstick = yardstick_scores(self.panel, report.champion_index, tasks, results)
        report.yardstick_games = list(zip(tasks, results, strict=True))
        counts = counts_by_opponent(report.champion_index, tasks, results)
        report.champion_elo = champion_rating(counts, ratings)
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
