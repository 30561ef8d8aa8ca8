"""Optional evaluation features: X/C squares next to an empty corner and region
parity against slow references; feature groups through the evaluation, the genome layout,
weights files, the game settings and a GA smoke run."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from hydra import compose, initialize_config_dir
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.game import GameSettingsError
from engine.core.registry import get_game
from engine.reversi.files import dumps, load_weights, save_json, save_npz, weights_to_dict
from engine.reversi.genome.evaluation import ALL_FEATURE_NAMES, evaluate, feature_vector
from engine.reversi.genome.weights import (
    FEATURE_GROUPS,
    FEATURE_NAMES,
    GenomeLayout,
    Weights,
    WeightsFileError,
    default_phase_bounds,
)
from engine.reversi.rules.state import Position, square
from evolve.ga.configuration.config import ConfigError, to_config
from tests.engine.reversi import reference_rules as ref
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.helpers_search import slow_positional

ROOT = Path(__file__).resolve().parents[3]
ALL_GROUPS = ("mobility", "stability", "corners", "parity")
NEW_FEATURES = ALL_FEATURE_NAMES[6:]

# --- slow references: plain loops over named squares, breadth-first search for regions ------

CORNER_OF_X = {"b2": "a1", "g2": "h1", "b7": "a8", "g7": "h8"}
CORNER_OF_C = {"b1": "a1", "a2": "a1", "g1": "h1", "h2": "h1",
               "a7": "a8", "b8": "a8", "g8": "h8", "h7": "h8"}


def slow_next_to_empty_corner(cells: list[int], corner_of: dict[str, str], colour: int) -> int:
    """Discs of ``colour`` (+1 side to move, -1 opponent) on the squares of ``corner_of`` whose
    corner is empty."""
    return sum(1 for sq, corner in corner_of.items()
               if cells[square(sq)] == colour and cells[square(corner)] == 0)


def slow_region_sizes(cells: list[int]) -> list[int]:
    """Sizes of the regions of empty cells (8-neighbourhood), by breadth-first search."""
    seen: set[int] = set()
    sizes = []
    for start in range(64):
        if cells[start] != 0 or start in seen:
            continue
        seen.add(start)
        queue, size = deque([start]), 0
        while queue:
            row, col = divmod(queue.popleft(), 8)
            size += 1
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    r, c = row + dr, col + dc
                    if 0 <= r < 8 and 0 <= c < 8 and cells[8 * r + c] == 0 \
                            and 8 * r + c not in seen:
                        seen.add(8 * r + c)
                        queue.append(8 * r + c)
        sizes.append(size)
    return sizes


def slow_new_features(cells: list[int]) -> list[int]:
    """``NEW_FEATURES`` in order, computed the slow way."""
    sizes = slow_region_sizes(cells)
    return [slow_next_to_empty_corner(cells, CORNER_OF_X, 1),
            slow_next_to_empty_corner(cells, CORNER_OF_X, -1),
            slow_next_to_empty_corner(cells, CORNER_OF_C, 1),
            slow_next_to_empty_corner(cells, CORNER_OF_C, -1),
            sum(1 for s in sizes if s % 2 == 1), sum(1 for s in sizes if s % 2 == 0)]


def random_board(seed: int) -> Position:
    """Any disjoint pair of boards (not necessarily reachable), with a random share of empty
    squares: fragmented empty regions that real games reach rarely."""
    rng = np.random.default_rng(seed)
    cells = rng.choice([0, 1, -1], 64, p=rng.dirichlet([1.0, 1.0, 1.0]))
    P, O = ref.to_boards([int(c) for c in cells])
    return Position.from_boards(P, O, True)


def new_features_of(p: Position) -> list[int]:
    return [int(v) for v in feature_vector(*p.boards)[6:]]


def cells_of(p: Position) -> list[int]:
    return ref.from_boards(p.player, p.opponent)


reachable = st.builds(random_reachable, st.integers(0, 2**32 - 1), st.integers(0, 70))
arbitrary = st.builds(random_board, st.integers(0, 2**32 - 1))


@settings(max_examples=400, deadline=None)
@given(st.one_of(reachable, arbitrary))
def test_new_features_match_the_slow_reference(position: Position):
    assert new_features_of(position) == slow_new_features(cells_of(position)), \
        position.to_string()


def test_new_features_match_the_slow_reference_along_whole_random_games():
    checked = 0
    for seed in range(30):
        for plies in range(0, 64, 3):
            p = random_reachable(seed, plies)
            assert new_features_of(p) == slow_new_features(cells_of(p)), p.to_string()
            checked += 1
    assert checked == 30 * 22


def board(own=(), opp=(), empty=()) -> Position:
    """X (to move) on ``own``, O on ``opp``, empty on ``empty``; every other square O."""
    chars = ["O"] * 64
    for names, char in ((own, "X"), (opp, "O"), (empty, "-")):
        for name in names:
            chars[square(name)] = char
    return Position.parse("".join(chars) + " X")


@pytest.mark.parametrize("position, expected", [
    (Position.start(), [0, 0, 0, 0, 0, 1]),  # 60 empties, one region
    # X on b2 next to empty a1; O on g7 next to empty h8 and on the C squares b1 a2 g8 h7;
    # a1 alone, h8 alone: two odd regions
    (board(own=["b2"], empty=["a1", "h8"]), [1, 1, 0, 4, 2, 0]),
    # the corner is taken: b2 no longer counts (g2's corner h1 is empty, g2 is O)
    (board(own=["b2", "a1"], empty=["h1"]), [0, 1, 0, 2, 1, 0]),
    # C squares: X on b1 and a2 with a1 empty; b8 is O with a8 taken (by O)
    (board(own=["b1", "a2", "b8"], empty=["a1"]), [0, 1, 2, 0, 1, 0]),
    # a1 and b2 touch by a corner: one region of 2; c4 alone: odd; d6 e6 f6: odd
    (board(empty=["a1", "b2", "c4", "d6", "e6", "f6"]), [0, 0, 0, 2, 2, 1]),
])
def test_new_features_on_hand_counted_positions(position, expected):
    assert new_features_of(position) == expected == slow_new_features(cells_of(position))


# --- the evaluation --------------------------------------------------------------------------


def all_groups_weights(seed: int, n_phases: int = 4, symmetric: bool = False) -> Weights:
    rng = np.random.default_rng(seed)
    layout = GenomeLayout(n_phases, symmetric, ALL_GROUPS)
    return Weights.from_genome(rng.uniform(-1, 1, layout.size), default_phase_bounds(n_phases),
                               symmetric, name=f"all{seed}", groups=ALL_GROUPS)


def test_evaluate_with_every_group_is_the_weighted_sum_of_feature_vector(reachable_positions):
    w = all_groups_weights(0)
    phase_of, positional, features = w.numba_arrays()
    assert features.shape == (4, len(ALL_FEATURE_NAMES)) and np.all(features != 0)
    for k, name in enumerate(w.feature_names):
        assert np.array_equal(features[:, ALL_FEATURE_NAMES.index(name)], w.features[:, k])
    checked = 0
    for p in reachable_positions:
        if p.is_game_over():
            continue
        phase = phase_of[64 - p.empties]
        want = slow_positional(cells_of(p), positional[phase]) + float(
            np.dot(features[phase], feature_vector(*p.boards)))
        for rev in (False, True):
            assert evaluate(*p.boards, phase_of, positional, features, rev) == pytest.approx(
                want, abs=1e-9)
        checked += 1
    assert checked > 150


@pytest.mark.parametrize("column", range(6, len(ALL_FEATURE_NAMES)))
def test_each_new_feature_is_computed_when_only_it_weighs(reachable_positions, column):
    """One non-zero weight at a time: the group is computed whichever of its weights is set."""
    features = np.zeros((1, len(ALL_FEATURE_NAMES)))
    features[0, column] = 0.5
    positional, phase_of = np.zeros((1, 64)), np.zeros(65, np.int64)
    for p in reachable_positions:
        if not p.is_game_over():
            value = evaluate(*p.boards, phase_of, positional, features, False)
            assert value == 0.5 * feature_vector(*p.boards)[column], p.to_string()


def test_default_weights_evaluate_bit_for_bit_as_the_six_feature_rows(reachable_positions):
    """The kernel reads 12 columns now; with the default groups the value is the one the old
    6-column rows give (which the kernel still accepts), to the last bit."""
    rng = np.random.default_rng(3)
    w = Weights(default_phase_bounds(3), rng.uniform(-1, 1, (3, 64)),
                rng.uniform(-1, 1, (3, len(FEATURE_NAMES))))
    phase_of, positional, features = w.numba_arrays()
    legacy = np.ascontiguousarray(w.features)
    assert np.array_equal(features[:, :6], legacy) and np.all(features[:, 6:] == 0)
    for p in reachable_positions:
        assert evaluate(*p.boards, phase_of, positional, features, True) == \
            evaluate(*p.boards, phase_of, positional, legacy, True)


# --- genome layout and weights ---------------------------------------------------------------


def test_the_default_layout_is_the_genome_of_before():
    layout = GenomeLayout(3, True)
    assert layout.feature_groups == ("mobility", "stability")
    assert layout.size == 3 * 16 and layout.feature_names == FEATURE_NAMES
    assert layout.names[10:16] == [f"p0.{n}" for n in FEATURE_NAMES]
    assert list(layout.blocks) == [f"p{p}.{b}" for p in range(3)
                                   for b in ("positional", "mobility", "stability")]
    assert layout.max_gene_magnitude() == pytest.approx(1e6 / (64 + 6 * 64), rel=1e-6)
    assert get_game("othello").genome_spec().names == tuple(layout.names)


def test_layout_follows_the_chosen_groups_in_catalogue_order():
    layout = GenomeLayout(2, False, ("parity", "corners", "mobility", "stability"))
    assert layout.feature_groups == ALL_GROUPS
    assert layout.phase_size == 64 + 12 and layout.size == 2 * 76
    assert layout.names[64:76] == [f"p0.{n}" for n in ALL_FEATURE_NAMES]
    assert layout.blocks["p1.corners"] == slice(76 + 64 + 6, 76 + 64 + 10)
    assert layout.blocks["p1.parity"] == slice(76 + 64 + 10, 76 + 64 + 12)
    only = GenomeLayout(1, True, ("parity",))
    assert only.names[10:] == ["p0.parity_odd_regions", "p0.parity_even_regions"]
    assert list(only.blocks) == ["p0.positional", "p0.parity"]
    assert GenomeLayout(1, True, ()).size == 10  # positional only
    with pytest.raises(ValueError, match=r"unknown feature group\(s\) \['edges'\] \(allowed: "
                                         "mobility, stability, corners, parity\\)"):
        GenomeLayout(1, True, ("mobility", "edges"))


@pytest.mark.parametrize("symmetric", [True, False])
def test_genomes_within_max_gene_magnitude_are_valid_with_every_group(symmetric):
    layout = GenomeLayout(3, symmetric, ALL_GROUPS)
    m = layout.max_gene_magnitude()
    assert m == pytest.approx(1e6 / (64 + 12 * 64), rel=1e-6)
    bounds = default_phase_bounds(3)
    for sign in (1.0, -1.0):
        Weights.from_genome(np.full(layout.size, sign * m), bounds, symmetric, groups=ALL_GROUPS)
    with pytest.raises(ValueError, match="weights too large"):
        Weights.from_genome(np.full(layout.size, 1.001 * m), bounds, symmetric,
                            groups=ALL_GROUPS)


@pytest.mark.parametrize("groups", [ALL_GROUPS, ("corners",), ("parity",), (),
                                    ("mobility", "parity")])
@pytest.mark.parametrize("symmetric", [True, False])
def test_genome_json_and_npz_round_trips_keep_the_groups(tmp_path, groups, symmetric):
    rng = np.random.default_rng(len(groups))
    layout = GenomeLayout(3, symmetric, groups)
    genome = rng.uniform(-1, 1, layout.size)
    w = Weights.from_genome(genome, default_phase_bounds(3), symmetric, name="g", groups=groups)
    assert np.array_equal(w.to_genome(), genome)
    names = [n for g in groups for n in FEATURE_GROUPS[g]]
    assert list(w.feature_names) == names and w.features.shape == (3, len(names))
    save_json(w, tmp_path / "w.json")
    save_npz(w, tmp_path / "w.npz")
    assert json.loads((tmp_path / "w.json").read_text())["feature_names"] == names
    for path in (tmp_path / "w.json", tmp_path / "w.npz"):
        back = load_weights(path)
        assert back.feature_groups == groups
        assert np.array_equal(back.to_genome(), genome)
        assert np.array_equal(back.numba_arrays()[2], w.numba_arrays()[2])


def test_committed_weights_files_load_unchanged_and_write_back_byte_for_byte():
    files = [*sorted((ROOT / "engine" / "reversi" / "data").glob("*.json")),
             *sorted((ROOT / "tests" / "data" / "expected_runs").glob("*/champion.json"))]
    files += [f for f in sorted((ROOT / "experiments" / "results" / "champions").glob("*.json"))
              if json.loads(f.read_text()).get("game") == "reversi"
              and json.loads(f.read_text()).get("kind") != "ntuple"]  # networks: test_ntuple_*
    assert len(files) >= 7
    for f in files:
        w = load_weights(f)
        assert w.feature_groups == ("mobility", "stability") and w.feature_names == FEATURE_NAMES
        assert dumps(w) == f.read_text(), f


def test_a_file_with_an_unknown_feature_name_is_refused_in_one_line(tmp_path):
    d = weights_to_dict(all_groups_weights(1, n_phases=1))
    d["feature_names"].append("edge_anchors")
    d["phases"][0]["features"]["edge_anchors"] = 1.0
    (tmp_path / "w.json").write_text(json.dumps(d))
    with pytest.raises(WeightsFileError) as err:
        load_weights(tmp_path / "w.json")
    text = str(err.value)
    assert "w.json: feature_names: unknown feature(s) ['edge_anchors']" in text
    assert "\n" not in text


def test_a_group_partly_listed_by_a_hand_written_file_weighs_zero_for_the_rest(tmp_path):
    d = weights_to_dict(Weights((), np.zeros(64), np.ones(6)))
    d["feature_names"].append("parity_odd_regions")
    d["phases"][0]["features"]["parity_odd_regions"] = 2.5
    (tmp_path / "w.json").write_text(json.dumps(d))
    w = load_weights(tmp_path / "w.json")
    assert w.feature_groups == ("mobility", "stability", "parity")
    assert list(w.features[0]) == [1.0] * 6 + [2.5, 0.0]


# --- the game setting --------------------------------------------------------------------------


def test_the_game_builds_every_genome_from_its_feature_groups(tmp_path):
    game = get_game("reversed_reversi", {"genome": {"features": ["parity", "corners",
                                                                "stability", "mobility"]}})
    assert game.settings()["genome"]["features"] == list(ALL_GROUPS)
    spec = game.genome_spec()
    assert spec.size == 3 * (10 + 12) and "p2.parity" in spec.blocks
    genome = game.reference_genome("course")  # the references weigh every feature 0
    w = game.weights(genome)
    assert w.feature_groups == ALL_GROUPS and np.all(w.features == 0)
    genome = np.random.default_rng(0).uniform(-1, 1, spec.size)
    game.save_champion(tmp_path / "c.json", genome, name="c")
    champion = game.load_champion(tmp_path / "c.json")
    assert champion.settings["genome"]["features"] == list(ALL_GROUPS)
    assert np.array_equal(champion.genome, genome)
    again = get_game("reversed_reversi", champion.settings)
    assert again.genome_spec().names == spec.names
    assert get_game("reversed_reversi").load_champion(tmp_path / "c.json").genome.size == 66


@pytest.mark.parametrize("value", [["mobility", "edges"], "mobility", ["parity", "parity"], [3]])
def test_bad_feature_groups_are_a_one_line_settings_error(value):
    with pytest.raises(GameSettingsError) as err:
        get_game("othello", {"genome": {"features": value}})
    text = str(err.value)
    assert text.startswith("game.genome.features=") and "\n" not in text
    assert "must be a list of distinct feature groups from: mobility, stability, corners, " \
           "parity" in text


def composed(*overrides):
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        return compose("config", overrides=list(overrides))


def test_the_config_key_reaches_the_game_and_bad_values_name_it():
    c = to_config(composed("game.genome.features=[mobility,stability,corners,parity]"))
    assert c.game.settings["genome"]["features"] == list(ALL_GROUPS)
    assert to_config(composed()).game.settings["genome"]["features"] == ["mobility", "stability"]
    with pytest.raises(ConfigError) as err:
        to_config(composed("game.genome.features=[mobility,edges]"))
    text = str(err.value)
    assert text.startswith("game.genome.features=[mobility, edges] must be a list of distinct "
                           "feature groups from: mobility, stability, corners, parity")
    assert "\n" not in text


def test_a_smoke_study_evolves_every_feature_group(tmp_path):
    import pandas as pd

    from evolve.ga.loop import run
    from evolve.ga.run_files.hooks import INDIVIDUAL_COLUMNS

    cfg = composed("+experiment=smoke", "game.genome.features=[mobility,stability,corners,parity]",
                   "plot=false", "game=othello")
    result = run(cfg, run_dir=tmp_path)
    layout = GenomeLayout(2, True, ALL_GROUPS)
    individuals = pd.read_csv(tmp_path / "individuals.csv")
    assert list(individuals.columns) == INDIVIDUAL_COLUMNS + layout.names
    assert sorted(individuals.generation.unique()) == [0, 1]
    new_genes = individuals[[f"p{p}.{n}" for p in range(2) for n in NEW_FEATURES]].to_numpy()
    assert np.any(new_genes != 0)  # the GA varies them (the seed references start them at 0)
    champion = json.loads((tmp_path / "champion.json").read_text())
    assert champion["feature_names"] == list(ALL_FEATURE_NAMES)
    loaded = get_game("othello").load_champion(tmp_path / "champion.json")
    assert loaded.settings["genome"]["features"] == list(ALL_GROUPS)
    assert result.run_dir == tmp_path
