"""The numba kernels agree with the slow pure-Python rules on random reachable positions."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.reversi.rules import bitboard as bb
from engine.reversi.rules.state import PASS, Position, Variant, bits_of
from tests.engine.reversi import reference_rules as ref
from tests.engine.reversi.conftest import random_reachable

positions = st.builds(random_reachable, st.integers(0, 2**32 - 1), st.integers(0, 70))


@settings(max_examples=300, deadline=None)
@given(positions)
def test_legal_moves_match_reference(position: Position):
    cells = ref.from_boards(position.player, position.opponent)
    assert bits_of(int(bb.legal_moves(*position.boards))) == ref.legal_moves(cells)


@settings(max_examples=300, deadline=None)
@given(positions, st.integers(0, 63))
def test_flips_match_reference_on_every_square(position: Position, sq: int):
    cells = ref.from_boards(position.player, position.opponent)
    expected = ref.flipped_squares(cells, sq)
    P, O = position.boards
    flipped = bits_of(int(bb.flips(P, O, sq))) if cells[sq] == 0 else []
    assert flipped == expected


@settings(max_examples=200, deadline=None)
@given(positions)
def test_every_move_produces_the_reference_successor(position: Position):
    cells = ref.from_boards(position.player, position.opponent)
    for move in position.legal_moves():
        child = position.play(move)
        expected = ref.pass_turn(cells) if move == PASS else ref.play(cells, move)
        assert (child.player, child.opponent) == ref.to_boards(expected)
        assert child.black_to_move != position.black_to_move


@settings(max_examples=300, deadline=None)
@given(positions)
def test_pass_game_over_and_final_scores_match_reference(position: Position):
    cells = ref.from_boards(position.player, position.opponent)
    must_pass = not ref.legal_moves(cells) and not ref.is_game_over(cells)
    assert (position.legal_moves() == [PASS]) == must_pass
    assert position.is_game_over() == ref.is_game_over(cells)
    for variant in Variant:
        assert position.final_score(variant) == ref.final_score(cells, variant.value)


def test_finished_games_are_reached_and_scored(reachable_positions):
    finished = [p for p in reachable_positions if p.is_game_over()]
    assert finished, "the fixture must contain finished games"
    for p in finished:
        black, white = p.disc_counts()
        winner_othello = np.sign(black - white)
        assert np.sign(p.black_score("othello")) == winner_othello
        assert np.sign(p.black_score("reversed")) == -winner_othello


def test_empties_go_to_the_winner_in_othello_and_the_loser_in_reversed():
    finished = Position.parse("XX" + "-" * 61 + "X X")
    assert finished.is_game_over()
    assert finished.final_score("othello") == 64
    assert finished.final_score("reversed") == -64
    draw = Position.parse("X" + "-" * 62 + "O X")
    assert draw.is_game_over()
    assert draw.final_score("othello") == 0 and draw.final_score("reversed") == 0
