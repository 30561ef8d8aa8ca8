"""Layouts: weight counts from the literature, expansion vs the reference, builders, errors."""

from __future__ import annotations

import numpy as np
import pytest

from engine.kernels import ntuple as nt
from tests.engine.kernels.reference_ntuple import ReferenceNetwork

# Square names on an 8x8 board, a1 = 0 row-major (file = column, rank - 1 = row).
A1, B1, C1, H1, A2, B2, C2, G2, A3, B3, C3, A8, H8 = 0, 1, 2, 7, 8, 9, 10, 14, 16, 17, 18, 56, 63

FAMILY_SPECS = ["straight2", "straight3", "square2", "corner3", "edge2x", "lines", "rect2x3",
                "corner3+edge2x+straight2"]


def test_all_straight_2_tuples_of_8x8_under_the_8_symmetries_have_288_weights():
    """Jaskowski 2014 (ICGA J. 37(2)), the systematic all-2 network: 32 tuples x 3^2."""
    layout = nt.board_layout(8, 8, nt.straight_tuples(8, 8, 2), "d4")
    assert (len(layout.tuples), layout.n_weights) == (32, 288)


def test_all_2x2_squares_of_8x8_under_the_8_symmetries_have_810_weights():
    """49 squares; Burnside over the 8 symmetries of their 7x7 grid of corners:
    (49 + 3 x 1 fixed by the turns + 4 x 7 fixed by the flips) / 8 = 10 orbits of 3^4."""
    layout = nt.board_layout(8, 8, nt.squares(8, 8, 2), "d4")
    assert (len(layout.tuples), layout.n_weights) == (10, 810)


@pytest.mark.parametrize("spec", FAMILY_SPECS)
@pytest.mark.parametrize("group", ["d4", "d2", "rot180", "identity"])
def test_expansion_matches_the_reference(spec, group):
    tuples = nt.family_tuples(8, 8, spec)
    layout = nt.board_layout(8, 8, tuples, group)
    reference = ReferenceNetwork(3, tuples, nt.board_symmetries(8, 8, group).tolist())
    assert [list(t) for t in layout.tuples] == reference.tables
    assert layout.lut_offsets.tolist() == reference.offsets
    assert [(lut, list(cells)) for lut, cells in layout.instances] == reference.instances


def test_instances_cover_every_placement_of_the_pattern():
    """Whatever the group, the expansion reaches every cell set the builder listed."""
    tuples = nt.family_tuples(6, 6, "straight3+square2")
    for group in ("identity", "rot180", "d4"):
        layout = nt.board_layout(6, 6, tuples, group)
        assert {frozenset(cells) for _, cells in layout.instances} == set(map(frozenset, tuples))


def test_a_smaller_group_keeps_more_tables():
    tuples = nt.corner_blocks(8, 8, 3)
    counts = [len(nt.board_layout(8, 8, tuples, g).tuples) for g in ("d4", "rot180", "identity")]
    assert counts == [1, 2, 4]


def test_the_groups_have_their_sizes_and_move_a_corner_where_expected():
    sizes = {g: len(nt.board_symmetries(8, 8, g)) for g in nt.GROUPS}
    assert sizes == {"identity": 1, "rot180": 2, "mirror": 2, "d2": 4, "c4": 4, "d4": 8}
    assert sorted({int(s[A1]) for s in nt.board_symmetries(8, 8, "d4")}) == [A1, H1, A8, H8]
    assert nt.board_symmetries(6, 6, "rot180")[1, 0] == 35
    assert nt.board_symmetries(3, 2, "d2").tolist() == [
        [0, 1, 2, 3, 4, 5], [2, 1, 0, 5, 4, 3], [5, 4, 3, 2, 1, 0], [3, 4, 5, 0, 1, 2]]


def test_the_corner_block_and_the_edge_pattern_hold_the_named_squares():
    assert set(nt.corner_blocks(8, 8)[0]) == {A1, B1, C1, A2, B2, C2, A3, B3, C3}
    assert nt.edges_2x(8, 8)[0] == (0, 1, 2, 3, 4, 5, 6, 7, B2, G2)
    layout = nt.board_layout(8, 8, nt.family_tuples(8, 8, "corner3+edge2x"), "d4")
    assert (len(layout.tuples), layout.n_weights) == (2, 3**9 + 3**10)


def test_full_lines_of_8x8_are_8_rows_8_columns_and_18_diagonals_of_4_or_more():
    lines = nt.full_lines(8, 8)
    assert len(lines) == 34
    assert sorted(len(line) for line in lines).count(8) == 8 + 8 + 2
    assert (A1, 9, 18, 27, 36, 45, 54, H8) in lines and (H1, 14, 21, 28, 35, 42, 49, A8) in lines


def test_board_strings_give_one_tuple_per_mark_in_reading_order():
    text = """
        a a . .
        a b . .
        . b b .
        . . . .
    """
    assert nt.tuples_from_board(text, 4, 4) == [(0, 1, 4), (5, 9, 10)]
    layout = nt.board_layout(4, 4, nt.tuples_from_board(text, 4, 4), "identity")
    assert layout.n_weights == 2 * 27


