"""The Edax-like pattern families (corner<w>x<h>, hv<k>, diag<n>), Egaroucid's corner shapes
(triangle, narrowtriangle, cornerblock) and the named ``edax`` and ``egaroucid`` sets."""

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


def _cells(drawing: str) -> tuple[int, ...]:
    rows = [line.split() for line in drawing.strip().splitlines()]
    return tuple(sorted(8 * r + c for r, row in enumerate(rows) for c, mark in enumerate(row)
                        if mark == "x"))


@pytest.mark.parametrize("spec, drawing", [
    ("triangle", """x x x x . . . .
                    x x x . . . . .
                    x x . . . . . .
                    x . . . . . . ."""),
    ("narrowtriangle", """x x x x x . . .
                          x x . . . . . .
                          x . . . . . . .
                          x . . . . . . .
                          x . . . . . . ."""),
    ("cornerblock", """x . x x x x . x
                       . . x x x x . ."""),
])
def test_egaroucids_corner_shapes(spec, drawing):
    tuples = nt.family_tuples(8, 8, spec)
    assert tuple(sorted(tuples[0])) == _cells(drawing)
    # one placement per corner (or edge), all distinct, all images of the first under the square
    images = {tuple(sorted(sym[list(tuples[0])])) for sym in nt.board_symmetries(8, 8, "d4")}
    assert len({tuple(sorted(t)) for t in tuples}) == 4
    assert {tuple(sorted(t)) for t in tuples} <= images


def test_the_egaroucid_layout():
    layout = family_layout("egaroucid", "d4")
    assert [len(t) for t in layout.tuples] == [8, 8, 8, 5, 6, 7, 8, 10, 10, 10, 9, 10]
    assert layout.n_weights == 3 * 3**8 + sum(3**n for n in range(5, 9)) + 4 * 3**10 + 3**9
    # every shape 8 ways but the long diagonal (4): the triangles and the corner 3x3 are
    # symmetric about their diagonal, the corner + block about the edge's middle
    assert len(layout.instances) == 92


@pytest.mark.parametrize("spec", ["diag9", "hv9", "corner9x2", "hv"])
def test_families_that_do_not_fit_are_refused(spec):
    with pytest.raises(nt.LayoutError):
        nt.family_tuples(8, 8, spec)


@pytest.mark.parametrize("spec, size", [("triangle", 3), ("narrowtriangle", 4),
                                        ("cornerblock", 4)])
def test_corner_shapes_that_do_not_fit_are_refused(spec, size):
    with pytest.raises(nt.LayoutError, match="fit|must be"):
        nt.family_tuples(size, size, spec)
