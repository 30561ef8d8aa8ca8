"""The Pentago Twist kernels agree with the slow pure-Python rules
(engine.pentago.rules.reference)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pentago.rules import bitboard as bb
from engine.pentago.rules import reference as ref
from engine.pentago.rules.state import State, move_id, parse_state, state_text


def random_reachable(seed: int, plies: int) -> State:
    """Up to ``plies`` uniformly random legal moves from the start (stops when the game ends)."""
    rng = np.random.default_rng(seed)
    state = State()
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.apply(moves[rng.integers(len(moves))])
    return state


def random_board(seed: int, stones: int) -> State:
    """Any stone pattern with legal colour counts (fives of both colours happen often)."""
    rng = np.random.default_rng(seed)
    cells = rng.permutation(36)[:stones]
    white = sum(1 << int(c) for c in cells[: (stones + 1) // 2])
    black = sum(1 << int(c) for c in cells[(stones + 1) // 2:])
    return State(white, black)


def grid_of(state: State):
    return ref.from_text(state_text(state))


reachable = st.builds(random_reachable, st.integers(0, 2**32 - 1), st.integers(0, 36))
boards = st.builds(random_board, st.integers(0, 2**32 - 1), st.integers(0, 36))
REF_WINNER = {"W": 0, "B": 1, "draw": -1, None: None}


@settings(max_examples=150, deadline=None)
@given(reachable)
def test_legal_moves_match_reference(state: State):
    expected = [move_id(*m) for m in ref.legal_moves(grid_of(state))]
    assert state.legal_moves() == expected


@settings(max_examples=60, deadline=None)
@given(reachable)
def test_every_move_produces_the_reference_successor(state: State):
    grid = grid_of(state)
    for x, y, a, b in ref.legal_moves(grid):
        child = state.apply(move_id(x, y, a, b))
        assert state_text(child).splitlines()[:6] == ref.to_text(ref.play(grid, (x, y, a, b))) \
            .splitlines()
        assert child.to_move == 1 - state.to_move


@settings(max_examples=400, deadline=None)
@given(boards)
def test_winner_matches_reference_on_any_board(state: State):
    assert state.winner() == REF_WINNER[ref.winner(grid_of(state))]


@settings(max_examples=300, deadline=None)
@given(boards)
def test_can_win_now_agrees_with_trying_every_move(state: State):
    if state.is_over():
        return
    grid = grid_of(state)
    me = ref.to_move(grid)
    expected = any(ref.winner(ref.play(grid, m)) == me for m in ref.legal_moves(grid))
    assert bool(bb.can_win_now(*state.boards())) == expected


@settings(max_examples=100, deadline=None)
@given(reachable)
def test_distinct_children_are_the_distinct_reference_successors(state: State):
    grid = grid_of(state)
    expected = {ref.to_text(ref.play(grid, m)) for m in ref.legal_moves(grid)}
    P, O = state.boards()
    out_P, out_O = np.empty(288, np.uint64), np.empty(288, np.uint64)
    out_move = np.empty(288, np.int64)
    n = bb.distinct_children(P, O, out_P, out_O, out_move) if not state.is_over() else 0
    children = {state_text(state.after(int(m))).rsplit("\n", 1)[0] for m in out_move[:n]}
    assert n == len(expected)
    assert children == expected


# White: four in row 0 plus (2, 2); black: (5,0) (5,1) (5,2) _ (5,4) (5,5), so flipping
# quadrant 3 moves (5,5) to the gap (5,3) and completes black's row 5.
TWO_THREATS = "WWWW..\n......\n..W...\n......\n......\nBBB.BB\nW"


@pytest.mark.parametrize("move, expected", [
    ((0, 4, 3, 1), -1),  # white's placement makes five, the flip makes black's: draw
    ((2, 4, 3, 1), 1),  # white's own flip completes only black's five: black wins
    ((0, 4, 3, 0), 0),  # five by placement, quadrant 3 rotation leaves row 5 broken: white
    ((0, 4, 0, 0), None),  # five by placement broken by the twist: no five, game goes on
    ((1, 4, 2, 0), None),  # nothing completed
])
def test_win_is_checked_after_the_twist_for_both_colours(move, expected):
    before = parse_state(TWO_THREATS)
    state = before.apply(move_id(*move))
    assert state.winner() == expected
    assert REF_WINNER[ref.winner(ref.play(grid_of(before), move))] == expected
    assert state.is_over() == (expected is not None)


def test_full_board_without_five_is_a_draw():
    rows = ["WBWBWB", "WBWBWB", "BWBWBW", "BWBWBW", "WBWBWB", "WBWBWB"]
    state = parse_state("\n".join(rows) + "\nW")
    assert state.stones == 36 and state.winner() == -1 and state.legal_moves() == []


def test_opening_has_288_moves_and_36_distinct_successors():
    P, O = State().boards()
    out = np.empty(288, np.uint64), np.empty(288, np.uint64), np.empty(288, np.int64)
    assert len(State().legal_moves()) == 288
    assert bb.distinct_children(P, O, *out) == 36


@pytest.mark.parametrize("text, error", [
    ("", "expected 6 rows"),
    ("......\n" * 6 + "X", "side to move"),
    ("......\n" * 5 + "....Q.\nW", "row 5"),
    ("W.....\n" + "......\n" * 5 + "W", "contradicts"),
    ("WW....\n" + "......\n" * 5 + "B", "cannot happen"),
])
def test_bad_board_text_is_a_value_error(text, error):
    with pytest.raises(ValueError, match=error):
        parse_state(text)


@settings(max_examples=100, deadline=None)
@given(reachable)
def test_board_text_round_trips(state: State):
    assert parse_state(state_text(state)) == state
