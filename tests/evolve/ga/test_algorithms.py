"""The GA, CMA-ES and the ES behind one interface (``evolve.ga.algorithms``): each makes a
first population, advances it from a scored one, gives the new individuals fresh ids and says
what its checkpoint keeps."""

import json

import numpy as np
import pytest

from evolve.ga import algorithms
from evolve.ga.configuration.config import resolve
from evolve.ga.context import StudyContext
from evolve.ga.operators import diversity
from evolve.ga.population import breed
from tests.evolve.ga.test_determinism import config


def context(tmp_path, algorithm: str) -> StudyContext:
    return StudyContext(resolve(config(f"ga.algorithm={algorithm}", "backend=serial")), tmp_path)


@pytest.mark.parametrize("algorithm, new", [("ga", 4), ("cmaes", 5), ("es", 5)])
def test_every_algorithm_makes_and_advances_a_population(tmp_path, algorithm, new):
    ctx = context(tmp_path, algorithm)
    algo = algorithms.new(ctx, np.random.default_rng(1))
    assert isinstance(algo, algorithms.Algorithm)
    first = algo.first(0)
    n = ctx.config.ga.population
    assert first.genomes.shape == (n, ctx.resolved.spec.size)
    assert list(first.ids) == list(range(n))
    fitness = np.arange(n, dtype=np.float64)
    second = algo.advance(0, first, fitness, n)
    assert algo.new_per_generation == new  # the GA's elites keep their ids
    assert set(second.ids) - set(first.ids) == set(range(n, n + new))
    json.dumps(algo.state())  # plain JSON, for the checkpoint


def test_the_ga_breeds_from_the_studys_generator(tmp_path):
    ctx = context(tmp_path, "ga")
    rng, again = np.random.default_rng(3), np.random.default_rng(3)
    ga = algorithms.new(ctx, rng)
    pop = ga.first(0)
    again.bit_generator.state = rng.bit_generator.state
    fitness = np.linspace(0.0, 1.0, len(pop))
    bred = ga.advance(2, pop, fitness, 10)
    blocks = list(ctx.resolved.spec.blocks.values())
    expected = breed(pop, fitness, again, ctx.config.ga, ctx.bounds, blocks, 2, 10,
                     diversity(pop.genomes, ctx.bounds))
    np.testing.assert_array_equal(bred.genomes, expected.genomes)
    assert ga.state() == {}  # the generator is the study's, checkpointed with the population
