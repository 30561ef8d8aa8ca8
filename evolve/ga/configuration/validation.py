"""Config validation: every value checked after Hydra composes the config, so a misspelt key
or an out-of-range value stops the run at start with one line naming the key and what is
allowed (``ConfigError("ga.elites=12 must satisfy ...")``).

Validation happens after composition (not through a ConfigStore schema) because Hydra's own
schema errors span several lines. The game is built once (``game_of``) and every check that needs
it, or its genome, takes it; the champion files the panel and the fixed opponents name are read
once, here (``evolve.ga.configuration.players``): ``evolve.ga.configuration.config.resolve``
hands back all of them.
"""

from __future__ import annotations

from engine.core.capabilities import TD, has
from engine.core.game import GameSettingsError, SearchSettings
from engine.core.matches import specs
from evolve.errors import ConfigError
from evolve.ga.cmaes import MAX_FULL_GENES
from evolve.ga.configuration.players import Named, players
from evolve.ga.configuration.schema import (
    ALGORITHMS,
    BACKENDS,
    CROSSOVERS,
    DIRECTIONS,
    ES_OPTIMIZERS,
    ES_SHAPINGS,
    LOCAL_SEARCHES,
    OBJECTIVE_METRICS,
    SELECTIONS,
    TD_LEARNERS,
    TRACKING_BACKENDS,
    ZERO_REFERENCE,
    Config,
    GAConfig,
    fitness_opponents,
    make_game,
    seed_genome,
)
from evolve.ga.scoring.tournament import YARDSTICK_GENERATION_OFFSET, openings_for


def game_of(c: Config):
    """The configured game, built once: ``ConfigError`` for an unknown name or bad settings."""
    from engine.core.registry import game_names

    _check_choice("game.name", c.game.name, game_names())
    try:
        return make_game(c)
    except GameSettingsError as exc:
        raise ConfigError(str(exc)) from None


def validate(c: Config, game, spec) -> Named:
    """Raise ``ConfigError`` for the first bad value; ``game`` is ``game_of(c)`` and ``spec``
    its genome spec. Returns the players the config names, each resolved once."""

    _check_choice("backend", c.backend, BACKENDS)
    # SeedSequence entropy must be a non-negative integer
    _check(c.seed >= 0, "seed", c.seed, "seed >= 0")
    _validate_ga(c.ga)
    s, games = c.search, c.games
    _check(s.depth >= 1, "search.depth", s.depth, "depth >= 1")
    _check(s.endgame_empties >= 0, "search.endgame_empties", s.endgame_empties,
           "endgame_empties >= 0")
    try:  # the game's own limits (Reversi: at most its 64 squares)
        game.check_search(SearchSettings(s.depth, s.endgame_empties))
    except GameSettingsError as exc:
        raise ConfigError(str(exc)) from None
    _check(games.openings >= 1, "games.openings", games.openings, "openings >= 1")
    if games.opponents_per_individual is not None:
        from evolve.ga.scoring.sampled import check_opponents

        try:
            check_opponents(c.ga.population, games.opponents_per_individual)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    _check(games.min_plies >= 1, "games.min_plies", games.min_plies, "min_plies >= 1")
    _check(games.min_plies <= games.max_plies <= 20, "games.max_plies", games.max_plies,
           f"1 <= min_plies ({games.min_plies}) <= max_plies <= 20")
    _check(games.margin >= 0.0, "games.margin", games.margin, "margin >= 0 (0 = off)")
    _check(games.win > games.loss, "games.win", games.win,
           f"win >= draw ({games.draw}) >= loss ({games.loss}) and win > loss")
    _check(games.win >= games.draw >= games.loss, "games.draw", games.draw,
           f"win ({games.win}) >= draw >= loss ({games.loss})")
    _check(c.yardstick.openings >= 1, "yardstick.openings", c.yardstick.openings, "openings >= 1")
    for key in ("hall_of_fame_every", "hall_of_fame_size"):
        value = getattr(c.yardstick, key)
        _check(value >= 0, f"yardstick.{key}", value, f"{key} >= 0")
    _check(c.playoff.generations >= 1, "playoff.generations", c.playoff.generations,
           "generations >= 1")
    _check(c.playoff.openings >= 1, "playoff.openings", c.playoff.openings, "openings >= 1")
    opponent_labels = _validate_fitness(c, game)
    opponents = players(game, "fitness.opponents", opponent_labels)
    _validate_search(c, game, spec)
    _validate_ray(c)
    _validate_reporting(c)
    _validate_references(c, game)
    panel_labels, panel = _validate_panel(c, game)
    _validate_openings(c, game)
    return Named(panel, panel_labels, opponents, opponent_labels)


