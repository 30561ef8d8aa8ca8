"""Typed run configuration: dataclasses mirrored by ``conf/config.yaml``, validated after Hydra
composes it, so a misspelt key or an out-of-range value stops the run at start with one line.

Validation happens after composition (not through a ConfigStore schema) because Hydra's own
schema errors are multi-line; here every problem becomes ``ConfigError("ga.elites=12 must ...")``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from engine.core import specs
from evolve.errors import ConfigError
from evolve.execution.backends import RayConfig

BACKENDS = ("serial", "ray")
SELECTIONS = ("tournament", "rank")
ALGORITHMS = ("ga", "cmaes")
CROSSOVERS = ("block", "uniform", "blend", "none")


def _default_game() -> str:
    from engine.core.registry import default_game

    return default_game()


@dataclass
class GameConfig:
    name: str = field(default_factory=_default_game)
    seed_references: list[str] | None = None  # None: the game's defaults
    # everything else under ``game:`` (``genome: {phases: 3}``, ``size: 3``): the game validates it
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class SearchConfig:
    depth: int = 2
    endgame_empties: int = 8


@dataclass
class GAConfig:
    population: int = 14
    generations: int = 20
    elites: int = 2
    seeded_fraction: float = 0.5  # share of the initial population seeded from references
    seed_noise: float = 0.05  # noise sigma for seeded individuals, as a fraction of the bound range
    random_scope: float = 1.0  # random individuals: uniform in this centred fraction of bounds
    bound_scale: float = 1.0  # multiplies the layout's default bounds
    selection: str = "tournament"
    tournament_size: int = 3  # capped at the population size (population 2: size 2)
    crossover: str = "block"
    crossover_prob: float = 0.8
    uniform_prob: float = 0.5
    blend_alpha: float = 0.3
    mutation_prob: float = 0.1  # per gene
    sigma: float = 0.1  # fraction of each gene's bound range
    sigma_decay: float = 0.93  # per generation
    sigma_min: float = 0.01
    # diversity keepers: each generation ``elite_copies`` mutated copies of the best individual,
    # and ``immigrants`` random individuals whenever diversity falls below ``immigrant_below``
    elite_copies: int = 0
    immigrants: int = 0
    immigrant_below: float = 0.05
    # fitness sharing in parent selection (0 = off): an individual's rank is divided by its niche
    # count, the individuals within this normalised distance (``operators.shared_fitness``)
    sharing_radius: float = 0.0
    # the search algorithm: this GA, or CMA-ES (``evolve.ga.cmaes``; the GA's operator keys are
    # then unused) with this initial step size in the unit cube of the gene bounds
    algorithm: str = "ga"
    cma_sigma0: float = 0.2


@dataclass
class GamesConfig:
    openings: int = 1  # per pair, each played with both colours
    min_plies: int = 4
    max_plies: int = 8
    win: float = 5.0
    draw: float = 0.0
    loss: float = -5.0
    # points per unit of a game's final margin (discs, cells) on top: a finer signal than W/D/L
    margin: float = 0.0
    # null: the full round robin; k: each individual plays k seeded opponents (evolve.ga.sampled)
    opponents_per_individual: int | None = None


@dataclass
class FitnessConfig:
    """Which opponents the fitness games are against, with a weight per source (see
    ``evolve.ga.fitness``); the default is the round robin alone, as before."""

    population: float = 1.0  # weight of the round robin (0: no round robin games)
    references: float = 0.0  # weight of the games against ``opponents``
    hall_of_fame: float = 0.0  # weight of the games against earlier champions
    opponents: list[str] | None = None  # agent specs or champion files; None: seed references
    openings: int = 4  # per fixed opponent, each with both colours (the same for everyone)
    hall_of_fame_size: int = 4  # the newest this many hall of fame members


@dataclass
class YardstickConfig:
    enabled: bool = True
    panel: list[str] | None = None  # None: the game's default panel
    openings: int = 2  # per opponent, each with both colours
    # anchors beyond the panel: every k-th generation's champion joins a hall of fame (0: never);
    # the champion plays the newest ``hall_of_fame_size`` members too, for its Elo
    hall_of_fame_every: int = 5
    hall_of_fame_size: int = 4


@dataclass
class PlayoffConfig:
    """The exported champion: a playoff among the last generations' champions (more games, the
    anchors too) instead of the last round robin's winner."""

    enabled: bool = True
    generations: int = 5  # champions of this many last generations take part
    openings: int = 6  # per pairing, each with both colours


