"""The natural-gradient evolution strategy (``evolve.ga.es``) on functions whose gradient is
known: its antithetic estimate, the fitness shaping, the optimisers' steps, the perturbations
drawn from the seed alone, and the JSON state it is rebuilt from."""

import json

import numpy as np
import pytest
from scipy.stats import rankdata

from evolve.ga.es import EsSettings, EvolutionStrategy, centred_ranks, population_of, rebuilt

D = 4
UNIT = (np.zeros(D), np.ones(D))  # bounds = the unit cube: a genome is its point
CENTRE = np.full(D, 0.5)
A = np.array([1.0, 2.0, 0.5, 3.0])
OPTIMUM = np.array([0.2, 0.7, 0.4, 0.55])


def quadratic(x):
    """A concave quadratic, maximal at ``OPTIMUM``; its gradient is ``-2 A (x - OPTIMUM)``."""
    return -np.sum(A * (np.atleast_2d(x) - OPTIMUM) ** 2, axis=1)


def true_gradient(x):
    return -2 * A * (x - OPTIMUM)


def strategy(pairs=3, sigma=0.01, lr=1e-6, optimizer="sgd", shaping="none", seed=3,
             start=CENTRE):
    return EvolutionStrategy(seed, UNIT, start, EsSettings(sigma, lr, optimizer, shaping),
                             2 * pairs + 1)


def measured_gradient(es, f, generation=0):
    """The step ``tell`` takes, divided by the SGD learning rate: the gradient estimate."""
    before = es.centre.copy()
    es.tell(generation, f(es.ask(generation)))
    return (es.centre - before) / es.settings.learning_rate


def test_centred_ranks_are_scipys_ranks_scaled_into_minus_half_half():
    fitness = np.array([3.0, -1.0, 3.0, 7.5, 0.0, -1.0, 2.0])
    expected = (rankdata(fitness) - 1) / (len(fitness) - 1) - 0.5
    assert np.allclose(centred_ranks(fitness), expected)
    distinct = centred_ranks(np.array([2.0, -3.0, 9.0, 0.5]))
    assert np.allclose(distinct, [1 / 6, -0.5, 0.5, -1 / 6])
    assert distinct.min() == -0.5 and distinct.max() == 0.5


def test_the_antithetic_estimate_on_a_quadratic_is_exactly_the_directional_formula():
    """For a quadratic, f(c + s e) - f(c - s e) = 2 s grad . e exactly, so the estimate with the
    raw fitness must be (1 / P) sum (grad . e) e over the drawn pairs."""
    es = strategy(pairs=50)
    eps = es.perturbations(0)
    expected = (eps @ true_gradient(CENTRE)) @ eps / len(eps)
    assert np.allclose(measured_gradient(es, quadratic), expected, rtol=1e-6, atol=1e-6)


def test_the_estimate_converges_to_the_true_gradient():
    pairs = 20_000
    es = strategy(pairs=pairs)
    grad = true_gradient(CENTRE)
    got = measured_gradient(es, quadratic)
    # per gene, (grad . e) e_i has variance |grad|^2 + grad_i^2: five standard errors
    tolerance = 5 * np.sqrt((grad @ grad + grad**2) / pairs)
    assert np.all(np.abs(got - grad) < tolerance), (got, grad)


def test_centred_ranks_keep_the_gradients_direction():
    grad = true_gradient(CENTRE)
    got = measured_gradient(strategy(pairs=5000, shaping="ranks"), quadratic)
    cosine = got @ grad / np.linalg.norm(got) / np.linalg.norm(grad)
    assert cosine > 0.85
    # ranks ignore a monotone transformation of the fitness: exp(10 f) gives the same step
    warped = measured_gradient(strategy(pairs=5000, shaping="ranks"),
                               lambda x: np.exp(10 * quadratic(x)))
    assert np.array_equal(got, warped)


def test_adams_first_step_moves_every_gene_by_the_learning_rate_along_the_gradient():
    es = strategy(pairs=200, lr=0.01, optimizer="adam", shaping="ranks")
    estimate = measured_gradient(strategy(pairs=200, lr=1e-9, shaping="ranks"), quadratic)
    before = es.centre.copy()
    es.tell(0, quadratic(es.ask(0)))
    # step 1: m_hat = g, v_hat = g^2, so the update is lr * g / (|g| + 1e-8)
    assert np.allclose(es.centre - before, 0.01 * np.sign(estimate), atol=1e-8)
    assert es.step == 1


def test_the_strategy_climbs_a_quadratic_to_its_optimum():
    es = strategy(pairs=10, sigma=0.05, lr=0.02, optimizer="adam", shaping="ranks")
    for g in range(300):
        es.tell(g, quadratic(es.ask(g)))
    assert np.max(np.abs(es.centre - OPTIMUM)) < 0.05


def test_perturbations_come_from_the_seed_and_generation_alone():
    np.random.seed(1)
    a = strategy(seed=4).perturbations(2)
    np.random.seed(2)
    assert np.array_equal(a, strategy(seed=4).perturbations(2))
    assert not np.array_equal(a, strategy(seed=4).perturbations(3))
    assert not np.array_equal(a, strategy(seed=5).perturbations(2))


def test_the_population_is_the_centre_then_mirrored_pairs_clipped_into_the_bounds():
    es = strategy(pairs=3, sigma=0.02)
    x = es.ask(0)
    assert np.array_equal(x[0], CENTRE)
    assert np.allclose((x[1::2] + x[2::2]) / 2, CENTRE)  # each pair mirrors about the centre
    edge = strategy(pairs=50, sigma=0.5, start=np.array([0.0, 1.0, 0.5, 0.5])).ask(0)
    assert edge.min() == 0.0 and edge.max() == 1.0  # clipped, not outside
    pop = population_of(x, 10)
    assert pop.operator == ["es_centre", "es_plus", "es_minus"] * 1 + ["es_plus", "es_minus"] * 2
    assert list(pop.ids) == list(range(10, 17))


def test_the_state_round_trips_through_json_and_rebuilds_the_same_strategy():
    es = strategy(pairs=4, sigma=0.05, lr=0.01, optimizer="adam", shaping="ranks")
    for g in range(3):
        es.tell(g, quadratic(es.ask(g)))
    state = json.loads(json.dumps(es.state()))
    expected = es.ask(3)
    again, asked = rebuilt(strategy(pairs=4, sigma=0.05, lr=0.01, optimizer="adam",
                                    shaping="ranks"), state, 3,
                           lambda x: np.array_equal(x, expected))
    assert np.array_equal(asked, expected)
    for g in (3, 4):
        fitness = quadratic(es.ask(g))
        es.tell(g, fitness)
        again.tell(g, fitness)
    assert np.array_equal(es.centre, again.centre) and np.array_equal(es.v, again.v)
    with pytest.raises(ValueError, match="does not reproduce"):
        rebuilt(strategy(pairs=4, sigma=0.05), state, 4,
                lambda x: np.array_equal(x, es.ask(5)))