def _validate_ga(ga: GAConfig) -> None:
    _check(ga.population >= 2, "ga.population", ga.population, "population >= 2")
    _check(0 <= ga.elites < ga.population, "ga.elites", ga.elites,
           f"0 <= elites < population ({ga.population})")
    _check(ga.generations >= 1, "ga.generations", ga.generations, "generations >= 1")
    probabilities = ("seeded_fraction", "crossover_prob", "uniform_prob", "mutation_prob",
                     "random_scope")
    for name in probabilities:
        value = getattr(ga, name)
        _check(0.0 <= value <= 1.0, f"ga.{name}", value, "0 <= value <= 1")
    for name in ("seed_noise", "sigma", "sigma_min", "blend_alpha"):
        value = getattr(ga, name)
        _check(value >= 0.0, f"ga.{name}", value, "value >= 0")
    _check(0.0 < ga.sigma_decay <= 1.0, "ga.sigma_decay", ga.sigma_decay, "0 < sigma_decay <= 1")
    _check(ga.bound_scale > 0.0, "ga.bound_scale", ga.bound_scale, "bound_scale > 0")
    room = ga.population - ga.elites  # the children bred each generation
    _check(0 <= ga.elite_copies <= room, "ga.elite_copies", ga.elite_copies,
           f"0 <= elite_copies <= population - elites ({room})")
    _check(ga.immigrants >= 0, "ga.immigrants", ga.immigrants, "immigrants >= 0")
    _check(ga.elite_copies + ga.immigrants <= room, "ga.immigrants", ga.immigrants,
           f"0 <= elite_copies ({ga.elite_copies}) + immigrants <= population - elites ({room})")
    _check(0.0 <= ga.immigrant_below <= 1.0, "ga.immigrant_below", ga.immigrant_below,
           "0 <= value <= 1")
    _check(0.0 <= ga.sharing_radius <= 1.0, "ga.sharing_radius", ga.sharing_radius,
           "0 <= value <= 1 (0 = off)")
    _check_choice("ga.selection", ga.selection, SELECTIONS)
    _check_choice("ga.algorithm", ga.algorithm, ALGORITHMS)
    _check(0.0 < ga.cma_sigma0 <= 1.0, "ga.cma_sigma0", ga.cma_sigma0, "0 < cma_sigma0 <= 1")
    _check_choice("ga.crossover", ga.crossover, CROSSOVERS)
    # an upper limit would reject population 2 with the default size 3: the size is capped instead
    _check(ga.tournament_size >= 2, "ga.tournament_size", ga.tournament_size,
           "tournament_size >= 2 (capped at the population size)")


def _validate_fitness(c: Config, game) -> tuple[str, ...]:
    """The fitness's settings; returns its fixed opponents as written (none unless
    ``fitness.references`` > 0)."""
    f = c.fitness
    for key in ("population", "references", "hall_of_fame"):
        _check(getattr(f, key) >= 0, f"fitness.{key}", getattr(f, key), "weight >= 0")
    _check(f.population + f.references + f.hall_of_fame > 0, "fitness.population",
           f.population, "at least one of fitness.population/references/hall_of_fame > 0")
    _check(f.openings >= 1, "fitness.openings", f.openings, "openings >= 1")
    _check(f.hall_of_fame_size >= 1, "fitness.hall_of_fame_size", f.hall_of_fame_size,
           "hall_of_fame_size >= 1")
    if f.hall_of_fame > 0:
        _check(c.yardstick.enabled and c.yardstick.hall_of_fame_every > 0,
               "fitness.hall_of_fame", f.hall_of_fame, "weight 0 unless yardstick.enabled and "
               "yardstick.hall_of_fame_every > 0 (the hall of fame is the yardstick's)")
    return tuple(fitness_opponents(c, game)) if f.references > 0 else ()


