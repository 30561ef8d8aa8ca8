"""CMA-ES (the ``cma`` package) as the search algorithm, behind the same tournament fitness,
config and outputs as the GA (``ga.algorithm=cmaes``; ``ga.cma_diagonal=true``: separable).

The ES works in the unit cube (each gene's bounds mapped to [0, 1], so one step size fits every
gene) and starts from the first seed reference. Determinism without pickle: its samples come
from our own ``np.random.Generator`` (``SeedSequence([seed, CMA_STREAM])``, through cma's
``randn`` option, never numpy's global state), and its state is not saved: the checkpoint holds
the fitness of every generation told so far, and a resumed run rebuilds the ES by replaying
ask/tell, which repeats the same samples and the same updates exactly (checked against the
checkpointed population).
"""

from __future__ import annotations

import numpy as np

from evolve.ga.population import Population, fit_into

CMA_STREAM = 11  # SeedSequence([seed, CMA_STREAM]) drives the ES's samples


MAX_FULL_GENES = 2000  # full CMA-ES above this: an N x N covariance and its eigendecomposition


class CmaSearch:
    """``diagonal``: separable CMA-ES (cma's ``CMA_diagonal``: a diagonal covariance, memory and
    time linear in the genes), for genomes of thousands of genes."""

    def __init__(self, seed: int, bounds, start: np.ndarray, sigma0: float, popsize: int,
                 diagonal: bool = False):
        import cma

        self.low, self.high = (np.asarray(b, np.float64) for b in bounds)
        self.span = np.where(self.high > self.low, self.high - self.low, 1.0)
        rng = np.random.default_rng(np.random.SeedSequence([seed, CMA_STREAM]))
        x0 = np.clip((fit_into(start, bounds) - self.low) / self.span, 0.0, 1.0)
        options = {"popsize": popsize, "bounds": [0.0, 1.0], "seed": np.nan, "verbose": -9,
                   "verb_disp": 0, "verb_log": 0,
                   "randn": lambda *shape: rng.standard_normal(shape)}
        if diagonal:  # only then: the full CMA-ES's options stay those of earlier runs
            options["CMA_diagonal"] = True
        self.es = cma.CMAEvolutionStrategy(list(x0), sigma0, options)
        self.asked: list | None = None

    def ask(self) -> np.ndarray:
        """The next generation's genomes."""
        self.asked = self.es.ask()
        return np.array([self.low + np.asarray(x) * self.span for x in self.asked])

    def tell(self, fitness) -> None:
        """Fitness of the last ``ask`` (higher is better; cma minimises)."""
        self.es.tell(self.asked, [-float(f) for f in fitness])


def population_of(genomes: np.ndarray, first_id: int) -> Population:
    n = len(genomes)
    none = np.full(n, -1, dtype=np.int64)
    return Population(genomes, np.arange(first_id, first_id + n, dtype=np.int64), none,
                      none.copy(), ["cmaes"] * n)


def rebuilt(search: CmaSearch, told: list[list[float]], asks) -> tuple[CmaSearch, np.ndarray]:
    """Replay ``told`` (fitness per generation) on a fresh ``search``, then ask once: the
    search and what it asked, which ``asks(asked)`` must accept (it is the checkpointed
    population, or its digest), else the ES would silently differ."""
    for fitness in told:
        search.ask()
        search.tell(fitness)
    asked = search.ask()
    if not asks(asked):
        raise ValueError("the CMA-ES rebuilt from the checkpoint does not reproduce its "
                         "population (a different cma version?)")
    return search, asked
