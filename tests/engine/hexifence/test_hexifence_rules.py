"""Hexifence rules: the engine (state + numba kernels) against the slow reference from the rules
text, the course's board text, and clear errors."""

import numpy as np
import pytest

from engine.hexifence.game import GAME
from engine.hexifence.rules import reference as ref
from engine.hexifence.rules.bitboard import captures_of, count_safe, degrees, draw, is_undrawn
from engine.hexifence.rules.board import board
from engine.hexifence.rules.state import from_text, initial_state

SIZES = (1, 2, 3, 4)


@pytest.mark.parametrize("size, cells, edges", [(1, 1, 6), (2, 7, 30), (3, 19, 72),
                                                (4, 37, 132)])
def test_board_sizes_match_the_course(size, cells, edges):
    b = board(size)
    assert (b.n_cells, b.n_edges) == (cells, edges)
    assert [b.edges[e] for e in range(b.n_edges)] == ref.edges(size)


@pytest.mark.parametrize("size", SIZES)
def test_symmetries_map_cells_onto_cells(size):
    b = board(size)
    cell_sets = {frozenset(map(int, row)) for row in b.cell_edges}
    for perm in b.symmetries:
        assert sorted(perm) == list(range(b.n_edges))
        assert {frozenset(int(perm[e]) for e in row) for row in b.cell_edges} == cell_sets


def kernel_degrees(state):
    b = state.board
    deg = np.empty(b.n_cells, np.int8)
    degrees(state.undrawn, b.cell_edges, deg)
    return deg


@pytest.mark.parametrize("size", SIZES)
def test_random_games_agree_with_the_reference(size):
    """Legal moves, captures, extra turns, scores, degrees and safe edges at every ply."""
    rng = np.random.default_rng(size)
    b = board(size)
    for _ in range(6):
        state, game = initial_state(size), ref.RefGame(size)
        while not game.is_over():
            legal = state.legal_moves()
            assert [divmod(m, b.width) for m in legal] == game.legal_moves()
            deg = kernel_degrees(state)
            assert [int(deg[b.cell_index[c]]) for c in ref.cells(size) if c not in game.owner] \
                == [game.empty_count(c) for c in ref.cells(size) if c not in game.owner]
            safe = count_safe(state.undrawn, deg, b.n_edges, b.edge_cells)
            assert safe == len(game.safe_moves())
            move = legal[int(rng.integers(len(legal)))]
            e = int(b.edge_of_move[move])
            predicted = captures_of(deg, e, b.edge_cells)
            words = state.undrawn.copy()
            assert draw(words, deg, e, b.edge_cells) == predicted
            assert not is_undrawn(words, e)
            captured = game.play(divmod(move, b.width))
            assert captured == predicted
            state = state.play(move)
            assert state.to_move == (0 if game.blue_to_move else 1)
            assert state.scores == game.scores()
        assert state.is_terminal() and sum(state.scores) == b.n_cells


def test_a_capture_keeps_the_turn():
    state = initial_state(1)
    for move in state.legal_moves()[:-1]:
        state = state.play(move)
    assert state.scores == (0, 0)
    mover = state.to_move
    last = state.play(state.legal_moves()[0])
    assert last.to_move == mover and last.scores[mover] == 1 and last.is_terminal()


def test_board_text_round_trips_with_and_without_the_side_line():
    rng = np.random.default_rng(5)
    state = initial_state(3)
    for _ in range(40):
        state = state.play(int(rng.choice(state.legal_moves())))
        assert from_text(state.to_text()) == state
    course_text = state.to_text().rsplit("\n", 1)[0]
    assert from_text(course_text).edges == state.edges
    assert from_text(course_text).to_move == 0  # blue unless stated
    assert state.to_text().splitlines()[0] == "3"
    assert all(len(row.split()) == 11 for row in state.to_text().splitlines()[1:12])


def test_the_empty_board_text_is_the_courses():
    assert initial_state(2).to_text() == "\n".join([
        "2", "+ + + + - - -", "+ - + - + - -", "+ + + + + + -", "+ - + - + - +",
        "- + + + + + +", "- - + - + - +", "- - - + + + +", "blue"])


@pytest.mark.parametrize("text, word", [
    ("", "empty"), ("x", "first line"), ("2\n+ +", "rows"),
    ("2\n" + "\n".join(["+ + + + - - -"] * 7), "cell centre"),
    ("1\n+ + +\n+ - +\n- + +", "not an edge"),
    ("1\n+ + -\n+ - +\n- + +\npurple", "last line"),
    ("1\n+ + -\n+ b +\n- + +", "marked captured but open"),
    ("1\nB B -\nB - R\n- R R", "closed but not marked"),
    ("1\n+ + -\n+ x +\n- + +", "cell centre"),
])
def test_bad_board_text_is_a_clear_value_error(text, word):
    with pytest.raises(ValueError, match=word):
        from_text(text)


def test_moves_are_row_col_text_and_illegal_moves_are_refused():
    game = GAME.with_settings({"size": 2})
    state = game.initial_state()
    move = game.parse_move("0 3", state)
    assert move == 3 and game.move_text(move) == "0 3" and game.parse_move("0,3") == move
    state = game.apply(state, move)
    with pytest.raises(ValueError, match="already drawn"):
        game.apply(state, move)
    with pytest.raises(ValueError, match="already drawn"):
        game.parse_move("0 3", state)
    with pytest.raises(ValueError, match="not an edge"):
        game.parse_move("1 1", state)  # a cell centre
    with pytest.raises(ValueError, match="row col"):
        game.parse_move("a b", state)
    with pytest.raises(ValueError, match="not an edge"):
        game.apply(state, 8)  # grid point (1, 1)


def test_state_view_draws_the_grid_for_the_browser():
    game = GAME.with_settings({"size": 2})
    state = game.apply(game.initial_state(), 0)
    view = game.state_view(state)
    assert view["size"] == 2 and view["to_move"] == 1 and view["scores"] == [0, 0]
    assert view["grid"][0] == "B+++---" and view["grid"][1] == "+ + +--"
