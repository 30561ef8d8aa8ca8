"""Network files (schema 2, the shared form of ``engine.kernels.ntuple.files``): they say what
they hold (a reader of the JSON alone evaluates as the engine), round-trip exactly through JSON
and npz and the game's champion paths, and refuse bad input with one line naming the field.
Schema-1 files (every network file written before) still load, with the same weights;
square-table files are untouched."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from engine.core.champions.files import champion_game
from engine.core.game import ChampionFileError
from engine.core.registry import get_game
from engine.reversi.files import (
    load_evaluation,
    load_weights,
    reference_weights,
    save_evaluation,
    save_npz_evaluation,
)
from engine.reversi.genome.network import NtupleWeights
from engine.reversi.genome.weights import Weights, WeightsFileError
from evolve.export import export
from tests.engine.reversi.conftest import random_reachable
from tests.engine.reversi.helpers_ntuple import file_network_value, network_game, random_network
from tests.engine.reversi.test_weights import fuzzed_variants

V1 = Path("tests/data/network_v1")  # schema-1 files as the code before schema 2 wrote them
SAVE = {".json": save_evaluation, ".npz": save_npz_evaluation}


def network(seed: int = 1, **genome) -> NtupleWeights:
    game = network_game("reversed_reversi", **{"phases": 3, "features": ["mobility"], **genome})
    w = random_network(game, seed)
    w.metadata.update(command="python make.py --seed 1", search={"depth": 1})
    return w


def test_a_reader_of_the_json_alone_evaluates_as_the_engine(tmp_path):
    from engine.kernels import ntuple as nt

    w = network(layout="corner3+edge2x")
    path = tmp_path / "net.json"
    save_evaluation(w, path)
    data = json.loads(path.read_text())
    assert (data["schema_version"], data["kind"], data["game"]) == (2, "ntuple",
                                                                   "reversed_reversi")
    genome = data["settings"]["genome"]
    assert (genome["layout"], genome["symmetry"], genome["phase_bounds"]) == (
        "corner3+edge2x", "d4", [24, 44])
    assert data["phase_discs"] == [[4, 23], [24, 43], [44, 64]]
    assert data["metadata"]["command"] == "python make.py --seed 1"
    for seed in range(8):
        for plies in (4, 22, 41, 57):
            p = random_reachable(seed, plies)
            phase = int(np.searchsorted([24, 44], 64 - p.empties, side="right"))
            want = nt.evaluate_bits(*p.boards, w.tables, w.weights[phase])
            assert file_network_value(data, p.player, p.opponent) == want


@pytest.mark.parametrize("suffix", [".json", ".npz"])
def test_network_files_round_trip_exactly(tmp_path, suffix):
    w = network(layout="straight3", symmetry="d2")
    path = tmp_path / f"net{suffix}"
    SAVE[suffix](w, path)
    back = load_evaluation(path)
    assert isinstance(back, NtupleWeights)
    assert np.array_equal(back.weights, w.weights) and np.array_equal(back.features, w.features)
    assert (back.spec, back.symmetry, back.phase_bounds, back.feature_groups, back.name) == (
        "straight3", "d2", (24, 44), ("mobility",), w.name)
    assert back.layout is w.layout  # a family layout is built once per process
    assert back.metadata["search"] == {"depth": 1} and back.variant == "reversed"


def test_a_layout_of_its_own_round_trips_through_the_game(tmp_path):
    from engine.kernels import ntuple as nt

    layout = nt.board_layout(8, 8, [(0, 1, 2, 9), (18, 27, 36)], "d2", name="mine")
    game = network_game("othello", layout=nt.layout_to_json(layout), features=["parity"])
    genome = random_network(game, 4).to_genome()
    path = tmp_path / "mine.json"
    game.save_champion(path, genome, "mine", {"search": {"depth": 1}})
    data = json.loads(path.read_text())
    assert data["symmetry"] is None and isinstance(data["settings"]["genome"]["layout"], dict)
    champion = get_game("othello").load_champion(path)  # the default game reads it
    assert champion.settings["genome"]["layout"]["tuples"] == [[0, 1, 2, 9], [18, 27, 36]]
    assert np.array_equal(champion.genome, genome) and champion.name == "mine"
    again = get_game("othello", champion.settings)
    assert again.genome_spec().names == game.genome_spec().names


@pytest.mark.parametrize("name", ["othello", "reversed_reversi"])
def test_champion_files_of_networks_go_through_the_game_and_export(tmp_path, name):
    game = network_game(name, phases=2, features=["stability"])
    genome = random_network(game, 6).to_genome()
    path = tmp_path / "champion.json"
    game.save_champion(path, genome, "c", {"search": {"depth": 1, "endgame_empties": 3}})
    assert champion_game(path) == name
    champion = get_game(name).load_champion(path)
    assert champion.settings == {"genome": {**game.settings()["genome"], "symmetry": "d4"}}
    assert np.array_equal(champion.genome, genome)
    npz = export(path, "npz", tmp_path / "c.npz")
    assert champion_game(npz) == name
    back = export(npz, "json", tmp_path / "back.json")
    assert json.loads(back.read_text()) == json.loads(path.read_text())


def test_square_table_files_load_as_before_and_name_a_network_file_when_given_one(tmp_path):
    w = reference_weights("wpc")
    assert isinstance(load_evaluation("engine/reversi/data/wpc.json"), Weights)
    assert np.array_equal(load_evaluation("engine/reversi/data/wpc.json").positional,
                          w.positional)
    path = tmp_path / "net.json"
    save_evaluation(network(), path)
    with pytest.raises(WeightsFileError, match="kind: this file holds an n-tuple network"):
        load_weights(path)


def _set(key, value):
    return lambda d: d.__setitem__(key, value)


def _genome(key, value):
    return lambda d: d["settings"]["genome"].__setitem__(key, value)


@pytest.mark.parametrize("mutate, message", [
    (_set("schema_version", 3), "schema_version=3, expected 2"),
    (_set("game", "chess"), "game: expected one of ['othello', 'reversed_reversi']"),
    (_set("kind", "weights"), "schema_version: expected 1, got 2"),  # read as square tables
    (_set("settings", []), "settings must be an object"),
    (lambda d: d["layout"]["tuples"][0].__setitem__(0, 99),
     "layout: tuples[0]: cell 99 is out of range"),
    (lambda d: d["layout"].__setitem__("lut_offsets", [0, 1]), "layout: lut_offsets: does not "
     "match"),
    (_genome("phases", 0), "settings: game.genome.phases=0"),
    (_genome("features", ["colour"]), "settings: game.genome.features=[colour]"),
    (lambda d: d["weights"][1].pop(), "weights must be [phases][288] numbers"),
    (lambda d: d["weights"][0].__setitem__(7, "x"), "weights must be [phases][288] numbers"),
    (lambda d: d["weights"].pop(), "weights must be [3][288] numbers"),
    (lambda d: d["feature_weights"]["names"].pop(), "feature_weights.names must be"),
    (lambda d: d.pop("feature_weights"), "feature_weights.names must be"),
    (lambda d: d["weights"][0].__setitem__(0, 1e7), "finite with |w| <= 1e+06"),
    (lambda d: d["weights"][0].__setitem__(0, 9e5), "weights too large"),
])
def test_malformed_network_files_are_refused_in_one_line_naming_the_field(tmp_path, mutate,
                                                                           message):
    good = tmp_path / "good.json"
    save_evaluation(network(), good)
    data = json.loads(good.read_text())
    mutate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(WeightsFileError) as err:
        load_evaluation(path)
    text = str(err.value)
    assert message in text and text.startswith(str(path)) and "\n" not in text
    with pytest.raises(ChampionFileError) as err:
        get_game("reversed_reversi").load_champion(path)
    assert message in str(err.value)


@pytest.mark.parametrize("suffix", [".json", ".npz"])
def test_corrupted_network_files_only_ever_raise_weights_file_error(tmp_path, suffix):
    w = network(phases=1)
    good = tmp_path / f"good{suffix}"
    SAVE[suffix](w, good)
    path = tmp_path / f"fuzzed{suffix}"
    refused = 0
    for data in fuzzed_variants(good.read_bytes(), seed=3, n=150):
        path.write_bytes(data)
        try:
            assert isinstance(load_evaluation(path), NtupleWeights)
        except WeightsFileError as e:
            refused += 1
            assert str(path) in str(e) and "\n" not in str(e)
    assert refused >= 150  # every truncation at least is refused


# --- schema 1 -------------------------------------------------------------------------------

def test_the_schema_1_othello_network_loads_with_the_weights_of_the_committed_network():
    """The committed 2x2-square network (the Othello champion until the blend) is the schema-1
    first network file rewritten in schema 2: the same genome, whichever file a user holds."""
    old = get_game("othello").load_champion(V1 / "othello_ntuple.json")
    new = get_game("othello").load_champion(
        "experiments/results/champions/othello_ntuple_square2.json")
    assert json.loads((V1 / "othello_ntuple.json").read_text())["schema_version"] == 1
    assert np.array_equal(old.genome, new.genome) and old.settings == new.settings
    assert old.name == new.name == "TD 4000000 games"
    assert old.metadata["command"] == new.metadata["command"]
    npz = load_evaluation(V1 / "othello_ntuple.npz")
    assert np.array_equal(npz.to_genome(), old.genome) and npz.variant == "othello"


@pytest.mark.parametrize("name", ["reversed_straight3_d2", "othello_own_layout"])
def test_schema_1_files_load_and_export_to_schema_2_with_the_same_weights(tmp_path, name):
    old = load_evaluation(V1 / f"{name}.json")
    out = export(V1 / f"{name}.json", "json", tmp_path / "new.json")
    assert json.loads(out.read_text())["schema_version"] == 2
    new = load_evaluation(out)
    assert np.array_equal(new.weights, old.weights) and np.array_equal(new.features,
                                                                       old.features)
    assert (new.layout, new.phase_bounds, new.feature_groups, new.variant, new.name) == (
        old.layout, old.phase_bounds, old.feature_groups, old.variant, old.name)
    if (V1 / f"{name}.npz").is_file():
        assert np.array_equal(load_evaluation(V1 / f"{name}.npz").to_genome(), old.to_genome())


@pytest.mark.parametrize("mutate, message", [
    (_set("game", "chess"), "game: expected 'reversi'"),
    (_set("variant", "go"), "variant: expected one of"),
    (_set("extra", 1), "unknown top-level key(s) ['extra']"),
    (lambda d: d.pop("value"), "missing key(s) ['value']"),
    (_set("layout_spec", {"family": "straight4", "symmetry": "d2"}), "layout_spec: does not "
     "build the layout the file holds"),
    (lambda d: d["phases"][1]["weights"].pop(), "phases[1].weights: expected"),
    (lambda d: d["phases"][0]["weights"].__setitem__(7, "x"),
     "phases[0].weights[7]: expected a number"),
    (lambda d: d["phases"][2]["features"].pop("mobility_own"), "phases[2].features: expected"),
    (lambda d: d["phases"][0].__setitem__("discs", [4, 30]), "phases[0].discs: expected [4, 23]"),
    (lambda d: d["phases"].pop(), "phases: expected 3 phases"),
    (_set("phase_bounds", [44, 24]), "strictly increasing"),
    (lambda d: d["phases"][0]["weights"].__setitem__(0, 1e9), "weights too large"),
])
def test_malformed_schema_1_files_are_refused_in_one_line_naming_the_field(tmp_path, mutate,
                                                                            message):
    data = json.loads((V1 / "reversed_straight3_d2.json").read_text())
    mutate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(WeightsFileError) as err:
        load_evaluation(path)
    text = str(err.value)
    assert message in text and text.startswith(str(path)) and "\n" not in text
