"""Reversi's ``labels`` capability: sampling (reproducible, symmetry keys), exact labels
against brute force on the reference rules, search labels against the engine's own search."""

from pathlib import Path

import numpy as np
import pytest

from engine.core.champions.files import load_champion
from engine.core.registry import get_game
from engine.reversi.files import reference_weights
from engine.reversi.labels import labelling, symmetry
from engine.reversi.labels.symmetry import boards_of, cells_of, symmetry_keys
from engine.reversi.rules.state import Position
from engine.reversi.search.searcher import Searcher
from tests.engine.reversi import reference_rules as ref

GAMES = ["othello", "reversed_reversi"]
NETWORK = str(Path(__file__).resolve().parents[3] / "experiments/results/champions/"
              "othello_ntuple.json")


def images(cells: np.ndarray) -> list[np.ndarray]:
    """The eight symmetric images of ``[64]`` cells, by numpy on the 8x8 grid."""
    g = cells.reshape(8, 8)
    grids = [g, g[::-1], g[:, ::-1], g[::-1, ::-1]]
    return [x.reshape(64) for x in grids + [x.T for x in grids]]


@pytest.mark.parametrize("name", GAMES)
def test_sampling_is_reproducible_from_the_seed(name):
    game = get_game(name)
    options = {"openings": [2, 8], "epsilon": 0.2}
    a = game.sample_positions(300, 5, None, options)
    b = game.sample_positions(300, np.random.SeedSequence(5), None, options)
    c = game.sample_positions(300, 6, None, options)
    for column in ("cells", "ply", "key"):
        np.testing.assert_array_equal(a[column], b[column])
    assert not np.array_equal(a["key"], c["key"])
    assert a["cells"].shape == (300, 64) and a["cells"].dtype == np.uint8
    assert a["ply"].dtype == np.int16 and a["key"].dtype == np.uint64


def test_sampled_positions_are_legal_and_to_move():
    game = get_game("othello")
    sample = game.sample_positions(400, 1, None, {"keep": 0.5})
    P, O = boards_of(sample["cells"])
    for p, o, ply in zip(P, O, sample["ply"], strict=True):
        cells = ref.from_boards(int(p), int(o))
        assert ref.legal_moves(cells), "a kept position has a move for its side to move"
        assert 60 - cells.count(0) == ply
    assert len(set(sample["ply"].tolist())) > 40  # positions of the whole game


