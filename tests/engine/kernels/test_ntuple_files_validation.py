"""Schema-2 network files (``engine.kernels.ntuple.files``) are read strictly: the schema version
is the integer 2, no top-level field goes unread, and the header a reader without our code trusts
(``phases``, ``symmetry``, ``phase_discs``) agrees with the settings; every committed file still
loads."""

from __future__ import annotations

import glob
import json
import re

import numpy as np
import pytest

from engine.core.game import ChampionFileError
from engine.core.registry import get_game
from engine.kernels.ntuple.files import NetworkFile
from tests.engine.champion_files import refused

SETTINGS = {  # small networks of every game that writes the shared form
    "othello": {"genome": {"kind": "ntuple", "layout": "straight2", "phases": 3,
                           "features": ["mobility"]}},
    "pentago_twist": {"genome": {"kind": "ntuple", "layout": "straight5", "phases": 2}},
    "hexifence": {"size": 2, "genome": {"kind": "ntuple", "phases": 2}},
}


def saved(tmp_path, name: str) -> tuple:
    """A sound champion file of ``name`` (zero weights) and its JSON data."""
    game = get_game(name, SETTINGS[name])
    path = tmp_path / f"{name}.json"
    game.save_champion(path, np.zeros(game.genome_spec().size), "z", {"games": 1})
    return path, json.loads(path.read_text())


def _set(key, value):
    return lambda d: d.__setitem__(key, value)


@pytest.mark.parametrize("name", list(SETTINGS))
@pytest.mark.parametrize("mutate, message", [
    (_set("schema_version", 2.0), "schema_version=2.0, expected 2"),
    (_set("schema_version", "2"), "schema_version='2'"),
    (_set("weight", [[0.0]]), "unknown top-level field(s) ['weight']; allowed: game, "),
    (lambda d: d["phases"].__setitem__("count", 5), 'phases must be {"count": 2, "rule"'),
    (lambda d: d["phases"].__setitem__("count", 2.0), 'phases must be {"count": 2, "rule"'),
    (lambda d: d.pop("phases"), 'phases must be {"count": 2, "rule"'),
])
def test_a_bad_version_an_unknown_field_or_a_wrong_phase_count_is_refused(tmp_path, name,
                                                                          mutate, message):
    path, data = saved(tmp_path, name)
    if name == "othello" and "phases must" in message:
        message = message.replace('"count": 2', '"count": 3')
    mutate(data)
    assert message in refused(get_game(name), path, data)


@pytest.mark.parametrize("version", [2.0, True, "2", 3])
def test_the_reader_itself_wants_the_integer_2(tmp_path, version):
    """``True == 1``: the games send such a file to their version-1 reader before ours."""
    from engine.pentago.files import network

    path, data = saved(tmp_path, "pentago_twist")
    with pytest.raises(ChampionFileError, match=f"schema_version={version!r}, expected"):
        network.load(path, {**data, "schema_version": version},
                     get_game("pentago_twist").with_settings)


@pytest.mark.parametrize("name, mutate, message", [
    ("othello", _set("symmetry", "d2"), "symmetry must be settings.genome.symmetry='d4'"),
    ("othello", _set("symmetry", None), "symmetry must be settings.genome.symmetry='d4'"),
    ("pentago_twist", _set("symmetry", "none"), "symmetry must be settings.genome.symmetry="),
    ("othello", _set("phase_discs", [[4, 23], [24, 64]]), "phase_discs must be 3 [first, last]"),
    ("othello", _set("phase_discs", [[4, 29], [30, 43], [44, 64]]),
     "phases 1.. starting at settings.genome.phase_bounds=[24, 44]"),
    ("othello", _set("phase_discs", [[4, 22], [24, 43], [44, 64]]), "phase_discs must be"),
    ("othello", _set("phase_discs", [[4, 23], [24, 43], [44, 64.0]]), "phase_discs must be"),
    ("othello", _set("phase_discs", "4-64"), "phase_discs must be"),
])
def test_a_header_that_contradicts_the_settings_is_refused(tmp_path, name, mutate, message):
    path, data = saved(tmp_path, name)
    assert data["phase_discs" if name == "othello" else "symmetry"]  # the field is written
    mutate(data)
    assert message in refused(get_game(name), path, data)


def test_the_npz_twin_is_validated_as_the_json_file(tmp_path):
    from engine.reversi.files import save_npz_evaluation

    game = get_game("othello", SETTINGS["othello"])
    w = game.weights(np.zeros(game.genome_spec().size), "z", {"variant": "othello"})
    good = tmp_path / "good.npz"
    save_npz_evaluation(w, good)
    assert np.array_equal(get_game("othello").load_champion(good).genome, w.to_genome())
    with np.load(good, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    header = json.loads(str(arrays["header_json"]))
    for change, message in [({"schema_version": 2.0}, "schema_version=2.0"),
                            ({"weights": [[0.0]]}, "header_json must not hold weights"),
                            ({"colour": "black"}, "unknown top-level field(s) ['colour']")]:
        bad = tmp_path / "bad.npz"
        np.savez(bad, **{**arrays, "header_json": np.str_(json.dumps({**header, **change}))})
        with pytest.raises(ChampionFileError, match=re.escape(message)):
            get_game("othello").load_champion(bad)


def test_a_writer_cannot_write_a_header_field_the_reader_refuses():
    game = get_game("pentago_twist", SETTINGS["pentago_twist"])
    file = NetworkFile(game.name, "value", 1.0)
    genome = np.zeros(game.genome_spec().size)
    assert file.document(game, genome, {"symmetry": "rot180"}, "rule")["symmetry"] == "rot180"
    with pytest.raises(ValueError, match="header: fields must be among cells, nodes"):
        file.document(game, genome, {"colour": "black"}, "rule")


COMMITTED = sorted(glob.glob("experiments/results/champions/*ntuple*.json")
                   + glob.glob("tests/data/network_v1/*.json"))
assert len(COMMITTED) >= 8, "run from the repository root"


@pytest.mark.parametrize("path", COMMITTED)
def test_every_committed_network_file_still_loads(path):
    data = json.loads(open(path, encoding="utf-8").read())
    name = data["game"] if data["game"] != "reversi" else {
        "othello": "othello", "reversed": "reversed_reversi"}[data["variant"]]
    champion = get_game(name).load_champion(path)
    assert champion.genome.size > 0 and np.all(np.isfinite(champion.genome))
