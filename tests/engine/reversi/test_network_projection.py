"""A network re-expressed in a layout that holds its tuples (``embedded_network``,
``Game.projected_genome``) keeps the value of every position, in every phase; what does not fit
is refused in one line."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.registry import get_game
from engine.reversi.files import load_evaluation, save_evaluation
from engine.reversi.genome.network_eval import network_value
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.helpers_ntuple import network_game, random_network


def value(w, p, reversed_rules=False) -> float:
    phase_of_discs, tables, weights, features = w.numba_arrays()
    return network_value(*p.boards, phase_of_discs, tables, weights, features, reversed_rules)


@pytest.mark.parametrize("source, target", [
    ({"layout": "square2", "phases": 1, "features": ["mobility"]},
     {"layout": "straight4+square2", "phases": 4, "features": ["mobility", "stability"]}),
    ({"layout": "straight2", "phases": 3, "features": ["mobility", "stability"]},
     {"layout": "straight2", "phases": 3, "features": ["mobility", "stability"]}),
    ({"layout": "straight2", "phases": 2, "features": []},
     {"layout": "straight2+square2", "phases": 2, "features": ["mobility"]}),
])
def test_a_network_keeps_every_positions_value_in_a_layout_that_holds_it(tmp_path, source,
                                                                         target):
    small = random_network(network_game(**source), seed=5, scale=0.1)
    path = tmp_path / "small.json"
    save_evaluation(small, path)
    game = network_game(**target)
    big = game.weights(game.projected_genome(path))
    tested = 0
    for seed in range(40):
        p = random_reachable(seed, 4 + seed)
        if p.is_game_over():
            continue
        assert value(big, p) == pytest.approx(value(small, p), rel=1e-12, abs=1e-12)
        tested += 1
    assert tested > 30
    added = [k for k, t in enumerate(big.layout.tuples) if t not in small.layout.tuples]
    offsets = big.layout.lut_offsets
    for k in added:  # the tables the small network lacks start at zero
        assert not big.weights[:, offsets[k]:offsets[k + 1]].any()


def test_a_symmetric_square_table_is_spread_over_the_tuples_exactly(tmp_path):
    league = "experiments/results/champions/othello_league.json"  # phases from 24 and 44
    game = network_game(layout="square2", phases=3, phase_bounds=[24, 44],
                        features=["mobility", "stability"])
    network = game.weights(game.projected_genome(league))
    table = load_evaluation(league)
    np.testing.assert_allclose(network.square_values(), table.positional, atol=1e-9)
    np.testing.assert_array_equal(network.features, table.features)


def test_an_asymmetric_square_table_is_refused(tmp_path):
    table_game = get_game("othello", {"genome": {"symmetric": False}})
    path = tmp_path / "table.json"
    genome = np.random.default_rng(3).uniform(-1, 1, table_game.genome_spec().size)
    save_evaluation(table_game.weights(genome, "t", {"variant": "othello"}), path)
    with pytest.raises(ValueError, match="its square table does not fit square2"):
        network_game(layout="square2", phases=3, phase_bounds=[24, 44],
                     features=["mobility", "stability"]).projected_genome(path)


@pytest.mark.parametrize("source, target, message", [
    ({"layout": "square2"}, {"layout": "straight4"}, "straight4 has no tuple [0, 1, 8, 9]"),
    ({"layout": "straight2"}, {"layout": "straight2", "symmetry": "identity"},
     "uses other cells or symmetries"),
    ({"layout": "straight2", "phases": 3}, {"layout": "straight2", "phases": 4},
     "lack 24 (every boundary of the file must be one of them)"),
    ({"layout": "straight2", "features": ["mobility"]}, {"layout": "straight2"},
     "its feature weight mobility_own has no place"),
])
def test_a_network_that_does_not_fit_is_refused_in_one_line(tmp_path, source, target, message):
    path = tmp_path / "small.json"
    save_evaluation(random_network(network_game(**source), seed=1, scale=0.1), path)
    with pytest.raises(ValueError) as err:
        network_game(**target).projected_genome(path)
    assert message in str(err.value) and str(path) in str(err.value)
    assert "\n" not in str(err.value)


def test_a_square_table_genome_takes_only_a_file_of_its_own_settings():
    league = "experiments/results/champions/othello_league.json"
    with pytest.raises(ValueError, match="made with other genome settings"):
        get_game("othello", {"genome": {"phase_bounds": [20, 40]}}).projected_genome(league)
    same = get_game("othello", {"genome": {"phase_bounds": [24, 44]}})
    np.testing.assert_array_equal(same.projected_genome(league),
                                  same.load_champion(league).genome)


def test_the_other_variants_network_is_refused(tmp_path):
    path = tmp_path / "reversed.json"
    save_evaluation(random_network(network_game("reversed_reversi"), seed=1, scale=0.1), path)
    with pytest.raises(ValueError, match="a reversed evaluation, this game is othello"):
        network_game("othello").projected_genome(path)