def test_sampling_options_are_checked():
    game = get_game("othello")
    for bad in ({"openings": [5, 2]}, {"epsilon": 2.0}, {"depth": 0}, {"colour": 1}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            game.sample_positions(1, 0, None, bad)


def test_cells_and_boards_round_trip():
    rng = np.random.default_rng(3)
    cells = rng.integers(0, 3, (50, 64)).astype(np.uint8)
    np.testing.assert_array_equal(cells_of(*boards_of(cells)), cells)


def test_a_key_is_the_same_for_the_eight_images_and_only_for_them():
    sample = get_game("othello").sample_positions(300, 2, None, {})
    for cells in sample["cells"][::10]:
        keys = symmetry_keys(*boards_of(np.array(images(cells))))
        assert len(set(keys.tolist())) == 1
    # distinct keys <-> distinct sets of images, counted by numpy on the grid
    canonical = {min(x.tobytes() for x in images(c)) for c in sample["cells"]}
    assert len(set(sample["key"].tolist())) == len(canonical)


def test_the_bitboard_images_are_the_grid_images():
    rng = np.random.default_rng(4)
    cells = rng.integers(0, 3, 64).astype(np.uint8)
    P, O = boards_of(cells[None])
    got = {cells_of(np.array([symmetry.image(P[0], k)]),
                    np.array([symmetry.image(O[0], k)]))[0].tobytes() for k in range(8)}
    assert got == {x.tobytes() for x in images(cells)}


def brute_force(cells: list[int], variant: str) -> int:
    """Perfect-play score for the side to move, by exhaustive search on the reference rules."""
    moves = ref.legal_moves(cells)
    if not moves:
        if not ref.legal_moves(ref.pass_turn(cells)):
            return ref.final_score(cells, variant)
        return -brute_force(ref.pass_turn(cells), variant)
    return max(-brute_force(ref.play(cells, m), variant) for m in moves)


@pytest.mark.parametrize("name,variant", [("othello", "othello"),
                                          ("reversed_reversi", "reversed")])
def test_exact_labels_are_the_brute_force_scores(name, variant):
    game = get_game(name)
    sample = game.sample_positions(2000, 7, None, {"openings": [2, 40], "epsilon": 0.5})
    few = np.flatnonzero(sample["ply"] >= 54)[:12]  # at most 6 empties
    labels = game.label_positions(sample["cells"][few], sample["ply"][few], None, 2, 6)
    assert (labels["source"] == labelling.EXACT).all()
    P, O = boards_of(sample["cells"][few])
    expected = [brute_force(ref.from_boards(int(p), int(o)), variant)
                for p, o in zip(P, O, strict=True)]
    np.testing.assert_array_equal(labels["target"], expected)
    np.testing.assert_array_equal(labels["depth"], 60 - sample["ply"][few])


@pytest.mark.parametrize("name,champion", [("othello", None), ("othello", NETWORK),
                                           ("reversed_reversi", None)])
def test_search_labels_are_the_engine_search_in_discs(name, champion):
    game = get_game(name)
    champ = load_champion(champion, game) if champion else None
    sample = game.sample_positions(600, 8, champ, {})
    rows = np.flatnonzero(sample["ply"] < 48)[::12]
    labels = game.label_positions(sample["cells"][rows], sample["ply"][rows], champ, 3, 12)
    assert (labels["source"] == labelling.SEARCH).all() and (labels["depth"] == 3).all()
    scale = float(labels["search_scale"])
    assert scale > 0
    weights = champ.evaluation if champ else reference_weights(game.seed_references[-1])
    searcher = Searcher(weights, game.variant.value, endgame_empties=-1)
    P, O = boards_of(sample["cells"][rows])
    for p, o, target in zip(P, O, labels["target"], strict=True):
        value = searcher.search(Position(int(p), int(o)), depth=3).score
        if abs(value) >= labelling.WIN_SCORE / 2:  # a line to the end decides it: the margin
            expected = value - np.sign(value) * labelling.WIN_SCORE
        else:
            expected = value * scale
        assert target == np.float32(expected)


def test_labels_split_at_the_exact_empties_and_the_scale_is_fixed():
    game = get_game("othello")
    sample = game.sample_positions(500, 9, None, {})
    a = game.label_positions(sample["cells"], sample["ply"], None, 2, 10)
    np.testing.assert_array_equal(a["source"] == labelling.EXACT, 60 - sample["ply"] <= 10)
    half = game.label_positions(sample["cells"][250:], sample["ply"][250:], None, 2, 10)
    for column in ("target", "source", "depth"):  # a label depends on its position alone
        np.testing.assert_array_equal(a[column][250:], half[column])
    assert float(a["search_scale"]) == float(half["search_scale"])


def test_a_decided_search_value_is_the_final_margin():
    values = np.array([labelling.WIN_SCORE + 6, -labelling.WIN_SCORE - 10, 0.5, 0.0])
    np.testing.assert_array_equal(labelling.to_discs(values, 10.0), [6, -10, 5, 0])


def test_the_search_scale_is_the_least_squares_slope_of_exact_on_search_values():
    """Recomputed through the engine's ``Searcher`` (search and exact solve) on the calibration
    positions: the slope through the origin over the values no finished game decides."""
    game = get_game("othello")
    weights = reference_weights("wpc")
    searcher = Searcher(weights, "othello", endgame_empties=-1)
    P, O = labelling.calibration_boards(game)
    assert len(P) == labelling.CALIBRATION_POSITIONS
    positions = [Position(int(p), int(o)) for p, o in zip(P, O, strict=True)]
    assert {p.empties for p in positions} == {labelling.CALIBRATION_EMPTIES}
    values = np.array([searcher.search(p, depth=2).score for p in positions])
    exact = np.array([searcher.solve(p).score for p in positions])
    open_ = np.abs(values) < labelling.WIN_SCORE / 2
    slope = values[open_] @ exact[open_] / (values[open_] @ values[open_])
    assert labelling.search_scale(game, weights, 2) == pytest.approx(slope, rel=1e-12)
