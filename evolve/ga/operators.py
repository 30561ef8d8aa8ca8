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
    # one row at a time: the same sums as an (n, n, genes) array, without its memory at
    # thousands of genes
    d = np.array([np.sqrt(np.mean((x[i] - x) ** 2, axis=1)) for i in range(len(x))])
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
    """Swap whole blocks (a phase's positional matrix, its mobility weights, an n-tuple
    network's lookup table, ...), each with probability 1/2, as the seed project exchanged
    matrices between parents. One draw per block, in block order (all drawn at once: the same
    numbers as one call each); a gene in several blocks is swapped if any of them is."""
    swap = rng.random(len(blocks)) < 0.5
    take_b = np.zeros(len(a), dtype=bool)
    for block in (b for b, swapped in zip(blocks, swap, strict=True) if swapped):
        take_b[block] = True
    return np.where(take_b, b, a), np.where(take_b, a, b)


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


def mutate_genes(x: np.ndarray, rng: np.random.Generator, bounds: Bounds, sigma: float,
                 k: int) -> np.ndarray:
    """Sparse mutation: exactly ``k`` distinct genes drawn at random each get
    N(0, (sigma * range)^2), folded back into their bounds (reflected at a bound, as often as
    it takes), so each of the ``k`` changes, a gene at a bound included, and no other does."""
    genes = rng.choice(len(x), size=k, replace=False)
    low, high = bounds[0][genes], bounds[1][genes]
    noise = rng.normal(0.0, 1.0, k) * sigma * (high - low)
    y = x.copy()
    y[genes] = fold(x[genes] + noise, low, high)
    return y


def mutate_blocks(x: np.ndarray, rng: np.random.Generator, bounds: Bounds, sigma: float,
                  prob: float, blocks: list[slice], k: int) -> np.ndarray:
    """Per-block mutation: ``k`` distinct blocks drawn at random (one lookup table of an
    n-tuple network, say), each of their genes mutated as ``mutate_gaussian`` does with
    ``prob``; the genes of the other blocks stay as they are."""
    y = x.copy()
    for i in np.sort(rng.choice(len(blocks), size=k, replace=False)):
        block = blocks[int(i)]
        y[block] = mutate_gaussian(x[block], rng, (bounds[0][block], bounds[1][block]), sigma,
                                   prob)
    return y


def fold(v: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """``v`` reflected into ``[low, high]`` at both bounds (period twice the range); a gene
    whose bounds are equal stays at them."""
    span = high - low
    safe = np.where(span > 0, span, 1.0)
    u = np.mod(v - low, 2 * safe)
    return np.where(span > 0, low + np.where(u <= safe, u, 2 * safe - u), low)


def sigma_at(generation: int, sigma: float, decay: float, sigma_min: float) -> float:
    """Mutation strength shrinking geometrically over generations, never below ``sigma_min``."""
    return max(sigma_min, sigma * decay**generation)


def clip(x: np.ndarray, bounds: Bounds) -> np.ndarray:
    return np.clip(x, bounds[0], bounds[1])


def diversity(genomes: np.ndarray, bounds: Bounds) -> float:
    """Mean per-gene standard deviation relative to the bound range (0 = all identical)."""
    span = np.where(bounds[1] > bounds[0], bounds[1] - bounds[0], 1.0)
    return float(np.mean(np.std(genomes, axis=0) / span))