def _validate_ray(c: Config) -> None:
    _check(c.ray.chunks_per_worker >= 1, "ray.chunks_per_worker", c.ray.chunks_per_worker, ">= 1")
    _check(c.ray.max_retries >= 0, "ray.max_retries", c.ray.max_retries, "max_retries >= 0")
    _check(c.ray.no_worker_timeout > 0, "ray.no_worker_timeout", c.ray.no_worker_timeout, "> 0")
    from evolve.execution.runtime_env import check_runtime_env

    check_runtime_env(c.ray.runtime_env)
    for key in ("num_cpus", "workers"):
        value = getattr(c.ray, key)
        _check(value is None or value >= 1, f"ray.{key}", value, "null or >= 1")
    if c.backend == "ray" and c.ray.address is None and None not in (c.ray.workers, c.ray.num_cpus):
        # embedded Ray, one CPU per actor (otherwise checked once Ray is up)
        _check(c.ray.workers <= c.ray.num_cpus, "ray.workers", c.ray.workers,
               f"workers <= the Ray cluster's CPUs ({c.ray.num_cpus})")


def _validate_reporting(c: Config) -> None:
    """The objective a sweeper reads and the tracking backend (``evolve.ga.run_files.tracking``)."""
    _check_choice("objective.metric", c.objective.metric, OBJECTIVE_METRICS)
    _check_choice("objective.direction", c.objective.direction, DIRECTIONS)
    _check_choice("tracking.backend", c.tracking.backend, TRACKING_BACKENDS)
    if c.tracking.backend == "mlflow":
        import importlib.util

        if importlib.util.find_spec("mlflow") is None:  # found, not imported: no cost here
            raise ConfigError("tracking.backend=mlflow needs MLflow's client: pip install -e "
                              "\".[tracking]\" (or pip install mlflow-skinny)")


def _validate_references(c: Config, game) -> None:
    allowed = game.reference_names()
    for ref in c.game.seed_references or ():
        if ref.endswith(".json"):
            try:
                seed_genome(game, ref)
            except ValueError as exc:
                raise ConfigError(f"game.seed_references: {exc}") from None
        elif ref not in allowed and ref != ZERO_REFERENCE:
            raise ConfigError(f"game.seed_references: unknown reference {ref!r} (allowed: "
                              f"{', '.join(allowed)}, {ZERO_REFERENCE}, or a champion file "
                              ".json of the same genome)")


def _validate_panel(c: Config, game) -> tuple[tuple[str, ...], tuple[specs.Player, ...]]:
    """The panel as written and as played: every spec of ``yardstick.panel`` checked now, so a
    bad one stops the run before any game (the game's default panel is its own)."""
    if not c.yardstick.enabled:
        return (), ()
    texts = tuple(c.yardstick.panel or game.default_panel)
    return texts, players(game, "yardstick.panel", texts, check=bool(c.yardstick.panel))


def _validate_openings(c: Config, game) -> None:
    """Draw generation 0's openings now: too few distinct positions of ``min_plies..max_plies``
    plies (e.g. 5 openings of 1 ply: only 4 exist) fails here instead of mid-run."""
    g = c.games
    draws = [("games.openings", g.openings, 0)]
    if c.yardstick.enabled:
        draws.append(("yardstick.openings", c.yardstick.openings, YARDSTICK_GENERATION_OFFSET))
    for key, n, offset in draws:
        try:
            openings_for(game, c.seed, offset, n, g.min_plies, g.max_plies)
        except ValueError as exc:
            raise ConfigError(openings_error(key, n, g.min_plies, g.max_plies, exc)) from None


def openings_error(key: str, n: int, min_plies: int, max_plies: int, exc: Exception) -> str:
    return (f"{key}={n} must satisfy openings <= the distinct positions reachable in "
            f"{min_plies}..{max_plies} plies ({exc}); raise games.max_plies or lower {key}")


def _check(ok: bool, key: str, value, rule: str) -> None:
    if not ok:
        raise ConfigError(f"{key}={value} must satisfy {rule}")


def _check_choice(key: str, value, allowed) -> None:
    if value not in allowed:
        raise ConfigError(f"{key}={value} must be one of: {', '.join(map(str, allowed))}")