def test_layout_from_tuples_keeps_the_first_of_each_orbit():
    layout = nt.board_layout(8, 8, [(H1, 15), (A1, B1), (A1, A2)], "d4")
    assert layout.tuples == ((H1, 15),)
    assert nt.board_layout(8, 8, [(A1, B1), (B1, A1)], "identity").tuples == ((A1, B1),)


def test_a_layout_built_directly_refuses_a_symmetric_duplicate():
    symmetries = nt.board_symmetries(8, 8, "d4")
    with pytest.raises(nt.LayoutError, match=r"^tuples\[1\] is a symmetric image of tuples\[0\]"):
        nt.Layout(64, 3, ((A1, B1), (H8, 62)), symmetries)


def test_group_closure_builds_a_group_from_generators():
    rotate = [1, 2, 3, 4, 5, 0]  # a hexagon's six corners turned by one
    group = nt.group_closure([rotate], 6)
    assert len(group) == 6 and group[0].tolist() == list(range(6))
    layout = nt.layout_from_tuples(6, 2, [(0, 1), (2, 3), (0, 3)], group)
    assert layout.tuples == ((0, 1), (0, 3))


@pytest.mark.parametrize("args, message", [
    ((64, 3, [(0, 64)]), r"^tuples\[0\]: cell 64 is out of range \(cells are 0\.\.63\)$"),
    ((64, 3, [(1,), (5, 6, 5)]), r"^tuples\[1\]: cell 5 appears more than once$"),
    ((64, 3, [tuple(range(11))]), r"^tuples\[0\]: its 11 cells make a table of 177,147 "
                                   r"weights; at most 59,049 allowed$"),
    ((4, [2, 255, 255, 2], [(0, 1, 2)]), r"^tuples\[0\]: its 3 cells make a table of 130,050 "),
    ((64, 3, [()]), r"^tuples\[0\]: empty"),
    ((64, 3, [(0, 1.5)]), r"^tuples\[0\]: cell 1\.5 is out of range"),
    ((64, 3, [5]), r"^tuples\[0\]: must be a list of cell ids"),
    ((64, 3, []), r"^tuples: empty"),
    ((64, 1, [(0,)]), r"^states: must be an integer in 2\.\.255 or a list of one such "
                      r"integer per cell \(64\), got 1$"),
    ((2, [3, 256], [(0,)]), r"^states: .* got \[3, 256\]$"),
    ((0, 3, [(0,)]), r"^cells: must be an integer >= 1, got 0$"),
])
def test_bad_tuples_fail_with_one_line_naming_the_field(args, message):
    with pytest.raises(nt.LayoutError, match=message) as error:
        nt.layout_from_tuples(*args)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("symmetries, message", [
    ([[0, 1, 2]], r"^symmetries: must have one row of 4 cell ids per symmetry, got shape"),
    ([[0, 1, 2, 3], [0, 0, 2, 3]], r"^symmetries\[1\]: not a permutation of the cells 0\.\.3$"),
    ([[1, 0, 2, 3], [1, 0, 3, 2]], r"^symmetries: the identity is missing$"),
    ([[0, 1, 2, 3], [1, 0, 2, 3], [0, 1, 3, 2]], r"^symmetries: not a group"),
    ([[0, 1, 2, 3], [0, 1, 2, 3]], r"^symmetries: a symmetry is listed twice$"),
    ([[0, 1], [2]], r"^symmetries: must be a list of rows"),
])
def test_bad_symmetries_fail_with_one_line(symmetries, message):
    with pytest.raises(nt.LayoutError, match=message):
        nt.layout_from_tuples(4, 3, [(0, 1)], symmetries)


@pytest.mark.parametrize("call, message", [
    (lambda: nt.board_symmetries(8, 6, "d4"), r"^group: d4 needs a square board, got 8x6$"),
    (lambda: nt.board_symmetries(8, 8, "d8"), r"^group: unknown 'd8' \(allowed: identity, "),
    (lambda: nt.family_tuples(8, 8, "straight2+knight"), r"^pattern: unknown family 'knight'"),
    (lambda: nt.family_tuples(8, 8, "straight9"), r"^n: must be in 1\.\.8, got 9$"),
    (lambda: nt.squares(8, 8, 9), r"^block: 9x9 does not fit a 8x8 board$"),
    (lambda: nt.tuples_from_board("ab\nc", 2, 2), r"^board: line 2 has 1 cells, expected 2$"),
    (lambda: nt.tuples_from_board("..\n..", 2, 2), r"^board: no tuple drawn"),
    (lambda: nt.tuples_from_board("aa", 2, 2), r"^board: expected 2 lines, got 1$"),
    (lambda: nt.straight_tuples(0, 8, 2), r"^width: must be an integer >= 1, got 0$"),
])
def test_builders_refuse_bad_input_with_one_line(call, message):
    with pytest.raises(nt.LayoutError, match=message):
        call()


def test_the_symmetry_array_is_read_only_so_a_layout_cannot_change_under_its_tables():
    layout = nt.board_layout(4, 4, nt.straight_tuples(4, 4, 2), "d4")
    with pytest.raises(ValueError):
        layout.symmetries[0, 0] = 1
    assert isinstance(layout.symmetries, np.ndarray)
