"""The generation loop. Reads like its pseudocode:

    population = initial population (seeded from reference weights + scoped random)
    for each generation:
        score everyone by a round robin            (the problem: evolve.tournament)
        champion = best; play it against the panel (the yardstick)
        hooks: CSVs, champion files, plot, log line
        population = breed(population, fitness)     (the algorithm: evolve.population)
        checkpoint (atomic)

On the workers consecutive generations overlap a little (``Study.loop``): the yardstick of one
generation is played together with the next round robin, and outputs are written while the
next games run. Every game's seed is fixed by its task, so the overlap never changes a result.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.games import SearchSettings, get_game
from evolve import checkpoint as ckpt
from evolve.config import (
    YARDSTICK_GENERATION_OFFSET,
    Config,
    ConfigError,
    config_hash,
    openings_error,
    phase_bounds,
    to_config,
    to_dict,
)
from evolve.execution import make_backend
from evolve.operators import diversity
from evolve.outputs import ChampionWriter, CsvLogger, FitnessPlot, GenerationReport, ProgressLog
from evolve.population import Population, breed, gene_bounds, initial_population
from evolve.resume import command_line_keys, merged_config
from evolve.tournament import (
    Context,
    openings_for,
    round_robin_tasks,
    score_round_robin,
    yardstick_scores,
    yardstick_tasks,
)

log = logging.getLogger("evolve")
INIT_STREAM = 7  # SeedSequence([seed, INIT_STREAM]) drives initialisation and breeding


@dataclass
class RunResult:
    run_dir: Path
    champion: object  # engine.reversi.weights.Weights
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
    backend = backend or make_backend(config)
    try:
        return study.loop(state, backend)
    finally:
        backend.close()


def _hydra_output_dir() -> str:
    try:
        from hydra.core.hydra_config import HydraConfig

        return HydraConfig.get().runtime.output_dir
    except ValueError:  # not running under @hydra.main
        return "."


def _resume(current: Config) -> tuple[Config, State, Path]:
    """The saved config wins; the command line may change only where the run executes and may
    raise ``ga.generations`` (see ``evolve.resume``)."""
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
                  saved.next_id, saved.elapsed)
    log.info("resuming %s after generation %d (backend %s)", run_dir, saved.generation + 1,
             config.backend)
    return config, state, run_dir


class Study:
    """One configured study: the game, the genome layout and the hooks."""

    def __init__(self, config: Config, run_dir: Path):
        self.config, self.run_dir = config, run_dir
        self.game = get_game(config.game.name)
        self.phase_bounds = phase_bounds(config.ga)
        self.layout = self.game.layout(len(self.phase_bounds) + 1, config.ga.symmetric)
        self.bounds = gene_bounds(self.layout, config.ga.bound_scale)
        self.blocks = list(self.layout.blocks.values())
        self.search = SearchSettings(config.search.depth, config.search.endgame_empties)
        self.panel = list(config.yardstick.panel or self.game.default_panel) \
            if config.yardstick.enabled else []
        self.hash = config_hash(config)

    def initial_state(self) -> State:
        ga = self.config.ga
        rng = np.random.default_rng(np.random.SeedSequence([self.config.seed, INIT_STREAM]))
        refs = self.config.game.seed_references or self.game.seed_references
        genomes = {r: self.game.reference_genome(r, self.phase_bounds, ga.symmetric)
                   for r in refs}
        pop = initial_population(ga.population, genomes, self.bounds, rng, ga.seeded_fraction,
                                 ga.seed_noise, ga.random_scope)
        return State(0, pop, rng, ga.population, 0.0)

    def hooks(self, state: State) -> list:
        csv = CsvLogger(self.run_dir, self.layout.names, self.panel)
        csv.resume(state.generation - 1)
        hooks = [csv, ChampionWriter(self.run_dir)]
        if self.config.plot:
            hooks.append(FitnessPlot(self.run_dir))
        if self.config.progress:
            hooks.append(ProgressLog(state.generation, state.elapsed))
        return hooks

    def loop(self, state: State, backend) -> RunResult:
        """Keeps the workers busy between generations. Generation g's yardstick games go out
        with generation g+1's round robin (breeding needs only the round robin), and each batch
        is submitted before the finished generation's hooks and checkpoint run, so neither the
        panel nor the plot waits on idle workers. Results do not depend on this overlap: every
        game's seed is fixed by its task."""
        c, hooks = self.config, self.hooks(state)
        if state.generation >= c.ga.generations:  # resumed a finished run
            log.info("%s already ran all %d generations (raise ga.generations to continue)",
                     self.run_dir, c.ga.generations)
            return self.finished_result(state)
        self._clock, last, waiting = time.perf_counter(), None, None
        rr = self.round_robin_batch(state.generation, state.population)
        job = backend.submit([rr])
        for g in range(state.generation, c.ga.generations):
            results, ready = backend.collect(job), None
            if waiting is not None:  # the previous generation's yardstick is in
                ready = self.add_yardstick(*waiting, results[0]), self.snapshot(state)
            report, yard = self.score(g, state.population, rr, results[-1])
            # bred after the last generation too: the checkpoint then always holds the next
            # population, so a finished run can be continued with a larger ga.generations
            state.population = breed(state.population, report.standings.fitness, state.rng,
                                     c.ga, self.bounds, self.blocks, g, state.next_id)
            state.next_id += c.ga.population - c.ga.elites
            waiting = (report, yard) if yard[1] else None
            if waiting is None:  # no panel: this generation is complete
                ready = report, self.snapshot(state)
            rr = self.round_robin_batch(g + 1, state.population) \
                if g + 1 < c.ga.generations else None
            batches = [b for b in (yard if yard[1] else None, rr) if b is not None]
            job = backend.submit(batches) if batches else None
            if ready is not None:
                last = self.finish(*ready, state, hooks)  # while the workers play `job`
        if waiting is not None:
            report = self.add_yardstick(*waiting, backend.collect(job)[0])
            last = self.finish(report, self.snapshot(state), state, hooks)
        return RunResult(self.run_dir, last.champion, last.generation, last.standings.fitness,
                         last.yardstick)

    def snapshot(self, state: State) -> tuple:
        """What the checkpoint of a finished generation holds: the next population, the RNG
        right after breeding it and the next free id (taken before breeding any further)."""
        return state.population, state.rng.bit_generator.state, state.next_id

    def round_robin_batch(self, g: int, pop: Population) -> tuple[Context, list]:
        c = self.config
        ctx = Context(c.game.name, self.search, pop.genomes, self.phase_bounds, c.ga.symmetric)
        openings = self.openings("games.openings", g, c.games.openings)
        return ctx, round_robin_tasks(len(pop), openings, c.seed, g)

    def score(self, g: int, pop: Population, batch, results) -> tuple[GenerationReport, tuple]:
        """The generation's report (yardstick still empty) and its champion's panel games."""
        c, (ctx, tasks) = self.config, batch
        standings = score_round_robin(len(pop), tasks, results, c.games.win, c.games.draw,
                                      c.games.loss)
        best = int(np.argmax(standings.fitness))  # ties: lowest index (elites come first)
        champion = self.champion_weights(g, pop, best, standings.fitness[best])
        report = GenerationReport(g, c.ga.generations, pop, standings,
                                  list(zip(tasks, results, strict=True)), {}, [], best, champion,
                                  diversity(pop.genomes, self.bounds), 0.0, 0.0)
        return report, (ctx, self.yardstick_tasks(g, best))

    def yardstick_tasks(self, g: int, best: int) -> list:
        if not self.panel:
            return []
        c = self.config
        openings = self.openings("yardstick.openings", YARDSTICK_GENERATION_OFFSET + g,
                                 c.yardstick.openings)
        return yardstick_tasks(best, self.panel, openings, c.seed, g)

    def finish(self, report: GenerationReport, snapshot: tuple, state: State,
               hooks) -> GenerationReport:
        """Run the hooks and checkpoint ``snapshot``. A generation's wall time is the time
        since the previous one finished."""
        now = time.perf_counter()
        report.wall_seconds, self._clock = now - self._clock, now
        state.elapsed += report.wall_seconds
        report.elapsed = state.elapsed
        for hook in hooks:
            hook.on_generation(report)
        population, rng_state, next_id = snapshot
        ckpt.save(self.run_dir, ckpt.Checkpoint(to_dict(self.config), report.generation, next_id,
                                                population, rng_state, state.elapsed))
        return report

    def score_generation(self, g: int, pop: Population, backend) -> GenerationReport:
        """One generation on its own, round robin then yardstick (for benchmarks)."""
        rr = self.round_robin_batch(g, pop)
        report, yard = self.score(g, pop, rr, backend.play_batches([rr])[0])
        if yard[1]:
            self.add_yardstick(report, yard, backend.play_batches([yard])[0])
        return report

    def add_yardstick(self, report: GenerationReport, batch, results) -> GenerationReport:
        tasks = batch[1]
        report.yardstick = yardstick_scores(self.panel, report.champion_index, tasks, results)
        report.yardstick_games = list(zip(tasks, results, strict=True))
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

    def champion_weights(self, g: int, pop: Population, best: int, fitness: float):
        c = self.config
        w = self.game.weights_from_genome(pop.genomes[best], self.phase_bounds, c.ga.symmetric,
                                          name=f"{c.game.name}-gen{g:04d}-id{int(pop.ids[best])}")
        w.metadata = {
            "variant": self.game.variant.value,
            "game_name": c.game.name,
            "provenance": {"run_dir": str(self.run_dir.resolve()), "generation": g,
                           "seed": c.seed, "config_hash": self.hash, "fitness": float(fitness),
                           "individual_id": int(pop.ids[best])},
            "search": self.search.to_dict(),
        }
        return w

    def finished_result(self, state: State) -> RunResult:
        from engine.reversi.weights import load_weights

        champion = load_weights(self.run_dir / "champion.json")
        return RunResult(self.run_dir, champion, state.generation - 1, np.array([]), {})
