"""Least-squares fitting of n-tuple weights (engine.kernels.ntuple.fit): it recovers a network
from its exact values, matches a dense solve, shrinks with L2, and repeats itself bit for bit."""

import numpy as np
import pytest

from engine.kernels import ntuple as nt
from engine.kernels.ntuple import fit

LAYOUT = nt.board_layout(4, 4, nt.family_tuples(4, 4, "straight2+corner2"), "d4")
TABLES = nt.index_tables(LAYOUT)
PHASES = 2


def positions(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, 3, (n, LAYOUT.n_cells)).astype(np.uint8)
    return cells, rng.integers(0, PHASES, n)


def dense(indices: np.ndarray, rows) -> np.ndarray:
    a = np.zeros((len(rows), PHASES * LAYOUT.n_weights))
    for k, r in enumerate(rows):
        np.add.at(a[k], indices[r], 1.0)
    return a


def test_indices_read_what_the_evaluation_reads():
    cells, phase = positions(50, 1)
    weights = np.random.default_rng(2).normal(size=(PHASES, LAYOUT.n_weights))
    indices = fit.position_indices(cells, phase, TABLES, LAYOUT.n_weights, PHASES)
    want = [nt.evaluate_cells(c, TABLES, weights[p]) for c, p in zip(cells, phase, strict=True)]
    np.testing.assert_allclose(fit.predict(indices, weights.ravel()), want, rtol=1e-12)


def test_cells_of_different_state_counts_index_as_the_evaluation_does():
    layout = nt.layout_from_tuples(6, [2, 3, 4, 2, 3, 4], [(0, 1, 2), (2, 3, 4, 5)], name="mix")
    tables = nt.index_tables(layout)
    rng = np.random.default_rng(13)
    cells = np.stack([rng.integers(0, n, 40) for n in layout.cell_states], axis=1)
    cells = cells.astype(np.uint8)
    weights = rng.normal(size=layout.n_weights)
    indices = fit.position_indices(cells, np.zeros(40, np.int64), tables, layout.n_weights, 1)
    want = [nt.evaluate_cells(c, tables, weights) for c in cells]
    np.testing.assert_allclose(fit.predict(indices, weights), want, rtol=1e-12)


def test_recovers_a_known_network_from_its_exact_values():
    cells, phase = positions(3000, 3)
    truth = np.random.default_rng(4).normal(size=(PHASES, LAYOUT.n_weights))
    indices = fit.position_indices(cells, phase, TABLES, LAYOUT.n_weights, PHASES)
    target = fit.predict(indices, truth.ravel())
    train = np.arange(2500)
    result = fit.fit_phases(indices, target, train, PHASES, LAYOUT.n_weights, l2=0.0,
                            iterations=500, tolerance=1e-10)
    predicted = fit.predict(indices, result.weights.ravel())
    # the values, train and held out, not the weights: symmetric copies share a LUT, so only
    # the sums the positions read are determined
    np.testing.assert_allclose(predicted, target, atol=1e-5)
    assert (result.residual < 1e-10).all()


def test_matches_a_dense_ridge_solve():
    cells, phase = positions(400, 5)
    indices = fit.position_indices(cells, phase, TABLES, LAYOUT.n_weights, PHASES)
    target = np.random.default_rng(6).normal(size=400) * 10
    train = np.arange(0, 400, 2)
    l2 = 0.5
    result = fit.fit_phases(indices, target, train, PHASES, LAYOUT.n_weights, l2=l2,
                            iterations=2000, tolerance=1e-12)
    a = dense(indices, train)
    augmented = np.vstack([a, np.sqrt(l2) * np.eye(a.shape[1])])
    rhs = np.concatenate([target[train], np.zeros(a.shape[1])])
    want = np.linalg.lstsq(augmented, rhs, rcond=None)[0]
    np.testing.assert_allclose(result.weights.ravel(), want, atol=1e-7)


def test_l2_shrinks_the_weights():
    cells, phase = positions(500, 7)
    indices = fit.position_indices(cells, phase, TABLES, LAYOUT.n_weights, PHASES)
    target = np.random.default_rng(8).normal(size=500) * 20
    train = np.arange(500)
    norms = [np.linalg.norm(fit.fit_phases(indices, target, train, PHASES, LAYOUT.n_weights,
                                           l2=l2, iterations=300).weights)
             for l2 in (0.1, 10.0, 1000.0)]
    assert norms[0] > norms[1] > norms[2] > 0


def test_unseen_and_rare_weights_stay_zero():
    cells, phase = positions(40, 9)
    phase[:] = 0  # phase 1 sees nothing
    indices = fit.position_indices(cells, phase, TABLES, LAYOUT.n_weights, PHASES)
    target = np.random.default_rng(10).normal(size=40)
    result = fit.fit_phases(indices, target, np.arange(40), PHASES, LAYOUT.n_weights,
                            l2=1.0, iterations=100, min_count=3)
    assert not result.weights[1].any()
    assert not result.weights[result.counts < 3].any()
    assert result.weights[result.counts >= 3].any()


def test_same_bits_twice_and_a_seeded_split():
    cells, phase = positions(600, 11)
    indices = fit.position_indices(cells, phase, TABLES, LAYOUT.n_weights, PHASES)
    target = np.random.default_rng(12).normal(size=600)
    held = fit.holdout_mask(600, 0.2, seed=3)
    assert np.array_equal(held, fit.holdout_mask(600, 0.2, seed=3))
    assert not np.array_equal(held, fit.holdout_mask(600, 0.2, seed=4))
    assert 60 < held.sum() < 180
    runs = [fit.fit_phases(indices, target, np.flatnonzero(~held), PHASES, LAYOUT.n_weights,
                           l2=0.3, iterations=40).weights for _ in range(2)]
    assert runs[0].tobytes() == runs[1].tobytes()


def test_phase_errors_per_phase_and_overall():
    prediction = np.array([1.0, 2.0, 3.0, 4.0])
    target = np.array([0.0, 0.0, 3.0, 0.0])
    phase = np.array([0, 0, 1, 1])
    errors = fit.phase_errors(prediction, target, phase, np.ones(4, bool), 3)
    np.testing.assert_allclose(errors["mae"][:2], [1.5, 2.0])
    assert np.isnan(errors["rmse"][2])  # no position in phase 2
    np.testing.assert_allclose(errors["rmse"][3], np.sqrt((1 + 4 + 0 + 16) / 4))
    assert errors["positions"].tolist() == [2, 2, 0, 4]


def test_bad_options_raise():
    with pytest.raises(ValueError, match="holdout share"):
        fit.holdout_mask(10, 1.0, 0)
    with pytest.raises(ValueError, match="phase: expected integers in 0..1"):
        fit.position_indices(*positions(5, 0)[:1], np.full(5, 2), TABLES, LAYOUT.n_weights, 2)
    with pytest.raises(ValueError, match="l2"):
        fit.fit_phases(np.zeros((1, 1), np.int32), np.zeros(1), np.arange(1), 1, 1, l2=-1.0)
