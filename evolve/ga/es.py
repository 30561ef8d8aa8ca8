"""A natural-gradient evolution strategy (Salimans et al. 2017, "Evolution Strategies as a
Scalable Alternative to Reinforcement Learning") as the search algorithm, behind the same
tournament fitness, config and outputs as the GA (``ga.algorithm=es``).

Each generation scores the centre and ``(population - 1) / 2`` antithetic pairs
``centre +- sigma * eps_j`` in the same tournament as any population; the fitness of the pairs
(shaped into centred ranks unless ``ga.es_shaping=none``) estimates the gradient of the
expected fitness at the centre,

    g = 1 / (2 P sigma) * sum_j (F(centre + sigma eps_j) - F(centre - sigma eps_j)) eps_j,

and the centre takes a gradient *ascent* step (plain, or Adam). Everything lives in the unit
cube of the gene bounds (one ``sigma`` and one learning rate fit every gene); an individual's
genome is its point clipped into the cube, mapped back to the bounds, while the estimate uses
the ``eps`` as drawn.

Determinism without pickle: generation g's ``eps`` come from ``SeedSequence([seed, ES_STREAM,
g])`` alone, and the state (centre, Adam moments, step) is plain JSON in the checkpoint. A
resumed run rebuilds the strategy from it and checks that it asks for exactly the checkpointed
population.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evolve.ga.population import Population, fit_into

ES_STREAM = 13  # SeedSequence([seed, ES_STREAM, generation]) draws a generation's perturbations
ADAM_BETAS = (0.9, 0.999)
ADAM_EPSILON = 1e-8


def centred_ranks(fitness: np.ndarray) -> np.ndarray:
    """Ranks scaled into [-0.5, 0.5] (Salimans et al.'s fitness shaping): the worst -0.5, the
    best 0.5, ties sharing their mean rank, so only the order of the fitness matters."""
    fitness = np.asarray(fitness, dtype=np.float64)
    if len(fitness) < 2:
        return np.zeros(len(fitness))
    order = np.argsort(fitness, kind="stable")
    ranks = np.empty(len(fitness))
    ranks[order] = np.arange(len(fitness), dtype=np.float64)
    for value in np.unique(fitness):
        tied = fitness == value
        ranks[tied] = ranks[tied].mean()
    return ranks / (len(fitness) - 1) - 0.5


def gradient(plus: np.ndarray, minus: np.ndarray, eps: np.ndarray, sigma: float) -> np.ndarray:
    """The antithetic estimate of the gradient of the expected fitness at the centre from the
    (shaped) fitness of each pair's ``+`` and ``-`` individual and the pairs' ``eps``
    (``[pairs, genes]``)."""
    pairs = len(eps)
    return (np.asarray(plus) - np.asarray(minus)) @ eps / (2 * pairs * sigma)


@dataclass(frozen=True)
class EsSettings:
    sigma: float
    learning_rate: float
    optimizer: str  # adam | sgd
    shaping: str  # ranks | none

    @classmethod
    def of(cls, ga) -> EsSettings:
        return cls(ga.es_sigma, ga.es_learning_rate, ga.es_optimizer, ga.es_shaping)


class EvolutionStrategy:
    def __init__(self, seed: int, bounds, start: np.ndarray, settings: EsSettings,
                 popsize: int):
        self.seed, self.settings, self.pairs = seed, settings, (popsize - 1) // 2
        self.low, self.high = (np.asarray(b, np.float64) for b in bounds)
        self.span = np.where(self.high > self.low, self.high - self.low, 1.0)
        self.centre = np.clip((fit_into(start, bounds) - self.low) / self.span, 0.0, 1.0)
        self.m = np.zeros_like(self.centre)
        self.v = np.zeros_like(self.centre)
        self.step = 0

    def perturbations(self, generation: int) -> np.ndarray:
        rng = np.random.default_rng(np.random.SeedSequence([self.seed, ES_STREAM, generation]))
        return rng.standard_normal((self.pairs, len(self.centre)))

    def points(self, generation: int) -> np.ndarray:
        """The generation's points in the unit cube: the centre, then each pair's + and -."""
        eps = self.perturbations(generation) * self.settings.sigma
        pairs = np.stack([self.centre + eps, self.centre - eps], axis=1)
        return np.vstack([self.centre[None, :], pairs.reshape(-1, len(self.centre))])

    def ask(self, generation: int) -> np.ndarray:
        """The genomes generation ``generation`` scores (centre first)."""
        return self.low + np.clip(self.points(generation), 0.0, 1.0) * self.span

    def tell(self, generation: int, fitness) -> None:
        """Fitness of ``ask(generation)`` (higher is better): one step of the centre."""
        fitness = np.asarray(fitness, dtype=np.float64)[1:]  # the centre is not in the estimate
        shaped = centred_ranks(fitness) if self.settings.shaping == "ranks" else fitness
        g = gradient(shaped[0::2], shaped[1::2], self.perturbations(generation),
                     self.settings.sigma)
        self.centre = np.clip(self.centre + self.update(g), 0.0, 1.0)

    def update(self, g: np.ndarray) -> np.ndarray:
        lr = self.settings.learning_rate
        if self.settings.optimizer == "sgd":
            return lr * g
        b1, b2 = ADAM_BETAS
        self.step += 1
        self.m = b1 * self.m + (1 - b1) * g
        self.v = b2 * self.v + (1 - b2) * g * g
        m_hat = self.m / (1 - b1**self.step)
        v_hat = self.v / (1 - b2**self.step)
        return lr * m_hat / (np.sqrt(v_hat) + ADAM_EPSILON)

    def state(self) -> dict:
        """The checkpoint's ``algorithm_state``: plain JSON (floats round-trip exactly)."""
        return {"es": {"centre": self.centre.tolist(), "m": self.m.tolist(),
                       "v": self.v.tolist(), "step": self.step}}

    def restore(self, state: dict) -> EvolutionStrategy:
        saved = state["es"]
        self.centre, self.m, self.v = (np.array(saved[k], dtype=np.float64)
                                       for k in ("centre", "m", "v"))
        self.step = int(saved["step"])
        return self


OPERATORS = ("es_plus", "es_minus")


def population_of(genomes: np.ndarray, first_id: int) -> Population:
    """The ES's individuals: the centre, then each pair's + and -; no parents."""
    n = len(genomes)
    none = np.full(n, -1, dtype=np.int64)
    operator = ["es_centre", *(OPERATORS[k % 2] for k in range(n - 1))]
    return Population(genomes, np.arange(first_id, first_id + n, dtype=np.int64), none,
                      none.copy(), operator)


def rebuilt(search: EvolutionStrategy, state: dict, generation: int,
            asks) -> tuple[EvolutionStrategy, np.ndarray]:
    """``search`` with the checkpointed ``state`` and what it asks at ``generation``, which
    ``asks(asked)`` must accept (the checkpointed population, or its digest), else the run
    would silently differ."""
    search.restore(state)
    asked = search.ask(generation)
    if not asks(asked):
        raise ValueError("the evolution strategy rebuilt from the checkpoint does not reproduce "
                         "its population")
    return search, asked
