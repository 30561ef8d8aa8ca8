"""GA operators as small pure functions (DEAP's shapes, explicit ``np.random.Generator``).

Genomes are 1-D float64 arrays; bounds are ``(low, high)`` arrays of the same length. Every
operator returns new arrays (inputs are never modified) and every result stays within bounds.
"""

from __future__ import annotations

import numpy as np

Bounds = tuple[np.ndarray, np.ndarray]


# --- selection: indices into the population, higher fitness is better ---
def select_tournament(fitness: np.ndarray, k: int, rng: np.random.Generator,
                      size: int = 3) -> np.ndarray:
    """``k`` winners of ``size``-way tournaments (drawn without replacement within a tournament);
    ties go to the lower index, so the result only depends on ``rng``."""
    fitness = np.asarray(fitness, dtype=np.float64)
    winners = np.empty(k, dtype=np.int64)
    for i in range(k):
        entrants = np.sort(rng.choice(len(fitness), size=size, replace=False))
        winners[i] = entrants[np.argmax(fitness[entrants])]
    return winners


def select_rank(fitness: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """``k`` draws with probability proportional to rank (worst rank 1, best rank n); ties share
    the order of a stable sort, so scale and offset of the fitness do not matter."""
    fitness = np.asarray(fitness, dtype=np.float64)
    ranks = np.empty(len(fitness))
    ranks[np.argsort(fitness, kind="stable")] = np.arange(1, len(fitness) + 1)
    return rng.choice(len(fitness), size=k, replace=True, p=ranks / ranks.sum())


def shared_fitness(fitness: np.ndarray, genomes: np.ndarray, bounds: Bounds,
                   radius: float) -> np.ndarray:
    """Fitness sharing (Goldberg & Richardson 1987) on ranks: rank (1 = worst, ties averaged) over
    niche count, ``sum_j max(0, 1 - d_ij / radius)`` with ``d_ij`` the root-mean-square gene
    distance relative to each gene's bound range (so 0 <= d <= 1). Ranks, not raw scores, because
    tournament scores are zero-sum and can be negative. Near-clones share one niche's worth of
    selection, so a cluster of copies of the best no longer takes every parent slot."""
    fitness = np.asarray(fitness, dtype=np.float64)
    ranks = _average_ranks(fitness)
    span = np.where(bounds[1] > bounds[0], bounds[1] - bounds[0], 1.0)
    x = np.asarray(genomes, dtype=np.float64) / span
    d = np.sqrt(np.mean((x[:, None, :] - x[None, :, :]) ** 2, axis=2))
    niche = np.maximum(0.0, 1.0 - d / radius).sum(axis=1)  # >= 1: every individual is in its own
    return ranks / niche


def _average_ranks(values: np.ndarray) -> np.ndarray:
    order = np.argsort(values, kind="stable")
    ranks = np.empty(len(values))
    ranks[order] = np.arange(1, len(values) + 1, dtype=np.float64)
    for v in np.unique(values):  # ties share their mean rank: the result ignores index order
        tied = values == v
        ranks[tied] = ranks[tied].mean()
    return ranks


# --- crossover: two parents -> two children ---
def crossover_block(a: np.ndarray, b: np.ndarray, rng: np.random.Generator,
                    blocks: list[slice]) -> tuple[np.ndarray, np.ndarray]:
    """Swap whole blocks (a phase's positional matrix, its mobility weights, ...), each with
    probability 1/2, as the seed project exchanged matrices between parents."""
    c1, c2 = a.copy(), b.copy()
    for block in blocks:
        if rng.random() < 0.5:
            c1[block], c2[block] = b[block], a[block]
    return c1, c2


def crossover_uniform(a: np.ndarray, b: np.ndarray, rng: np.random.Generator,
                      prob: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """Swap each gene independently with probability ``prob``."""
    swap = rng.random(len(a)) < prob
    return np.where(swap, b, a), np.where(swap, a, b)


def crossover_blend(a: np.ndarray, b: np.ndarray, rng: np.random.Generator, bounds: Bounds,
                    alpha: float = 0.3) -> tuple[np.ndarray, np.ndarray]:
    """BLX-alpha: each child gene uniform in the parents' interval widened by ``alpha`` on each
    side, clipped to bounds."""
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    span = hi - lo
    low, high = lo - alpha * span, hi + alpha * span
    c1 = low + rng.random(len(a)) * (high - low)
    c2 = low + rng.random(len(a)) * (high - low)
    return clip(c1, bounds), clip(c2, bounds)


# --- mutation ---
def mutate_gaussian(x: np.ndarray, rng: np.random.Generator, bounds: Bounds, sigma: float,
                    prob: float) -> np.ndarray:
    """Add N(0, (sigma * range)^2) to each gene with probability ``prob``; clip to bounds.
    ``sigma`` is relative to each gene's bound range, so one value suits weights of any scale."""
    low, high = bounds
    hit = rng.random(len(x)) < prob
    noise = rng.normal(0.0, 1.0, len(x)) * sigma * (high - low)
    return clip(np.where(hit, x + noise, x), bounds)


def sigma_at(generation: int, sigma: float, decay: float, sigma_min: float) -> float:
    """Mutation strength shrinking geometrically over generations, never below ``sigma_min``."""
    return max(sigma_min, sigma * decay**generation)


def clip(x: np.ndarray, bounds: Bounds) -> np.ndarray:
    return np.clip(x, bounds[0], bounds[1])


def diversity(genomes: np.ndarray, bounds: Bounds) -> float:
    """Mean per-gene standard deviation relative to the bound range (0 = all identical)."""
    span = np.where(bounds[1] > bounds[0], bounds[1] - bounds[0], 1.0)
    return float(np.mean(np.std(genomes, axis=0) / span))
