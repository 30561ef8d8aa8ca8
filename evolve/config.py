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

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

BACKENDS = ("serial", "ray")
SELECTIONS = ("tournament", "rank")
CROSSOVERS = ("block", "uniform", "blend", "none")


class ConfigError(ValueError):
    """A bad configuration value; the message is one line naming the key."""


@dataclass
class GameConfig:
    name: str = "reversed_reversi"
    seed_references: list[str] | None = None  # None: the game's defaults


@dataclass
class SearchConfig:
    depth: int = 2
    endgame_empties: int = 8


@dataclass
class GAConfig:
    population: int = 14
    generations: int = 20
    elites: int = 2
    phases: int = 3
    # disc counts where phases 2.. start; None: the 60 moves split equally into ``phases``
    phase_bounds: list[int] | None = None
    symmetric: bool = True
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


@dataclass
class GamesConfig:
    openings: int = 1  # per pair, each played with both colours
    min_plies: int = 4
    max_plies: int = 8
    win: float = 5.0
    draw: float = 0.0
    loss: float = -5.0


@dataclass
class YardstickConfig:
    enabled: bool = True
    panel: list[str] | None = None  # None: the game's default panel
    openings: int = 2  # per opponent, each with both colours


@dataclass
class RayConfig:
    address: str | None = None  # None: embedded local Ray; "auto" or "ray://host:port"
    num_cpus: int | None = None  # embedded Ray only; None: all local CPUs
    workers: int | None = None  # actors; None: the cluster's CPU count
    chunks_per_worker: int = 2  # guided split: each chunk = remaining / (this * workers)
    max_retries: int = 3


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
    yardstick: YardstickConfig = field(default_factory=YardstickConfig)
    ray: RayConfig = field(default_factory=RayConfig)


def to_config(cfg: DictConfig | dict | Config) -> Config:
    """Typed, validated ``Config`` from a composed DictConfig (or plain dict)."""
    if isinstance(cfg, Config):
        validate(cfg)
        return cfg
    if not isinstance(cfg, DictConfig):
        cfg = OmegaConf.create(cfg)
    plain = OmegaConf.masked_copy(cfg, [k for k in cfg.keys() if k != "hydra"])
    try:
        merged = OmegaConf.merge(OmegaConf.structured(Config), plain)
        config = OmegaConf.to_object(merged)
    except OmegaConfBaseException as exc:
        raise ConfigError(_one_line(exc)) from None
    validate(config)
    return config


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
    from engine.games import GAMES

    _check_choice("game.name", c.game.name, tuple(GAMES))
    _check_choice("backend", c.backend, BACKENDS)
    # SeedSequence entropy must be a non-negative integer
    _check(c.seed >= 0, "seed", c.seed, "seed >= 0")
    _validate_ga(c.ga)
    s, games = c.search, c.games
    _check(s.depth >= 1, "search.depth", s.depth, "depth >= 1")
    _check(0 <= s.endgame_empties <= 20, "search.endgame_empties", s.endgame_empties,
           "0 <= endgame_empties <= 20")
    _check(games.openings >= 1, "games.openings", games.openings, "openings >= 1")
    _check(1 <= games.min_plies <= games.max_plies <= 20, "games.max_plies", games.max_plies,
           f"1 <= min_plies ({games.min_plies}) <= max_plies <= 20")
    _check(games.win >= games.draw >= games.loss and games.win > games.loss, "games.win",
           games.win, f"win >= draw ({games.draw}) >= loss ({games.loss}) and win > loss")
    _check(c.yardstick.openings >= 1, "yardstick.openings", c.yardstick.openings, "openings >= 1")
    _validate_ray(c)
    _validate_references(c)
    _validate_panel(c)
    _validate_openings(c)


def _validate_ga(ga: GAConfig) -> None:
    _check(ga.population >= 2, "ga.population", ga.population, "population >= 2")
    _check(0 <= ga.elites < ga.population, "ga.elites", ga.elites,
           f"0 <= elites < population ({ga.population})")
    _check(ga.generations >= 1, "ga.generations", ga.generations, "generations >= 1")
    _check(1 <= ga.phases <= 60, "ga.phases", ga.phases, "1 <= phases <= 60")
    _validate_phase_bounds(ga)
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
    _check_choice("ga.selection", ga.selection, SELECTIONS)
    _check_choice("ga.crossover", ga.crossover, CROSSOVERS)
    # an upper limit would reject population 2 with the default size 3: the size is capped instead
    _check(ga.tournament_size >= 2, "ga.tournament_size", ga.tournament_size,
           "tournament_size >= 2 (capped at the population size)")


