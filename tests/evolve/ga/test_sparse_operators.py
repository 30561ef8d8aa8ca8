"""Operators for genomes of thousands of genes (n-tuple networks' lookup tables): sparse
mutation changes exactly the genes it says, per-block mutation stays inside its blocks, block
crossover exchanges whole tables at that scale with the draws of the one-draw-per-block rule,
and fitness sharing gives the same numbers without an (n, n, genes) array."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evolve.ga import operators as ops
from evolve.ga.configuration.config import GAConfig
from evolve.ga.population import Population, breed

TABLE = 81  # one 4-tuple's lookup table (3 ** 4 entries)
TABLES = 40
N = TABLE * TABLES  # 3,240 genes
BOUNDS = (np.full(N, -1.0), np.full(N, 1.0))
BLOCKS = [slice(k * TABLE, (k + 1) * TABLE) for k in range(TABLES)]


@given(st.integers(0, 2**32 - 1), st.integers(1, 50))
@settings(max_examples=40, deadline=None)
def test_sparse_mutation_changes_exactly_k_genes_and_stays_in_bounds(seed, k):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, N)
    x[:20] = 1.0  # genes at a bound change too: the noise is reflected, never clipped away
    x[20:40] = -1.0
    child = ops.mutate_genes(x, rng, BOUNDS, sigma=0.3, k=k)
    assert np.count_nonzero(child != x) == k
    assert np.all(child >= -1.0) and np.all(child <= 1.0)


def test_sparse_mutation_with_huge_noise_still_changes_exactly_k_genes_in_bounds():
    rng = np.random.default_rng(1)
    x = np.zeros(N)
    child = ops.mutate_genes(x, rng, BOUNDS, sigma=50.0, k=300)
    assert np.count_nonzero(child != x) == 300
    assert np.all(np.abs(child) <= 1.0)


def test_fold_reflects_into_the_bounds_and_leaves_inner_values_alone():
    low, high = np.full(6, -1.0), np.full(6, 1.0)
    v = np.array([0.25, 1.5, -1.25, 3.5, -5.0, 1.0])
    # by hand: 1.5 -> 0.5 (reflected at 1), -1.25 -> -0.75, 3.5 -> -0.5 (twice), -5 -> -1 (+ 4)
    assert np.allclose(ops.fold(v, low, high), [0.25, 0.5, -0.75, -0.5, -1.0, 1.0])
    assert ops.fold(np.array([7.0]), np.array([2.0]), np.array([2.0]))[0] == 2.0


def test_sparse_mutation_picks_the_genes_from_the_generator_alone():
    x = np.zeros(N)
    a = ops.mutate_genes(x, np.random.default_rng(5), BOUNDS, 0.1, 10)
    b = ops.mutate_genes(x, np.random.default_rng(5), BOUNDS, 0.1, 10)
    c = ops.mutate_genes(x, np.random.default_rng(6), BOUNDS, 0.1, 10)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert np.array_equal(x, np.zeros(N))  # the input is left alone


def test_per_block_mutation_changes_only_the_genes_of_k_blocks():
    rng = np.random.default_rng(2)
    for _ in range(20):
        x = rng.uniform(-1, 1, N)
        child = ops.mutate_blocks(x, rng, BOUNDS, 0.2, 1.0, BLOCKS, k=3)
        changed = [k for k, b in enumerate(BLOCKS) if np.any(child[b] != x[b])]
        assert len(changed) == 3
        for k in changed:  # probability 1: every gene of a chosen block (none at a bound here)
            assert np.all(child[BLOCKS[k]] != x[BLOCKS[k]])
    half = ops.mutate_blocks(np.zeros(N), rng, BOUNDS, 0.2, 0.5, BLOCKS, k=TABLES)
    assert 0.45 < np.mean(half != 0) < 0.55


def old_crossover_block(a, b, rng, blocks):
    """Block crossover as it was written before genomes had thousands of blocks: one draw per
    block, in order (the reference the vectorised one must equal draw for draw)."""
    c1, c2 = a.copy(), b.copy()
    for block in blocks:
        if rng.random() < 0.5:
            c1[block], c2[block] = b[block], a[block]
    return c1, c2


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_block_crossover_makes_the_children_the_one_draw_per_block_loop_makes(seed):
    gen = np.random.default_rng(seed)
    n = int(gen.integers(5, 400))
    a, b = gen.normal(size=n), gen.normal(size=n)
    cuts = sorted(set(gen.integers(1, n, size=int(gen.integers(1, 30))).tolist()))
    blocks = [slice(x, y) for x, y in zip([0, *cuts], [*cuts, n], strict=True)]
    blocks.append(slice(int(gen.integers(0, n)), n))  # overlapping blocks, as a layout may have
    r1, r2 = np.random.default_rng(seed), np.random.default_rng(seed)
    for old, new in zip(old_crossover_block(a, b, r1, blocks),
                        ops.crossover_block(a, b, r2, blocks), strict=True):
        assert np.array_equal(old, new)
    assert r1.random() == r2.random()  # and the generator is left in the same state


def test_block_crossover_exchanges_whole_tables_about_half_of_them():
    rng = np.random.default_rng(3)
    a, b = np.zeros(N), np.ones(N)
    c1, c2 = ops.crossover_block(a, b, rng, BLOCKS)
    from_b = [bool(np.all(c1[blk] == 1.0)) for blk in BLOCKS]
    for blk, swapped in zip(BLOCKS, from_b, strict=True):
        assert np.all(c1[blk] == (1.0 if swapped else 0.0))  # never part of a table
        assert np.all(c2[blk] == (0.0 if swapped else 1.0))
    assert 10 < sum(from_b) < 30


def test_fitness_sharing_equals_the_pairwise_array_formula():
    rng = np.random.default_rng(4)
    genomes = rng.uniform(-1, 1, (9, 500))
    genomes[3] = genomes[5]
    fitness = rng.integers(-10, 10, 9).astype(float)
    span = BOUNDS[1][:500] - BOUNDS[0][:500]
    x = genomes / span
    d = np.sqrt(np.mean((x[:, None, :] - x[None, :, :]) ** 2, axis=2))
    ranks = np.array([np.mean([1 + np.sum(fitness < f), np.sum(fitness <= f)]) for f in fitness])
    expected = ranks / np.maximum(0.0, 1.0 - d / 0.4).sum(axis=1)
    got = ops.shared_fitness(fitness, genomes, (BOUNDS[0][:500], BOUNDS[1][:500]), 0.4)
    assert np.allclose(got, expected, rtol=1e-12, atol=0)


def population(rng, n=8):
    none = np.full(n, -1, dtype=np.int64)
    return Population(rng.uniform(-1, 1, (n, N)), np.arange(n, dtype=np.int64), none,
                      none.copy(), ["random"] * n)


@pytest.mark.parametrize("elite_copies", [0, 2])
def test_breeding_with_sparse_mutation_changes_k_genes_of_each_copied_parent(elite_copies):
    """Without crossover, each child is a parent's copy mutated at exactly ``mutation_genes``
    genes (elite copies too: a few genes of thousands, not all)."""
    rng = np.random.default_rng(7)
    pop = population(rng)
    ga = GAConfig(population=8, elites=1, crossover="none", mutation_genes=6,
                  elite_copies=elite_copies)
    fitness = np.arange(8, dtype=float)
    child_pop = breed(pop, fitness, rng, ga, BOUNDS, BLOCKS, 0, 8)
    by_id = {int(i): g for i, g in zip(pop.ids, pop.genomes, strict=True)}
    for k in range(1, 8):
        parents = [by_id[int(p)] for p in (child_pop.parent_a[k], child_pop.parent_b[k])
                   if p >= 0]
        changed = min(np.count_nonzero(child_pop.genomes[k] != p) for p in parents)
        assert changed == 6, child_pop.operator[k]
    assert child_pop.operator[1:1 + elite_copies] == ["elite_copy"] * elite_copies


def test_breeding_with_per_block_mutation_changes_genes_of_k_tables_only():
    rng = np.random.default_rng(8)
    pop = population(rng)
    ga = GAConfig(population=8, elites=1, crossover="none", mutation_blocks=2, mutation_prob=1.0)
    child_pop = breed(pop, np.arange(8, dtype=float), rng, ga, BOUNDS, BLOCKS, 0, 8)
    by_id = {int(i): g for i, g in zip(pop.ids, pop.genomes, strict=True)}
    for k in range(1, 8):
        parents = [by_id[int(p)] for p in (child_pop.parent_a[k], child_pop.parent_b[k])]
        tables = min(sum(bool(np.any(child_pop.genomes[k][b] != p[b])) for b in BLOCKS)
                     for p in parents)
        assert tables == 2


@pytest.mark.parametrize("overrides, message", [
    (["ga.mutation_genes=100000"], "ga.mutation_genes=100000 must satisfy 0 <= mutation_genes "
                                   "<= the genome's 32 genes (0 = off)"),
    (["ga.mutation_genes=-1"], "ga.mutation_genes=-1 must satisfy 0 <= mutation_genes"),
    (["ga.mutation_blocks=7"], "ga.mutation_blocks=7 must satisfy 0 <= mutation_blocks <= the "
                               "genome's 6 blocks (0 = off)"),
    (["ga.mutation_genes=3", "ga.mutation_blocks=1"],
     "ga.mutation_blocks=1 must satisfy 0 when ga.mutation_genes (3) is set"),
])
def test_bad_sparse_mutation_settings_stop_the_run_at_start_with_one_line(overrides, message):
    from hydra import compose, initialize_config_dir

    from evolve.ga.configuration.config import ConfigError, to_config

    conf = str(Path(__file__).resolve().parents[3] / "conf")
    with initialize_config_dir(config_dir=conf, version_base="1.3"):
        cfg = compose("config", overrides=["+experiment=smoke", *overrides])
    with pytest.raises(ConfigError) as err:
        to_config(cfg)
    assert str(err.value).startswith(message) and "\n" not in str(err.value)
