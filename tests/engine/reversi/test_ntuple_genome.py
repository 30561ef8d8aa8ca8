"""The ``ntuple`` genome kind's settings and genome map: one-line errors naming the key, one
crossover block per table per phase, the references spread over the tuples; the default
``weights`` kind exactly as before."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.game import GameSettingsError
from engine.core.registry import get_game
from engine.kernels import ntuple as nt
from engine.reversi.files import reference_weights
from engine.reversi.genome.network import family_layout, max_gene_magnitude, network_genome
from engine.reversi.genome.network_eval import network_value
from engine.reversi.genome.weights import GenomeLayout
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.helpers_ntuple import network_game
from tests.engine.reversi.helpers_search import slow_positional

WEIGHTS_SETTINGS = {"phases": 3, "phase_bounds": [24, 44], "symmetric": True,
                    "features": ["mobility", "stability"]}


def test_the_default_kind_keeps_the_settings_and_genome_of_before():
    for name in ("othello", "reversed_reversi"):
        game = get_game(name)
        assert game.kind == "weights" and not game.learns_by_td()
        assert game.settings() == {"genome": WEIGHTS_SETTINGS, "endgame_solver": "pvs"}
        assert game.genome_spec().names == tuple(GenomeLayout(3, True).names)
        explicit = get_game(name, {"genome": {"kind": "weights", "layout": None,
                                              "symmetry": None}})
        assert explicit.settings() == game.settings()


def test_the_genome_has_one_block_per_table_per_phase_and_per_feature_group():
    game = network_game(phases=2, features=["mobility", "parity"])
    spec = game.genome_spec()
    layout = family_layout("straight2", "d4")
    assert spec.size == 2 * (288 + 4 + 2) == len(set(spec.names))
    assert sorted(spec.blocks) == sorted([f"p{p}.t{k}" for p in range(2) for k in range(32)]
                                         + [f"p{p}.{g}" for p in range(2)
                                            for g in ("mobility", "parity")])
    covered = np.zeros(spec.size, int)
    for block in spec.blocks.values():
        covered[block] += 1
    assert np.all(covered == 1)
    assert all(spec.blocks[f"p1.t{k}"].stop - spec.blocks[f"p1.t{k}"].start == 9
               for k in range(32))
    a1_b1 = spec.names[spec.blocks["p0.t0"]]
    assert layout.tuples[0] == (0, 1) and a1_b1[5] == "p0.t0.12"  # a1 own, b1 opponent
    assert spec.names[spec.blocks["p1.parity"]] == ("p1.parity_odd_regions",
                                                    "p1.parity_even_regions")
    low, high = spec.default_bounds()
    assert np.all(low == -1) and np.all(high == 1)
    assert max_gene_magnitude(network_genome(layout, 2, ["mobility"])) > 1


def test_settings_round_trip_and_switching_kind_starts_from_that_kind():
    game = network_game("reversed_reversi", layout="corner3+edge2x", phases=3)
    settings = game.settings()
    assert settings["genome"] == {"kind": "ntuple", "layout": "corner3+edge2x",
                                  "symmetry": "d4", "phases": 3, "phase_bounds": [24, 44],
                                  "features": []}
    again = get_game("reversed_reversi", settings)
    assert again.genome_spec().names == game.genome_spec().names
    assert game.with_settings({"genome": {"phases": 1}}).genome_spec().size == 78732
    back = game.with_settings({"genome": {"kind": "weights"}})
    assert back.settings() == get_game("reversed_reversi").settings()


@pytest.mark.parametrize("genome, message", [
    ({"kind": "tuples"}, "game.genome.kind=tuples must be one of: weights, ntuple"),
    ({"layout": "straight2"}, "game.genome.layout=straight2 applies to game.genome.kind=ntuple"),
    ({"symmetry": "d2"}, "game.genome.symmetry=d2 applies to game.genome.kind=ntuple"),
    ({"kind": "ntuple", "layout": "hexagon3"}, "game.genome.layout=hexagon3: pattern: unknown "
     "family 'hexagon3'"),
    ({"kind": "ntuple", "layout": "straight11"}, "game.genome.layout=straight11: n: must be "
     "in 1..8"),
    ({"kind": "ntuple", "layout": "rect3x4"}, "game.genome.layout=rect3x4: tuples[0]: its 12 "
     "cells make a table of 531,441 weights"),
    ({"kind": "ntuple", "symmetry": "d6"}, "game.genome.symmetry=d6 must be one of: identity"),
    ({"kind": "ntuple", "symmetric": False}, "game.genome.symmetric=false applies to "
     "game.genome.kind=weights"),
    ({"kind": "ntuple", "layout": "missing.json"}, "game.genome.layout=missing.json: "
     "missing.json: cannot read a layout JSON"),
    ({"kind": "ntuple", "layout": "x.json", "symmetry": "d4"}, "game.genome.symmetry=d4 "
     "applies to a family spec"),
    ({"kind": "ntuple", "layout": 3}, "game.genome.layout=3 must be a family spec"),
    ({"kind": "ntuple", "phases": 0}, "game.genome.phases=0 must satisfy 1 <= phases <= 60"),
    ({"kind": "ntuple", "features": ["edges"]}, "game.genome.features=[edges] must be a list"),
    ({"kind": "ntuple", "colour": 1}, "game.genome.colour: unknown key (allowed: phases"),
])
def test_bad_settings_are_one_line_errors_naming_the_key(genome, message):
    with pytest.raises(GameSettingsError) as err:
        get_game("othello", {"genome": genome})
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_layout_file_and_layout_data_give_the_same_genome(tmp_path):
    layout = nt.board_layout(8, 8, [(0, 1, 2, 9), (18, 27, 36)], "d2", name="mine")
    path = tmp_path / "mine.json"
    nt.save_layout(layout, path)
    from_file = network_game(layout=str(path))
    from_data = network_game(layout=nt.layout_to_json(layout))
    names = from_file.genome_spec().names
    assert names == from_data.genome_spec().names and len(names) == layout.n_weights
    with pytest.raises(GameSettingsError, match="cells: a Reversi layout has 64 cells .*, got 36"):
        network_game(layout=nt.layout_to_json(nt.board_layout(6, 6, [(0, 1)], "d4")))


@pytest.mark.parametrize("layout, symmetry", [("straight2", "d4"), ("corner3+edge2x", "d4"),
                                              ("straight3", "d2"), ("square2", "rot180")])
@pytest.mark.parametrize("reference", ["wpc", "course"])
def test_a_reference_spread_over_the_tuples_evaluates_as_its_square_table(layout, symmetry,
                                                                          reference):
    """Every square of these layouts is in some tuple and the references are symmetric, so the
    network's value is the table's (up to rounding) and its implied squares are the table."""
    game = get_game("reversed_reversi", {"genome": {
        "kind": "ntuple", "layout": layout, "symmetry": symmetry, "phases": 2,
        "features": ["mobility"]}})
    w = game.weights(game.reference_genome(reference))
    table = reference_weights(reference).positional[0]
    if layout != "corner3+edge2x":  # its tuples miss the centre squares
        assert np.allclose(w.square_values(), table[None, :], atol=1e-12)
    covered = {c for _, cells in w.layout.instances for c in cells}
    arrays = w.numba_arrays()
    features = np.zeros_like(arrays[3])
    for seed in range(10):
        p = random_reachable(seed, 30)
        if p.is_game_over():
            continue
        cells = [(p.player >> c & 1) - (p.opponent >> c & 1) for c in range(64)]
        want = slow_positional([v if c in covered else 0 for c, v in enumerate(cells)], table)
        got = network_value(*p.boards, arrays[0], arrays[1], arrays[2], features, True)
        assert got == pytest.approx(want, abs=1e-9)
    assert np.all(w.features == 0)


def test_td_learn_is_refused_for_square_tables():
    game = get_game("othello")
    with pytest.raises(ValueError, match="cannot learn by temporal differences"):
        game.td_learn(game.reference_genome("wpc"), 1, 0, 0.01, 0.1)


def test_the_magnitude_bound_holds_and_weights_that_could_outweigh_a_win_are_refused():
    from engine.reversi.genome.network import NtupleWeights, network_bound

    game = network_game(layout="corner3+edge2x", phases=1)
    w = game.weights(np.random.default_rng(2).normal(size=game.genome_spec().size))
    bound = network_bound(w.layout, w.weights)[0]
    for seed in range(20):
        p = random_reachable(seed, 10 + 2 * seed)
        assert abs(nt.evaluate_bits(*p.boards, w.tables, w.weights[0])) <= bound
    scaled = w.weights * (1.01e6 / bound)
    with pytest.raises(ValueError, match="weights too large: the heuristic can reach 1.01e"):
        NtupleWeights(w.layout, (), scaled, np.zeros((1, 0)))