def _validate_phase_bounds(ga: GAConfig) -> None:
    """Explicit bounds must agree with ``ga.phases`` (rather than silently override it)."""
    if ga.phase_bounds is None:
        return
    b = list(ga.phase_bounds)
    increasing = all(x < y for x, y in zip(b, b[1:], strict=False))
    _check(increasing and all(5 <= x <= 64 for x in b), "ga.phase_bounds", b,
           "strictly increasing disc counts within 5..64 (null: equal split)")
    _check(len(b) == ga.phases - 1, "ga.phase_bounds", b,
           f"one bound per phase after the first: {ga.phases - 1} bounds for ga.phases="
           f"{ga.phases} (set ga.phases={len(b) + 1} with these bounds)")


def phase_bounds(ga: GAConfig) -> tuple[int, ...]:
    """The disc counts where phases 2.. start (explicit, or the equal split of ``ga.phases``)."""
    from engine.reversi.weights import default_phase_bounds

    if ga.phase_bounds is not None:
        return tuple(int(b) for b in ga.phase_bounds)
    return default_phase_bounds(ga.phases)


def _validate_ray(c: Config) -> None:
    _check(c.ray.chunks_per_worker >= 1, "ray.chunks_per_worker", c.ray.chunks_per_worker, ">= 1")
    _check(c.ray.max_retries >= 0, "ray.max_retries", c.ray.max_retries, "max_retries >= 0")
    for key in ("num_cpus", "workers"):
        value = getattr(c.ray, key)
        _check(value is None or value >= 1, f"ray.{key}", value, "null or >= 1")
    if c.backend == "ray" and c.ray.address is None and None not in (c.ray.workers, c.ray.num_cpus):
        # embedded Ray, one CPU per actor (otherwise checked once Ray is up)
        _check(c.ray.workers <= c.ray.num_cpus, "ray.workers", c.ray.workers,
               f"workers <= the Ray cluster's CPUs ({c.ray.num_cpus})")


def _validate_references(c: Config) -> None:
    from engine.reversi.weights import REFERENCE_NAMES

    for ref in c.game.seed_references or ():
        if ref not in REFERENCE_NAMES:
            raise ConfigError(f"game.seed_references: unknown reference {ref!r} (allowed: "
                              f"{', '.join(REFERENCE_NAMES)})")


def _validate_panel(c: Config) -> None:
    """Build every panel agent once now, so a bad spec stops the run before any game."""
    from engine.reversi.agents.factory import make_agent
    from engine.games import get_game

    if not c.yardstick.enabled:
        return
    variant = get_game(c.game.name).variant.value
    for spec in c.yardstick.panel or ():
        try:
            make_agent(spec, variant, depth=c.search.depth, seed=0,
                       endgame_empties=c.search.endgame_empties)
        except (ValueError, OSError, TypeError, KeyError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ConfigError(f"yardstick.panel: {first}") from None


def _validate_openings(c: Config) -> None:
    """Draw generation 0's openings now: too few distinct positions of ``min_plies..max_plies``
    plies (e.g. 5 openings of 1 ply: only 4 exist) fails here instead of mid-run."""
    from engine.games import get_game
    from evolve.tournament import openings_for

    game, g = get_game(c.game.name), c.games
    draws = [("games.openings", g.openings, 0)]
    if c.yardstick.enabled:
        draws.append(("yardstick.openings", c.yardstick.openings, YARDSTICK_GENERATION_OFFSET))
    for key, n, offset in draws:
        try:
            openings_for(game, c.seed, offset, n, g.min_plies, g.max_plies)
        except ValueError as exc:
            raise ConfigError(openings_error(key, n, g.min_plies, g.max_plies, exc)) from None


# the yardstick's openings use generation ``YARDSTICK_GENERATION_OFFSET + g`` so they differ from
# the round robin's and do not change when ``games.openings`` changes
YARDSTICK_GENERATION_OFFSET = 10**6


def openings_error(key: str, n: int, min_plies: int, max_plies: int, exc: Exception) -> str:
    return (f"{key}={n} must satisfy openings <= the distinct positions reachable in "
            f"{min_plies}..{max_plies} plies ({exc}); raise games.max_plies or lower {key}")


def to_dict(c: Config) -> dict:
    return dataclasses.asdict(c)


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
    return to_config(OmegaConf.create(d))