@dataclass
class Config:
    seed: int = 0
    backend: str = "ray"
    resume: str | None = None
    plot: bool = True
    progress: bool = True
    game: GameConfig = field(default_factory=GameConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    ga: GAConfig = field(default_factory=GAConfig)
    games: GamesConfig = field(default_factory=GamesConfig)
    fitness: FitnessConfig = field(default_factory=FitnessConfig)
    yardstick: YardstickConfig = field(default_factory=YardstickConfig)
    playoff: PlayoffConfig = field(default_factory=PlayoffConfig)
    ray: RayConfig = field(default_factory=RayConfig)


def to_config(cfg: DictConfig | dict | Config) -> Config:
    """Typed, validated ``Config`` from a composed DictConfig (or plain dict)."""
    if isinstance(cfg, Config):
        validate(cfg)
        return cfg
    if not isinstance(cfg, DictConfig):
        cfg = OmegaConf.create(cfg)
    plain = OmegaConf.to_container(cfg, resolve=True)
    plain.pop("hydra", None)
    game = game_config(plain.pop("game", None) or {})
    for key in MOVED_TO_GAME:
        if key in (plain.get("ga") or {}):
            raise ConfigError(moved_key_message(f"ga.{key}"))
    try:
        merged = OmegaConf.merge(OmegaConf.structured(Config), plain)
        config = OmegaConf.to_object(merged)
    except OmegaConfBaseException as exc:
        raise ConfigError(_one_line(exc)) from None
    config.game = game
    validate(config)
    return config


# genome settings that moved from ``ga:`` to the game's config group (``game.genome``)
MOVED_TO_GAME = ("phases", "phase_bounds", "symmetric")


def moved_key_message(key: str) -> str:
    leaf = key.rsplit(".", 1)[-1]
    return (f"{key} moved to game.genome.{leaf} (the genome belongs to the game: set it in "
            f"conf/game/<name>.yaml or as game.genome.{leaf}=...)")


def game_config(node: dict) -> GameConfig:
    node = dict(node)
    name = node.pop("name", None) or _default_game()
    references = node.pop("seed_references", None)
    node.pop("settings", None)  # a dict written by ``to_dict`` before flattening: never
    return GameConfig(str(name), None if references is None else list(references), node)


def make_game(c: Config):
    """The configured game of a validated config."""
    from engine.core.registry import get_game

    return get_game(c.game.name, c.game.settings)


def _one_line(exc: OmegaConfBaseException) -> str:
    key = getattr(exc, "full_key", None)
    msg = str(exc).splitlines()[0]
    return f"{key}: {msg}" if key else msg


def _check(ok: bool, key: str, value, rule: str) -> None:
    if not ok:
        raise ConfigError(f"{key}={value} must satisfy {rule}")


def _check_choice(key: str, value, allowed) -> None:
    if value not in allowed:
        raise ConfigError(f"{key}={value} must be one of: {', '.join(map(str, allowed))}")


def validate(c: Config) -> None:
    """Raise ``ConfigError`` for the first bad value."""
    from engine.core.game import GameSettingsError, SearchSettings
    from engine.core.registry import game_names

    _check_choice("game.name", c.game.name, game_names())
    try:
        make_game(c)
    except GameSettingsError as exc:
        raise ConfigError(str(exc)) from None
    _check_choice("backend", c.backend, BACKENDS)
    # SeedSequence entropy must be a non-negative integer
    _check(c.seed >= 0, "seed", c.seed, "seed >= 0")
    _validate_ga(c.ga)
    s, games = c.search, c.games
    _check(s.depth >= 1, "search.depth", s.depth, "depth >= 1")
    _check(s.endgame_empties >= 0, "search.endgame_empties", s.endgame_empties,
           "endgame_empties >= 0")
    try:  # the game's own limits (Reversi: at most its 64 squares)
        make_game(c).check_search(SearchSettings(s.depth, s.endgame_empties))
    except GameSettingsError as exc:
        raise ConfigError(str(exc)) from None
    _check(games.openings >= 1, "games.openings", games.openings, "openings >= 1")
    if games.opponents_per_individual is not None:
        from evolve.ga.sampled import check_opponents

        try:
            check_opponents(c.ga.population, games.opponents_per_individual)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    _check(1 <= games.min_plies <= games.max_plies <= 20, "games.max_plies", games.max_plies,
           f"1 <= min_plies ({games.min_plies}) <= max_plies <= 20")
    _check(games.margin >= 0.0, "games.margin", games.margin, "margin >= 0 (0 = off)")
    _check(games.win >= games.draw >= games.loss and games.win > games.loss, "games.win",
           games.win, f"win >= draw ({games.draw}) >= loss ({games.loss}) and win > loss")
    _check(c.yardstick.openings >= 1, "yardstick.openings", c.yardstick.openings, "openings >= 1")
    for key in ("hall_of_fame_every", "hall_of_fame_size"):
        value = getattr(c.yardstick, key)
        _check(value >= 0, f"yardstick.{key}", value, f"{key} >= 0")
    _check(c.playoff.generations >= 1, "playoff.generations", c.playoff.generations,
           "generations >= 1")
    _check(c.playoff.openings >= 1, "playoff.openings", c.playoff.openings, "openings >= 1")
    _validate_fitness(c)
    _validate_ray(c)
    _validate_references(c)
    _validate_panel(c)
    _validate_openings(c)


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
    _check(0 <= ga.elite_copies + ga.immigrants <= ga.population - ga.elites, "ga.immigrants",
           ga.immigrants, f"0 <= elite_copies ({ga.elite_copies}) + immigrants <= population - "
           f"elites ({ga.population - ga.elites})")
    _check(ga.elite_copies >= 0, "ga.elite_copies", ga.elite_copies, "elite_copies >= 0")
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


def _validate_fitness(c: Config) -> None:
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
    game = make_game(c)
    for spec in fitness_opponents(c, game) if f.references > 0 else ():
        try:
            specs.check_spec(game, spec)
        except (ValueError, OSError, TypeError, KeyError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ConfigError(f"fitness.opponents: {first}") from None


def fitness_opponents(c: Config, game) -> list[str]:
    """The fixed fitness opponents: ``fitness.opponents``, else the seed references."""
    if c.fitness.opponents is not None:
        return list(c.fitness.opponents)
    return list(c.game.seed_references or game.seed_references)


def _validate_ray(c: Config) -> None:
    _check(c.ray.chunks_per_worker >= 1, "ray.chunks_per_worker", c.ray.chunks_per_worker, ">= 1")
    _check(c.ray.max_retries >= 0, "ray.max_retries", c.ray.max_retries, "max_retries >= 0")
    _check(c.ray.no_worker_timeout > 0, "ray.no_worker_timeout", c.ray.no_worker_timeout, "> 0")
    for key in ("num_cpus", "workers"):
        value = getattr(c.ray, key)
        _check(value is None or value >= 1, f"ray.{key}", value, "null or >= 1")
    if c.backend == "ray" and c.ray.address is None and None not in (c.ray.workers, c.ray.num_cpus):
        # embedded Ray, one CPU per actor (otherwise checked once Ray is up)
        _check(c.ray.workers <= c.ray.num_cpus, "ray.workers", c.ray.workers,
               f"workers <= the Ray cluster's CPUs ({c.ray.num_cpus})")


def _validate_references(c: Config) -> None:
    allowed = make_game(c).reference_names()
    for ref in c.game.seed_references or ():
        if ref not in allowed:
            raise ConfigError(f"game.seed_references: unknown reference {ref!r} (allowed: "
                              f"{', '.join(allowed)})")


def _validate_panel(c: Config) -> None:
    """Check every panel spec now, so a bad one stops the run before any game."""
    if not c.yardstick.enabled:
        return
    game = make_game(c)
    for spec in c.yardstick.panel or ():
        try:
            specs.check_spec(game, spec)
        except (ValueError, OSError, TypeError, KeyError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ConfigError(f"yardstick.panel: {first}") from None


def _validate_openings(c: Config) -> None:
    """Draw generation 0's openings now: too few distinct positions of ``min_plies..max_plies``
    plies (e.g. 5 openings of 1 ply: only 4 exist) fails here instead of mid-run."""
    from evolve.ga.tournament import openings_for

    game, g = make_game(c), c.games
    draws = [("games.openings", g.openings, 0)]
    if c.yardstick.enabled:
        draws.append(("yardstick.openings", c.yardstick.openings, YARDSTICK_GENERATION_OFFSET))
    for key, n, offset in draws:
        try:
            openings_for(game, c.seed, offset, n, g.min_plies, g.max_plies)
        except ValueError as exc:
            raise ConfigError(openings_error(key, n, g.min_plies, g.max_plies, exc)) from None


# the yardstick's openings use generation ``YARDSTICK_GENERATION_OFFSET + g`` so they differ from
# the round robin's and do not change when ``games.openings`` changes; the playoff's likewise
YARDSTICK_GENERATION_OFFSET = 10**6
PLAYOFF_GENERATION = 2 * 10**6


def openings_error(key: str, n: int, min_plies: int, max_plies: int, exc: Exception) -> str:
    return (f"{key}={n} must satisfy openings <= the distinct positions reachable in "
            f"{min_plies}..{max_plies} plies ({exc}); raise games.max_plies or lower {key}")


def to_dict(c: Config) -> dict:
    d = dataclasses.asdict(c)
    settings = d["game"].pop("settings")
    d["game"].update(settings)  # the shape of conf/game/<name>.yaml
    return d


# keys that only say where and how visibly a run executes: never change a result
RUNTIME_KEYS = ("resume", "backend", "ray", "plot", "progress")


def config_hash(c: Config) -> str:
    """Hash of everything that determines the result (not where it runs or whether it resumed).
    ``ga.generations`` is left out too: generation g's result does not depend on how many
    generations follow, so a run extended on resume keeps the hash of its first generations."""
    d = to_dict(c)
    for key in RUNTIME_KEYS:
        d.pop(key)
    d["ga"].pop("generations")
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


def from_dict(d: dict) -> Config:
    return to_config(OmegaConf.create(migrate(d)))


def migrate(d: dict) -> dict:
    """A config saved before the genome settings moved to the game (checkpoints of older runs):
    ``ga.phases/phase_bounds/symmetric`` become ``game.genome.*``."""
    ga = dict(d.get("ga") or {})
    moved = {k: ga.pop(k) for k in MOVED_TO_GAME if k in ga}
    if not moved:
        return d
    game = dict(d.get("game") or {})
    game["genome"] = {**moved, **(game.get("genome") or {})}
    return {**d, "ga": ga, "game": game}
