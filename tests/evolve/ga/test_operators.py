"""GA operators: bounds respected, parents' genes conserved, selection pressure as specified,
and results depend only on the explicit generator."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evolve.ga import operators as ops
from evolve.ga.configuration.config import GAConfig
from evolve.ga.population import breed, fit_into, initial_population

N = 12
BOUNDS = (np.full(N, -1.0), np.full(N, 1.0))
BLOCKS = [slice(0, 4), slice(4, 6), slice(6, 12)]


def genomes(rng, n=2):
    return [rng.uniform(-1, 1, N) for _ in range(n)]


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_every_operator_stays_within_bounds(seed):
    rng = np.random.default_rng(seed)
    a, b = genomes(rng)
    children = [*ops.crossover_block(a, b, rng, BLOCKS), *ops.crossover_uniform(a, b, rng),
                *ops.crossover_blend(a, b, rng, BOUNDS, alpha=2.0),
                ops.mutate_gaussian(a, rng, BOUNDS, sigma=5.0, prob=1.0)]
    for child in children:
        assert np.all(child >= -1.0) and np.all(child <= 1.0)


def test_block_crossover_swaps_whole_blocks_and_conserves_genes():
    rng = np.random.default_rng(1)
    a, b = np.arange(N, dtype=float), -np.arange(N, dtype=float) - 1
    seen_swapped = set()
    for _ in range(50):
        c1, c2 = ops.crossover_block(a, b, rng, BLOCKS)
        for k, block in enumerate(BLOCKS):
            swapped = np.array_equal(c1[block], b[block])
            assert swapped or np.array_equal(c1[block], a[block])  # never a partial block
            assert np.array_equal(c2[block], a[block] if swapped else b[block])
            if swapped:
                seen_swapped.add(k)
    assert seen_swapped == {0, 1, 2}


def test_uniform_crossover_conserves_each_gene_pair():
    rng = np.random.default_rng(2)
    a, b = genomes(rng)
    c1, c2 = ops.crossover_uniform(a, b, rng, prob=0.5)
    assert np.array_equal(np.sort(np.stack([c1, c2]), axis=0), np.sort(np.stack([a, b]), axis=0))


def test_blend_with_zero_alpha_stays_between_parents():
    rng = np.random.default_rng(3)
    a, b = genomes(rng)
    for c in ops.crossover_blend(a, b, rng, BOUNDS, alpha=0.0):
        assert np.all(c >= np.minimum(a, b)) and np.all(c <= np.maximum(a, b))


def test_operators_do_not_modify_their_inputs():
    rng = np.random.default_rng(4)
    a, b = genomes(rng)
    a0, b0 = a.copy(), b.copy()
    ops.crossover_block(a, b, rng, BLOCKS)
    ops.crossover_uniform(a, b, rng)
    ops.crossover_blend(a, b, rng, BOUNDS)
    ops.mutate_gaussian(a, rng, BOUNDS, 0.5, 1.0)
    assert np.array_equal(a, a0) and np.array_equal(b, b0)


def test_mutation_probability_controls_how_many_genes_change():
    rng = np.random.default_rng(5)
    x = np.zeros(10_000)
    bounds = (np.full(10_000, -1.0), np.full(10_000, 1.0))
    assert np.array_equal(ops.mutate_gaussian(x, rng, bounds, 0.1, prob=0.0), x)
    changed = np.mean(ops.mutate_gaussian(x, rng, bounds, 0.1, prob=0.3) != x)
    assert 0.28 < changed < 0.32
    # sigma is relative to the bound range (2.0 here)
    y = ops.mutate_gaussian(x, rng, bounds, 0.05, prob=1.0)
    assert abs(np.std(y) - 0.1) < 0.005


def test_sigma_shrinks_geometrically_down_to_its_floor():
    assert ops.sigma_at(0, 0.2, 0.5, 0.03) == 0.2
    assert ops.sigma_at(2, 0.2, 0.5, 0.03) == pytest.approx(0.05)
    assert ops.sigma_at(10, 0.2, 0.5, 0.03) == 0.03


def test_tournament_selection_of_full_size_always_picks_the_best():
    rng = np.random.default_rng(6)
    fitness = np.array([3.0, 9.0, -1.0, 9.0, 0.0])
    assert set(ops.select_tournament(fitness, 20, rng, size=5)) == {1}  # tie -> lower index


def test_tournament_selection_never_picks_the_worst_with_size_two_or_more():
    rng = np.random.default_rng(7)
    fitness = np.array([5.0, 1.0, 3.0, 4.0])
    picks = ops.select_tournament(fitness, 500, rng, size=2)
    assert 1 not in picks and np.sum(picks == 0) > np.sum(picks == 2)


def test_rank_selection_matches_rank_probabilities():
    rng = np.random.default_rng(8)
    fitness = np.array([100.0, -50.0, 7.0])  # ranks 3, 1, 2 -> probabilities 3/6, 1/6, 2/6
    picks = ops.select_rank(fitness, 60_000, rng)
    freq = np.bincount(picks, minlength=3) / len(picks)
    assert np.allclose(freq, [0.5, 1 / 6, 1 / 3], atol=0.01)


def test_operators_are_reproducible_from_the_generator_alone():
    def draw(seed):
        rng = np.random.default_rng(seed)
        a, b = genomes(rng)
        return np.concatenate([*ops.crossover_blend(a, b, rng, BOUNDS),
                               ops.mutate_gaussian(a, rng, BOUNDS, 0.1, 0.5),
                               ops.select_rank(np.arange(5.0), 3, rng)])
    assert np.array_equal(draw(9), draw(9))
    assert not np.array_equal(draw(9), draw(10))


def test_diversity_is_zero_for_clones_and_grows_with_spread():
    same = np.tile(np.linspace(-1, 1, N), (5, 1))
    assert ops.diversity(same, BOUNDS) == 0.0
    rng = np.random.default_rng(11)
    uniform_std = 2 / np.sqrt(12)  # of U(-1, 1), relative to the range 2 below
    assert ops.diversity(rng.uniform(-1, 1, (50, N)), BOUNDS) == pytest.approx(uniform_std / 2,
                                                                               abs=0.02)


def test_fit_into_scales_references_without_changing_their_ratios():
    course_like = np.array([1.0, 8.0, 3.0, -2.0, 0.0])
    bounds = (np.full(5, -1.0), np.full(5, 1.0))
    fitted = fit_into(course_like, bounds)
    assert np.max(np.abs(fitted)) == 1.0
    assert np.allclose(fitted * 8.0, course_like)
    small = np.array([0.5, -0.25, 0.0, 0.1, 0.2])
    assert np.array_equal(fit_into(small, bounds), small)


def test_initial_population_mixes_seeded_and_random_individuals():
    rng = np.random.default_rng(12)
    refs = {"a": np.full(N, 0.5), "b": np.full(N, -0.5)}
    pop = initial_population(10, refs, BOUNDS, rng, seeded_fraction=0.4, seed_noise=0.01,
                             random_scope=0.5)
    assert pop.operator == ["seed:a", "seed:b", "seed:a", "seed:b"] + ["random"] * 6
    assert np.array_equal(pop.genomes[0], refs["a"]) and np.array_equal(pop.genomes[1], refs["b"])
    assert np.allclose(pop.genomes[2], refs["a"], atol=0.1)
    assert not np.array_equal(pop.genomes[2], refs["a"])
    assert np.all(np.abs(pop.genomes[4:]) <= 0.5)  # scoped: centred half of [-1, 1]
    assert list(pop.ids) == list(range(10))


def test_breed_keeps_the_elites_unchanged_and_fills_with_fresh_ids():
    rng = np.random.default_rng(13)
    pop = initial_population(6, {}, BOUNDS, rng, 0.0, 0.0, 1.0)
    fitness = np.array([1.0, 5.0, -3.0, 5.0, 0.0, 2.0])
    ga = GAConfig(population=6, elites=2)
    nxt = breed(pop, fitness, rng, ga, BOUNDS, BLOCKS, generation=0, next_id=6)
    assert list(nxt.ids[:2]) == [1, 3] and nxt.operator[:2] == ["elite", "elite"]
    assert np.array_equal(nxt.genomes[0], pop.genomes[1])
    assert np.array_equal(nxt.genomes[1], pop.genomes[3])
    assert list(nxt.ids[2:]) == [6, 7, 8, 9]
    assert all(op.endswith("+mutation") for op in nxt.operator[2:])
    assert set(nxt.parent_a[2:]) | set(nxt.parent_b[2:]) <= set(pop.ids)
    assert np.all(np.abs(nxt.genomes) <= 1.0)


def test_breed_caps_the_tournament_at_the_population_size():
    # population 2 with the default 3-way tournament: both individuals enter every tournament,
    # so the better one is always picked as both parents
    rng = np.random.default_rng(5)
    pop = initial_population(2, {}, BOUNDS, rng, 0.0, 0.0, 1.0)
    ga = GAConfig(population=2, elites=0, tournament_size=3, crossover="none", mutation_prob=0.0)
    nxt = breed(pop, np.array([0.0, 1.0]), rng, ga, BOUNDS, BLOCKS, generation=0, next_id=2)
    assert list(nxt.parent_a) == list(nxt.parent_b) == [1, 1]
    assert np.array_equal(nxt.genomes[0], pop.genomes[1])


def test_elite_copies_and_immigrants_take_their_slots_only_when_asked():
    from evolve.ga.population import Population, breed

    rng = np.random.default_rng(0)
    low, high = np.full(6, -1.0), np.full(6, 1.0)
    genomes = rng.uniform(-0.01, 0.01, (6, 6))
    pop = Population(genomes, np.arange(6), np.full(6, -1), np.full(6, -1), ["random"] * 6)
    fitness = np.arange(6.0)
    ga = GAConfig(population=6, elites=1, elite_copies=2, immigrants=2, immigrant_below=0.05)
    low_diversity = breed(pop, fitness, np.random.default_rng(1), ga, (low, high), [slice(0, 6)],
                          0, 6, diversity=0.01)
    assert low_diversity.operator[:5] == ["elite", "elite_copy", "elite_copy", "immigrant",
                                          "immigrant"]
    assert np.array_equal(low_diversity.genomes[0], genomes[5])  # the best, unchanged
    assert list(low_diversity.parent_a[1:3]) == [5, 5]  # copies of the best
    assert not np.array_equal(low_diversity.genomes[1], genomes[5])  # ... mutated
    assert np.all(np.abs(low_diversity.genomes[3:5]) > 0.0)
    diverse = breed(pop, fitness, np.random.default_rng(1), ga, (low, high), [slice(0, 6)], 0, 6,
                    diversity=0.5)
    assert "immigrant" not in diverse.operator and diverse.operator.count("elite_copy") == 2
    legacy = GAConfig(population=6, elites=1)
    a = breed(pop, fitness, np.random.default_rng(1), legacy, (low, high), [slice(0, 6)], 0, 6)
    b = breed(pop, fitness, np.random.default_rng(1), legacy, (low, high), [slice(0, 6)], 0, 6,
              diversity=0.0)
    assert np.array_equal(a.genomes, b.genomes)  # off by default: breeding as before


def test_fitness_sharing_divides_rank_by_niche_count():
    from evolve.ga.operators import shared_fitness

    bounds = (np.full(4, -1.0), np.full(4, 1.0))
    clones = np.zeros((3, 4))
    loner = np.array([[0.8, -0.8, 0.8, -0.8]])
    genomes = np.vstack([clones, loner])
    fitness = np.array([10.0, 10.0, 10.0, -30.0])
    shared = shared_fitness(fitness, genomes, bounds, radius=0.1)
    # the three clones tie at mean rank 3 and share one niche of 3; the loner keeps its rank 1
    assert np.allclose(shared, [1.0, 1.0, 1.0, 1.0])
    # by hand: distance 0.05 (relative RMS) between two individuals at radius 0.1 -> weight 0.5
    pair = np.array([[0.0, 0.0, 0.0, 0.0], [0.1, 0.1, 0.1, 0.1]])
    assert np.allclose(shared_fitness(np.array([1.0, 2.0]), pair, bounds, 0.1), [1 / 1.5, 2 / 1.5])
    # scale- and shift-free: only the order of the scores matters
    assert np.allclose(shared_fitness(fitness * 3 + 7, genomes, bounds, 0.1), shared)


def test_fitness_sharing_changes_parents_only_when_switched_on():
    from evolve.ga.population import Population, breed

    low, high = np.full(6, -1.0), np.full(6, 1.0)
    genomes = np.vstack([np.zeros((5, 6)), np.full((1, 6), 0.9)])
    pop = Population(genomes, np.arange(6), np.full(6, -1), np.full(6, -1), ["random"] * 6)
    fitness = np.array([5.0, 4.0, 3.0, 2.0, 1.0, 0.0])  # the loner is the worst
    counts = {}
    for radius in (0.0, 0.2):
        ga = GAConfig(population=6, elites=1, sharing_radius=radius, crossover="none")
        parents = []
        for seed in range(200):
            nxt = breed(pop, fitness, np.random.default_rng(seed), ga, (low, high),
                        [slice(0, 6)], 0, 6)
            parents += list(nxt.parent_a[1:]) + list(nxt.parent_b[1:])
        counts[radius] = parents.count(5) / len(parents)
    # 3-way tournaments: the worst never wins on raw fitness; sharing makes the loner a parent
    assert counts[0.0] == 0.0 and counts[0.2] > 0.1


def test_sharing_radius_is_validated():
    from evolve.errors import ConfigError
    from evolve.ga.configuration.validation import _validate_ga

    _validate_ga(GAConfig(sharing_radius=0.1))
    with pytest.raises(ConfigError, match="ga.sharing_radius"):
        _validate_ga(GAConfig(sharing_radius=-0.1))
