"""The population: genomes with ids and parentage, its initialisation and its breeding.

``breed`` is the search algorithm's half of the EvoTorch split (select, vary); scoring the
population is the tournament's job (``evolve.ga.scoring.tournament``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evolve.ga import operators as ops


@dataclass(frozen=True)
class Population:
    genomes: np.ndarray  # (n, genes) float64
    ids: np.ndarray  # (n,) int64, unique over the whole run
    parent_a: np.ndarray  # (n,) int64, -1 when none
    parent_b: np.ndarray
    # how each individual was made: seed:<ref>, random, elite, <crossover>+mutation
    operator: list[str]

    def __len__(self) -> int:
        return len(self.ids)


def gene_bounds(layout, scale: float = 1.0) -> ops.Bounds:
    low, high = layout.default_bounds()
    return np.asarray(low, dtype=np.float64) * scale, np.asarray(high, dtype=np.float64) * scale


def fit_into(genome: np.ndarray, bounds: ops.Bounds) -> np.ndarray:
    """Shrink a reference genome by one positive factor until it lies within bounds: the
    evaluation is linear in the weights, so the agent plays exactly as the reference does."""
    low, high = bounds
    pos, neg = genome > 0, genome < 0
    ratios = np.concatenate([genome[pos] / high[pos], genome[neg] / low[neg]])
    scale = max(1.0, float(ratios.max())) if ratios.size else 1.0
    return ops.clip(genome / scale, bounds)


def initial_population(n: int, references: dict[str, np.ndarray], bounds: ops.Bounds,
                       rng: np.random.Generator, seeded_fraction: float, seed_noise: float,
                       random_scope: float) -> Population:
    """``round(n * seeded_fraction)`` individuals cycle through the reference genomes (the first
    copy of each unchanged, later copies with Gaussian noise); the rest are uniform in the centred
    ``random_scope`` fraction of the bounds."""
    low, high = bounds
    n_seeded = int(round(n * seeded_fraction)) if references else 0
    names = list(references)
    genomes, operator = [], []
    for i in range(n_seeded):
        name = names[i % len(names)]
        genome = fit_into(references[name], bounds)
        if i >= len(names):
            genome = ops.mutate_gaussian(genome, rng, bounds, seed_noise, prob=1.0)
        genomes.append(genome)
        operator.append(f"seed:{name}")
    centre, half = (low + high) / 2, (high - low) / 2 * random_scope
    for _ in range(n - n_seeded):
        genomes.append(rng.uniform(centre - half, centre + half))
        operator.append("random")
    none = np.full(n, -1, dtype=np.int64)
    return Population(np.array(genomes), np.arange(n, dtype=np.int64), none, none.copy(), operator)


def breed(pop: Population, fitness: np.ndarray, rng: np.random.Generator, ga, bounds: ops.Bounds,
          blocks: list[slice], generation: int, next_id: int,
          diversity: float = 1.0) -> Population:
    """Next generation: the ``ga.elites`` best unchanged (ties to the lower index), then
    ``ga.elite_copies`` mutated copies of the best, ``ga.immigrants`` random individuals when
    ``diversity`` is below ``ga.immigrant_below``, then children of selected parents by crossover
    and mutation until the population is full (parents selected on shared fitness when
    ``ga.sharing_radius`` > 0)."""
    n = len(pop)
    order = np.argsort(-np.asarray(fitness), kind="stable")
    genomes = [pop.genomes[i].copy() for i in order[: ga.elites]]
    pa = [int(pop.ids[i]) for i in order[: ga.elites]]
    pb = [-1] * ga.elites
    operator = ["elite"] * ga.elites
    sigma = ops.sigma_at(generation, ga.sigma, ga.sigma_decay, ga.sigma_min)
    best = order[0]
    for _ in range(ga.elite_copies):
        genomes.append(_mutate_copy(pop.genomes[best], rng, ga, bounds, blocks, sigma))
        pa.append(int(pop.ids[best]))
        pb.append(-1)
        operator.append("elite_copy")
    if diversity < ga.immigrant_below:
        low, high = bounds
        centre, half = (low + high) / 2, (high - low) / 2 * ga.random_scope
        for _ in range(ga.immigrants):
            genomes.append(rng.uniform(centre - half, centre + half))
            pa.append(-1)
            pb.append(-1)
            operator.append("immigrant")
    parent_fitness = (ops.shared_fitness(fitness, pop.genomes, bounds, ga.sharing_radius)
                      if ga.sharing_radius > 0 else fitness)
    while len(genomes) < n:
        i, j = _select(parent_fitness, 2, rng, ga)
        children, how = _crossover(pop.genomes[i], pop.genomes[j], rng, ga, bounds, blocks)
        for child in children[: n - len(genomes)]:
            genomes.append(_mutate(child, rng, ga, bounds, blocks, sigma))
            pa.append(int(pop.ids[i]))
            pb.append(int(pop.ids[j]))
            operator.append(f"{how}+mutation")
    ids = np.concatenate([pop.ids[order[: ga.elites]], np.arange(next_id, next_id + n - ga.elites)])
    return Population(np.array(genomes), ids.astype(np.int64), np.array(pa, dtype=np.int64),
                      np.array(pb, dtype=np.int64), operator)


def _mutate(child, rng, ga, bounds, blocks, sigma: float) -> np.ndarray:
    """A child's mutation: sparse (``ga.mutation_genes`` genes, or the genes of
    ``ga.mutation_blocks`` blocks) when set, else every gene with ``ga.mutation_prob``."""
    if ga.mutation_genes:
        return ops.mutate_genes(child, rng, bounds, sigma, ga.mutation_genes)
    if ga.mutation_blocks:
        return ops.mutate_blocks(child, rng, bounds, sigma, ga.mutation_prob, blocks,
                                 ga.mutation_blocks)
    return ops.mutate_gaussian(child, rng, bounds, sigma, ga.mutation_prob)


def _mutate_copy(best, rng, ga, bounds, blocks, sigma: float) -> np.ndarray:
    """An elite copy: every gene mutated, or, with sparse mutation, as a child is (a few genes
    of thousands, not all of them)."""
    if ga.mutation_genes or ga.mutation_blocks:
        return _mutate(best, rng, ga, bounds, blocks, sigma)
    return ops.mutate_gaussian(best, rng, bounds, sigma, prob=1.0)


def _select(fitness, k: int, rng, ga) -> np.ndarray:
    if ga.selection == "rank":
        return ops.select_rank(fitness, k, rng)
    # capped: population 2 with the default size 3 is allowed (a 2-way tournament)
    return ops.select_tournament(fitness, k, rng, size=min(ga.tournament_size, len(fitness)))


def _crossover(a, b, rng, ga, bounds, blocks):
    if ga.crossover == "none" or rng.random() >= ga.crossover_prob:
        return (a.copy(), b.copy()), "clone"
    if ga.crossover == "block":
        return ops.crossover_block(a, b, rng, blocks), "block"
    if ga.crossover == "uniform":
        return ops.crossover_uniform(a, b, rng, ga.uniform_prob), "uniform"
    return ops.crossover_blend(a, b, rng, bounds, ga.blend_alpha), "blend"
