"""Text formats, square naming and move application of ``Position``."""

from __future__ import annotations

import pytest

from engine.reversi.rules.state import PASS, Position, move_name, parse_move, square

START = "---------------------------OX------XO--------------------------- X"


def test_square_numbering_is_a1_first_rank_by_rank():
    names = ("a1", "h1", "a2", "a8", "h8")
    assert tuple(square(n) for n in names) == (0, 7, 8, 56, 63)
    assert square("D5") == 35 and move_name(35) == "d5"


def test_start_position_has_black_on_d5_e4_and_round_trips_as_text():
    start = Position.start()
    assert start.to_string() == START
    assert Position.parse(START) == start
    assert [move_name(m) for m in start.legal_moves()] == ["d3", "c4", "f5", "e6"]


def test_text_round_trip_keeps_side_to_move(reachable_positions):
    for p in reachable_positions:
        assert Position.parse(p.to_string()) == p


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "two fields"),
        ("X" * 63 + " X", "64 squares, got 63"),
        ("X" * 63 + "Z X", "invalid character"),
        ("-" * 64 + " B", "side to move must be X or O"),
        ("-" * 64 + " X extra", "two fields"),
    ],
)
def test_malformed_position_text_says_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        Position.parse(text)


def test_moves_parse_and_bad_moves_are_explained():
    assert parse_move("pass") == PASS and parse_move(" E6 ") == square("e6")
    for bad in ("i1", "a9", "", "e"):
        with pytest.raises(ValueError, match="expected a1..h8 or pass"):
            parse_move(bad)


def test_illegal_move_is_refused_with_the_legal_moves_and_changes_nothing():
    start = Position.start()
    with pytest.raises(ValueError, match="illegal move a1; legal moves: d3 c4 f5 e6"):
        start.play(square("a1"))
    with pytest.raises(ValueError, match="pass is not legal"):
        start.play(PASS)
    with pytest.raises(ValueError, match="illegal move d4"):
        start.play(square("d4"))  # occupied
    assert start == Position.start()


def test_forced_pass_swaps_sides_only():
    # White (to move) has no move: the only white disc is boxed in by black ... and black can move.
    p = Position.parse("XO" + "-" * 62 + " O")
    assert p.legal_moves() == [PASS]
    after = p.play(PASS)
    assert (after.player, after.opponent, after.black_to_move) == (p.opponent, p.player, True)
    assert [move_name(m) for m in after.legal_moves()] == ["c1"]


def test_pretty_board_shows_coordinates_and_rank_8_on_top():
    text = Position.start().pretty(marks=Position.start().legal_moves_mask())
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefgh")
    assert lines[1].startswith("8 ") and lines[8].startswith("1 ")
    assert lines[4] == "5 . . . X O * . . 5"  # d5 black, e5 white, f5 a legal move
