"""The n-tuple genome written once for every game (``engine.kernels.ntuple.genome``), checked
on a small layout of mixed cells against names, blocks and positions worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from engine.kernels import ntuple as nt
from engine.kernels.ntuple.figures import entry_states
from engine.kernels.ntuple.genome import NetworkGenome, entry_digits, lut_states

# cell 0: 3 states, cell 1: 2 states, cell 2: 12 states (two characters for some states)
STATES = [3, 2, 12]
TUPLES = [(0, 1), (2, 0)]


@pytest.fixture
def layout():
    return nt.layout_from_tuples(3, STATES, TUPLES, name="mixed")


def test_entries_read_their_cells_first_cell_most_significant(layout):
    assert layout.lut_sizes.tolist() == [3 * 2, 12 * 3]
    assert lut_states(layout, 0).tolist() == [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1]]
    assert entry_digits(layout, 0) == ["00", "01", "10", "11", "20", "21"]
    # a cell of more than 10 states: digits separated, entry 3 * 11 + 2 = 35 is "11_2"
    digits = entry_digits(layout, 1)
    assert digits[:4] == ["0_0", "0_1", "0_2", "1_0"] and digits[35] == "11_2"
    assert all(entry_states(layout, 1, i) == [int(d) for d in digits[i].split("_")]
               for i in range(36))


def test_genes_are_named_and_blocked_per_table_per_phase_then_features(layout):
    genome = NetworkGenome(layout, 2, ("mob_own", "mob_opp", "corners"),
                           (("mobility", 2), ("corners", 1)), bound=0.5)
    width = 6 + 36 + 3
    assert genome.width == width and genome.size == 2 * width
    assert genome.names[:2] == ("p0.t0.00", "p0.t0.01")
    assert genome.names[6] == "p0.t1.0_0" and genome.names[width - 1] == "p0.corners"
    assert genome.names[width] == "p1.t0.00" and len(set(genome.names)) == genome.size
    assert genome.blocks == {
        "p0.t0": slice(0, 6), "p0.t1": slice(6, 42), "p0.mobility": slice(42, 44),
        "p0.corners": slice(44, 45), "p1.t0": slice(45, 51), "p1.t1": slice(51, 87),
        "p1.mobility": slice(87, 89), "p1.corners": slice(89, 90)}
    low, high = genome.default_bounds()
    assert np.all(low == -0.5) and np.all(high == 0.5)
    assert genome.spec.names == genome.names


def test_split_and_join_are_inverse_and_refuse_bad_genomes(layout):
    genome = NetworkGenome(layout, 2, ("a", "b"))
    flat = np.arange(genome.size, dtype=float)
    net, feat = genome.split(flat)
    assert net.shape == (2, 42) and feat.tolist() == [[42, 43], [86, 87]]
    assert net[1, 0] == 44 and np.array_equal(genome.join(net, feat), flat)
    net[0, 0] = -1  # fresh arrays: the genome is not a view of them
    assert flat[0] == 0
    with pytest.raises(ValueError, match="genome has 3 genes"):
        genome.split(np.zeros(3))
    with pytest.raises(ValueError, match="non-finite"):
        genome.split(np.full(genome.size, np.nan))


def test_without_features_split_hands_the_evaluation_zero_feature_inputs(layout):
    genome = NetworkGenome(layout, 1, feature_inputs=4)
    assert not genome.features and genome.blocks == {"p0.t0": slice(0, 6),
                                                     "p0.t1": slice(6, 42)}
    net, feat = genome.split(np.ones(42))
    assert net.shape == (1, 42) and feat.shape == (1, 4) and not feat.any()
    assert np.array_equal(genome.join(net), np.ones(42))
    with pytest.raises(ValueError, match="do not cover"):
        NetworkGenome(layout, 1, ("a", "b"), (("a", 1),))
