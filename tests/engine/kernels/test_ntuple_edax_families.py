"""The Edax-like pattern families (corner<w>x<h>, hv<k>, diag<n>) and the named ``edax`` set."""

import pytest

from engine.core.registry import get_game
from engine.kernels import ntuple as nt
from engine.reversi.genome.network import family_layout


def test_the_families_are_edaxs_shapes():
    assert nt.family_tuples(8, 8, "corner5x2")[0] == (0, 1, 2, 3, 4, 8, 9, 10, 11, 12)
    assert nt.family_tuples(8, 8, "hv2") == [tuple(range(8, 16)), tuple(range(48, 56)),
                                             tuple(range(1, 64, 8)), tuple(range(6, 64, 8))]
    assert sorted(nt.family_tuples(8, 8, "diag8")) == [tuple(range(0, 64, 9)),
                                                       tuple(range(7, 57, 7))]
    assert {len(t) for t in nt.family_tuples(8, 8, "diag4")} == {4}
    assert len(nt.family_tuples(8, 8, "diag4")) == 4


def test_the_edax_layout():
    layout = family_layout("edax", "d4")
    # 3x3 and 2x5 corners, edge + 2X, rows 2-4, diagonals 4-8: one table each
    assert [len(t) for t in layout.tuples] == [9, 10, 10, 8, 8, 8, 4, 5, 6, 7, 8]
    assert layout.n_weights == 3**9 + 2 * 3**10 + 3 * 3**8 + sum(3**n for n in range(4, 9))
    assert len(layout.instances) == 84  # 8 per shape (a line both ways), 4 for the diagonal
    game = get_game("othello", {"genome": {"kind": "ntuple", "layout": "edax", "phases": 60}})
    assert game.network.size == 60 * layout.n_weights + 60 * 6


@pytest.mark.parametrize("spec", ["diag9", "hv9", "corner9x2", "hv"])
def test_families_that_do_not_fit_are_refused(spec):
    with pytest.raises(nt.LayoutError):
        nt.family_tuples(8, 8, spec)