def _validate_search(c: Config, game, spec) -> None:
    """The search's settings that depend on the algorithm or on the genome: sparse mutation (at
    most the genes and blocks the genome has), separable CMA-ES, the evolution strategy,
    Lamarckian local search (only for a genome that can learn by TD) and epsilon-random moves."""
    _validate_mutation(c, spec.size, len(spec.blocks))
    _validate_cma(c, spec.size)
    _validate_es(c)
    _validate_local_search(c, game)
    eps = c.games.epsilon
    _check(0.0 <= eps <= 1.0, "games.epsilon", eps, "0 <= epsilon <= 1 (0 = off)")


def _validate_mutation(c: Config, genes: int, blocks: int) -> None:
    ga = c.ga
    _check(0 <= ga.mutation_genes <= genes, "ga.mutation_genes", ga.mutation_genes,
           f"0 <= mutation_genes <= the genome's {genes} genes (0 = off)")
    _check(0 <= ga.mutation_blocks <= blocks, "ga.mutation_blocks", ga.mutation_blocks,
           f"0 <= mutation_blocks <= the genome's {blocks} blocks (0 = off)")
    _check(not (ga.mutation_genes and ga.mutation_blocks), "ga.mutation_blocks",
           ga.mutation_blocks, f"0 when ga.mutation_genes ({ga.mutation_genes}) is set (one "
           "sparse mutation at a time)")


def _validate_cma(c: Config, genes: int) -> None:
    if c.ga.algorithm == "cmaes" and not c.ga.cma_diagonal and genes > MAX_FULL_GENES:
        raise ConfigError(f"ga.cma_diagonal=false allows genomes of up to {MAX_FULL_GENES} "
                          f"genes (full CMA-ES keeps a {genes} x {genes} covariance); set "
                          f"ga.cma_diagonal=true (separable CMA-ES) for this genome of {genes}")


def _validate_es(c: Config) -> None:
    ga = c.ga
    if ga.algorithm == "es":
        _check(ga.population >= 3 and ga.population % 2 == 1, "ga.population", ga.population,
               "an odd population >= 3 for ga.algorithm=es (the centre and (population - 1) "
               "/ 2 antithetic pairs)")
    _check(0.0 < ga.es_sigma <= 1.0, "ga.es_sigma", ga.es_sigma, "0 < es_sigma <= 1")
    _check(ga.es_learning_rate > 0.0, "ga.es_learning_rate", ga.es_learning_rate,
           "es_learning_rate > 0")
    _check_choice("ga.es_optimizer", ga.es_optimizer, ES_OPTIMIZERS)
    _check_choice("ga.es_shaping", ga.es_shaping, ES_SHAPINGS)


def _validate_local_search(c: Config, game) -> None:
    ga = c.ga
    _check_choice("ga.local_search", ga.local_search, LOCAL_SEARCHES)
    _check_choice("ga.td_learners", ga.td_learners, TD_LEARNERS)
    _check(ga.td_games >= 1, "ga.td_games", ga.td_games, "td_games >= 1")
    _check(0.0 < ga.td_alpha <= 1.0, "ga.td_alpha", ga.td_alpha,
           "0 < td_alpha <= 1 (the share of the TD error a step moves a position's value by)")
    _check(0.0 <= ga.td_epsilon <= 1.0, "ga.td_epsilon", ga.td_epsilon, "0 <= td_epsilon <= 1")
    if ga.local_search != "td":
        return
    if not has(game, TD) or not game.learns_by_td():
        raise ConfigError(f"ga.local_search=td needs a genome that learns by temporal "
                          f"differences, and {c.game.name}'s cannot with these settings "
                          f"(learns_by_td is false; an n-tuple genome, game.genome.kind=ntuple, "
                          f"can where the game supports it)")
    if ga.algorithm != "ga" and ga.td_learners != "all":
        raise ConfigError(f"ga.td_learners={ga.td_learners} works with ga.algorithm=ga only "
                          f"(got {ga.algorithm}, which keeps no elites): use "
                          "ga.td_learners=all")
    if ga.td_learners == "elites" and ga.elites < 1:
        raise ConfigError("ga.td_learners=elites needs ga.elites >= 1 (with no elites nobody "
                          "learns); set ga.elites or ga.td_learners=all")
