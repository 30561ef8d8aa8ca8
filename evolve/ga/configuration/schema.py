"""The run configuration's shape: dataclasses mirrored by ``conf/config.yaml``, the allowed
choices, and the two things a config names outside itself (its game, its fixed opponents).

Reading, validating and hashing a config live in ``evolve.ga.configuration.config`` and
``evolve.ga.configuration.validation``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from evolve.execution.backends import RayConfig

BACKENDS = ("serial", "ray")
SELECTIONS = ("tournament", "rank")
ALGORITHMS = ("ga", "cmaes", "es")
CROSSOVERS = ("block", "uniform", "blend", "none")
ES_OPTIMIZERS = ("adam", "sgd")
ES_SHAPINGS = ("ranks", "none")
LOCAL_SEARCHES = ("none", "td")
TD_LEARNERS = ("all", "elites")
# columns of generations.csv a sweeper may optimise (``objective.metric``;
# ``evolve.ga.run_files.tracking``)
OBJECTIVE_METRICS = ("champion_elo", "champion_elo_low", "best_fitness", "yardstick_score")
DIRECTIONS = ("maximize", "minimize")
TRACKING_BACKENDS = ("none", "mlflow")


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
    # sparse mutation for genomes of thousands of genes (``evolve.ga.operators``; 0 = off, the
    # per-gene ``mutation_prob`` rule): exactly this many genes drawn at random per child, or
    # every gene of this many blocks drawn at random mutated with ``mutation_prob``
    mutation_genes: int = 0
    mutation_blocks: int = 0
    # separable CMA-ES (cma's ``CMA_diagonal``): a diagonal covariance, linear in the genes
    cma_diagonal: bool = False
    # the natural-gradient evolution strategy (``ga.algorithm=es``, ``evolve.ga.es``): its
    # perturbation size and step size in the unit cube of the gene bounds, its optimiser and
    # its fitness shaping (centred ranks, or the raw fitness)
    es_sigma: float = 0.05
    es_learning_rate: float = 0.01
    es_optimizer: str = "adam"
    es_shaping: str = "ranks"
    # Lamarckian local search (``evolve.ga.local_search``): ``td`` = each learner plays
    # ``td_games`` games of TD self-play (``Game.td_learn``) before it is scored, its learnt
    # genome written back; the learners: every individual, or the elites alone
    local_search: str = "none"
    td_games: int = 10
    td_alpha: float = 0.1
    td_epsilon: float = 0.1
    td_learners: str = "all"


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
    # null: the full round robin; k: each individual plays k seeded opponents
    # (evolve.ga.scoring.sampled)
    opponents_per_individual: int | None = None
    # both players of every fitness, yardstick and playoff game play a uniformly random legal
    # move with this probability (the Othello League protocol uses 0.1); 0 = off
    epsilon: float = 0.0


@dataclass
class FitnessConfig:
    """Which opponents the fitness games are against, with a weight per source (see
    ``evolve.ga.scoring.fitness``); the default is the round robin alone, as before."""

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
class ObjectiveConfig:
    """The number ``python -m evolve`` returns to a Hydra sweeper and writes to
    ``objective.json``: this column of ``generations.csv`` in the exported champion's row.
    ``direction`` only tells a sweeper which way is better."""

    metric: str = "champion_elo"
    direction: str = "maximize"


@dataclass
class TrackingConfig:
    """Where a run is also recorded (``evolve.ga.run_files.tracking``): nowhere, or an MLflow
    run."""

    backend: str = "none"
    uri: str | None = None  # None: $MLFLOW_TRACKING_URI, else ./mlruns where the command started
    experiment: str | None = None  # None: the experiment's name (``+experiment=...``) or evolve


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
    objective: ObjectiveConfig = field(default_factory=ObjectiveConfig)
    tracking: TrackingConfig = field(default_factory=TrackingConfig)


def make_game(c: Config):
    """The configured game of a validated config."""
    from engine.core.registry import get_game

    return get_game(c.game.name, c.game.settings)


ZERO_REFERENCE = "zero"  # a seed reference every genome has: all genes 0


def seed_genome(game, reference: str):
    """A seed reference's genome: one of the game's named references, or a champion file
    (``.json``) of the same genome (a TD-trained network, an earlier study's champion).
    ``ValueError`` naming the file when it is not one. ``zero``: every gene 0 (an n-tuple
    network that knows nothing: where Co-CMA-ES starts its mean)."""
    if reference == ZERO_REFERENCE:
        import numpy as np

        return np.zeros(len(game.genome_spec().names))
    if not reference.endswith(".json"):
        return game.reference_genome(reference)
    import numpy as np

    from engine.core.records import ChampionFileError

    try:
        champion = game.load_champion(reference)
    except (OSError, ChampionFileError, ValueError) as exc:
        raise ValueError(str(exc) if reference in str(exc) else f"{reference}: {exc}") from None
    genome = np.asarray(champion.genome, dtype=np.float64)
    names = game.genome_spec().names
    if champion.game != game.name or genome.shape != (len(names),):
        raise ValueError(f"{reference}: its genome ({champion.game}, {genome.size} genes) is "
                         f"not this study's ({game.name}, {len(names)} genes): its game.genome "
                         "settings must be the study's")
    return genome


def fitness_opponents(c: Config, game) -> list[str]:
    """The fixed fitness opponents: ``fitness.opponents``, else the seed references."""
    if c.fitness.opponents is not None:
        return list(c.fitness.opponents)
    return list(c.game.seed_references or game.seed_references)
