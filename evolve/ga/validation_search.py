"""Config checks of the search's settings that depend on the algorithm or on the genome: sparse
mutation (at most the genes and blocks the genome has), separable CMA-ES, the evolution
strategy, Lamarckian local search (only for a genome that can learn by TD) and epsilon-random
moves. One ``ConfigError`` line naming the key and what is allowed, like every other check
(``evolve.ga.validation``)."""

from __future__ import annotations

from evolve.errors import ConfigError
from evolve.ga.cmaes import MAX_FULL_GENES
from evolve.ga.schema import (
    ES_OPTIMIZERS,
    ES_SHAPINGS,
    LOCAL_SEARCHES,
    TD_LEARNERS,
    Config,
    make_game,
)


def _check(ok: bool, key: str, value, rule: str) -> None:
    if not ok:
        raise ConfigError(f"{key}={value} must satisfy {rule}")


def _check_choice(key: str, value, allowed) -> None:
    if value not in allowed:
        raise ConfigError(f"{key}={value} must be one of: {', '.join(map(str, allowed))}")


def validate_search(c: Config) -> None:
    """Raise ``ConfigError`` for the first bad value of these settings."""
    spec = make_game(c).genome_spec()
    _validate_mutation(c, spec.size, len(spec.blocks))
    _validate_cma(c, spec.size)
    _validate_es(c)
    _validate_local_search(c)
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


def _validate_local_search(c: Config) -> None:
    ga = c.ga
    _check_choice("ga.local_search", ga.local_search, LOCAL_SEARCHES)
    _check_choice("ga.td_learners", ga.td_learners, TD_LEARNERS)
    _check(ga.td_games >= 1, "ga.td_games", ga.td_games, "td_games >= 1")
    _check(0.0 < ga.td_alpha <= 1.0, "ga.td_alpha", ga.td_alpha,
           "0 < td_alpha <= 1 (the share of the TD error a step moves a position's value by)")
    _check(0.0 <= ga.td_epsilon <= 1.0, "ga.td_epsilon", ga.td_epsilon, "0 <= td_epsilon <= 1")
    if ga.local_search != "td":
        return
    game = make_game(c)
    if not game.learns_by_td():
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
