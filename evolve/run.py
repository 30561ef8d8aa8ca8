"""The generation loop. Reads like its pseudocode:

    population = initial population (seeded from reference weights + scoped random)
    for each generation:
        score everyone by a round robin            (the problem: evolve.tournament)
        champion = best; play it against the panel (the yardstick)
        hooks: CSVs, champion files, plot, log line
        population = breed(population, fitness)     (the algorithm: evolve.population)
        checkpoint (atomic)
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.games import SearchSettings, get_game
from evolve import checkpoint as ckpt
from evolve.config import Config, ConfigError, config_hash, from_dict, to_config, to_dict
from evolve.execution import make_backend
from evolve.operators import diversity
from evolve.outputs import ChampionWriter, CsvLogger, FitnessPlot, GenerationReport, ProgressLog
from evolve.population import Population, breed, gene_bounds, initial_population
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
    champion: object  # engine.weights.Weights
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
    """The saved config wins, except where it runs (backend, ray, plot, progress)."""
    run_dir = Path(current.resume)
    try:
        saved = ckpt.load(run_dir)
    except ckpt.CheckpointError as exc:
        raise ConfigError(f"resume={current.resume}: {exc}") from None
    d = saved.config
    for key in ("backend", "ray", "plot", "progress"):
        d[key] = to_dict(current)[key]
    d["resume"] = None
    state = State(saved.generation + 1, saved.population, ckpt.restore_rng(saved.rng_state),
                  saved.next_id, saved.elapsed)
    log.info("resuming %s after generation %d", run_dir, saved.generation + 1)
    return from_dict(d), state, run_dir


class Study:
    """One configured study: the game, the genome layout and the hooks."""

    def __init__(self, config: Config, run_dir: Path):
        self.config, self.run_dir = config, run_dir
        self.game = get_game(config.game.name)
        self.layout = self.game.layout(config.ga.phases, config.ga.symmetric)
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
        genomes = {r: self.game.reference_genome(r, ga.phases, ga.symmetric) for r in refs}
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
        c, hooks = self.config, self.hooks(state)
        report = None
        for g in range(state.generation, c.ga.generations):
            start = time.perf_counter()
            report = self.score_generation(g, state.population, backend)
            report.wall_seconds = time.perf_counter() - start
            state.elapsed += report.wall_seconds
            report.elapsed = state.elapsed
            for hook in hooks:
                hook.on_generation(report)
            if g + 1 < c.ga.generations:
                state.population = breed(state.population, report.standings.fitness, state.rng,
                                         c.ga, self.bounds, self.blocks, g, state.next_id)
                state.next_id += c.ga.population - c.ga.elites
            self.save_checkpoint(g, state)
        if report is None:  # resumed a finished run
            return self.finished_result(state)
        return RunResult(self.run_dir, report.champion, report.generation,
                         report.standings.fitness, report.yardstick)

    def score_generation(self, g: int, pop: Population, backend) -> GenerationReport:
        c = self.config
        ctx = Context(c.game.name, self.search, pop.genomes, c.ga.phases, c.ga.symmetric)
        openings = openings_for(self.game, c.seed, g, c.games.openings, c.games.min_plies,
                                c.games.max_plies)
        tasks = round_robin_tasks(len(pop), openings, c.seed, g)
        results = backend.play(ctx, tasks)
        standings = score_round_robin(len(pop), tasks, results, c.games.win, c.games.draw,
                                      c.games.loss)
        best = int(np.argmax(standings.fitness))  # ties: lowest index (elites come first)
        yard, yard_games = self.yardstick(g, best, ctx, backend)
        champion = self.champion_weights(g, pop, best, standings.fitness[best])
        games = list(zip(tasks, results, strict=True))
        return GenerationReport(g, c.ga.generations, pop, standings, games, yard, yard_games,
                                best, champion,
                                diversity(pop.genomes, self.bounds), 0.0, 0.0)

    def yardstick(self, g: int, best: int, ctx: Context, backend):
        if not self.panel:
            return {}, []
        c = self.config
        # a separate stream (generation offset by 10**6) so the panel's openings differ from the
        # population's and do not change when games.openings changes
        openings = openings_for(self.game, c.seed, 10**6 + g, c.yardstick.openings,
                                c.games.min_plies, c.games.max_plies)
        tasks = yardstick_tasks(best, self.panel, openings, c.seed, g)
        results = backend.play(ctx, tasks)
        scores = yardstick_scores(self.panel, best, tasks, results)
        return scores, list(zip(tasks, results, strict=True))

    def champion_weights(self, g: int, pop: Population, best: int, fitness: float):
        c = self.config
        w = self.game.weights_from_genome(pop.genomes[best], c.ga.phases, c.ga.symmetric,
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

    def save_checkpoint(self, g: int, state: State) -> None:
        ckpt.save(self.run_dir, ckpt.Checkpoint(
            to_dict(self.config), g, state.next_id, state.population,
            state.rng.bit_generator.state, state.elapsed))

    def finished_result(self, state: State) -> RunResult:
        from engine.weights import load_weights

        champion = load_weights(self.run_dir / "champion.json")
        return RunResult(self.run_dir, champion, state.generation - 1, np.array([]), {})
