"""Export: JSON/npz round trips, run directories, and clear refusals of bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.reversi.export.cs303 import render_cs303
from engine.reversi.files import load_weights, save_json
from engine.reversi.genome.weights import FEATURE_NAMES, GenomeLayout, Weights, default_phase_bounds
from evolve.export import export, main


def champion(n_phases: int = 4, symmetric: bool = False, seed: int = 3) -> Weights:
    rng = np.random.default_rng(seed)
    bounds = default_phase_bounds(n_phases)
    genome = rng.uniform(-1, 1, GenomeLayout(n_phases, symmetric).size)
    w = Weights.from_genome(genome, bounds, symmetric, name="champ")
    w.metadata.update({
        "variant": "reversed",
        "search": {"depth": 3, "endgame_empties": 8},
        "provenance": {"run_dir": "outputs/x", "generation": 7, "seed": 1,
                       "config_hash": "abc", "fitness": 12.5},
    })
    return w


@pytest.fixture
def run_dir(tmp_path):
    d = tmp_path / "run"
    d.mkdir()
    save_json(champion(), d / "champion.json")
    return d


def test_json_export_of_a_run_dir_round_trips_the_genome(run_dir, tmp_path):
    out = export(run_dir, "json", tmp_path / "out" / "c.json")
    original, again = load_weights(run_dir / "champion.json"), load_weights(out)
    assert np.array_equal(original.to_genome(), again.to_genome())
    assert again.phase_bounds == original.phase_bounds
    assert again.metadata["provenance"] == original.metadata["provenance"]


def test_json_export_has_every_field_issue5_asks_for(run_dir, tmp_path):
    d = json.loads(export(run_dir, "json", tmp_path / "c.json").read_text())
    assert d["schema_version"] == 1 and d["variant"] == "reversed"
    assert d["feature_names"] == list(FEATURE_NAMES)
    assert len(d["phases"]) == 4 and len(d["phase_bounds"]) == 3
    for phase in d["phases"]:
        assert np.array(phase["positional"]).shape == (8, 8)  # expanded matrix
        assert set(phase["features"]) == set(FEATURE_NAMES)
    assert d["metadata"]["search"] == {"depth": 3, "endgame_empties": 8}
    assert set(d["metadata"]["provenance"]) >= {"run_dir", "generation", "seed", "config_hash",
                                                "fitness"}


def test_npz_export_loads_without_pickle_and_arrays_are_equal(run_dir, tmp_path):
    out = export(run_dir, "npz", tmp_path / "c.npz")
    w = load_weights(run_dir / "champion.json")
    with np.load(out, allow_pickle=False) as z:
        assert np.array_equal(z["positional"].reshape(-1, 64), w.positional)
        assert np.array_equal(z["features"], w.features)
        assert list(z["phase_bounds"]) == list(w.phase_bounds)
        assert [str(n) for n in z["feature_names"]] == list(FEATURE_NAMES)
        assert all(z[k].dtype != object for k in z.files)
    assert np.array_equal(load_weights(out).to_genome(), w.to_genome())


def test_symmetric_weights_are_exported_expanded(tmp_path):
    w = champion(symmetric=True)
    save_json(w, tmp_path / "s.json")
    d = json.loads(export(tmp_path / "s.json", "json", tmp_path / "o.json").read_text())
    m = np.array(d["phases"][0]["positional"])
    assert np.array_equal(m, m.T) and np.array_equal(m, m[::-1])


def test_cs303_export_embeds_the_exact_weights(run_dir, tmp_path):
    out = export(run_dir, "cs303", tmp_path / "ai.py")
    namespace: dict = {}
    exec(compile(out.read_text(), str(out), "exec"), namespace)
    w = load_weights(run_dir / "champion.json")
    assert np.array_equal(np.array(namespace["POSITIONAL"]), w.positional)
    assert np.array_equal(np.array(namespace["FEATURES"]), w.features)
    assert namespace["PHASE_OF_DISCS"] == tuple(int(p) for p in w.numba_arrays()[0])
    assert namespace["ENDGAME_EMPTIES"] == 8 and namespace["VARIANT"] == "reversed"


def test_cs303_export_refuses_othello_weights():
    w = champion()
    w.metadata["variant"] = "othello"
    with pytest.raises(ValueError, match="Reversed Reversi"):
        render_cs303(w)


@pytest.mark.parametrize(
    "content, fragment",
    [
        ('{"schema_version": 1, "game": "reversi"', "truncated"),
        ('{"schema_version": 99}', "schema_version"),
        ("not json at all", "invalid JSON"),
    ],
)
def test_malformed_file_gives_one_line_error_and_nonzero_exit(tmp_path, capsys, content, fragment):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    assert main([str(bad), "--format", "json", "--out", str(tmp_path / "o.json")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and fragment in err and "\n" not in err
    assert not (tmp_path / "o.json").exists()


def test_missing_source_and_dir_without_champion_are_refused(tmp_path, capsys):
    assert main([str(tmp_path / "nope.json"), "--format", "json", "--out", "x.json"]) == 1
    assert "no such file" in capsys.readouterr().err
    assert main([str(tmp_path), "--format", "npz", "--out", "x.npz"]) == 1
    assert "champion.json" in capsys.readouterr().err


def test_command_line_runs_as_a_module_without_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    proc = subprocess.run([sys.executable, "-m", "evolve.export", str(bad), "--format", "cs303",
                           "--out", str(tmp_path / "ai.py")], capture_output=True, text=True)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


def test_npz_without_suffix_gets_it_appended_and_the_real_path_is_reported(run_dir, tmp_path,
                                                                           capsys):
    assert main([str(run_dir), "--format", "npz", "--out", str(tmp_path / "noext")]) == 0
    out = capsys.readouterr().out
    written = tmp_path / "noext.npz"
    generation = load_weights(run_dir / "champion.json").metadata["provenance"]["generation"]
    assert out.splitlines()[0] == (f"wrote {written} (.npz appended): reversed_reversi gen "
                                   f"{generation} as npz")  # named by its game and generation
    assert written.is_file() and not (tmp_path / "noext").exists()
    expected = load_weights(run_dir / "champion.json")
    assert np.array_equal(load_weights(written).to_genome(), expected.to_genome())


@pytest.mark.parametrize("fmt, name, fragment", [("npz", "c.json", "ending in .npz"),
                                                 ("json", "c.npz", "cannot be written")])
def test_a_suffix_the_loader_would_misread_is_refused(run_dir, tmp_path, capsys, fmt, name,
                                                      fragment):
    assert main([str(run_dir), "--format", fmt, "--out", str(tmp_path / name)]) == 1
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1 and not (tmp_path / name).exists()


def test_the_export_says_the_search_the_champion_records_and_the_options_over_it(run_dir,
                                                                               tmp_path, capsys):
    assert main([str(run_dir), "--format", "json", "--out", str(tmp_path / "c.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "search: depth 3, exact endgame from 8 (champion file)"
    assert json.loads((tmp_path / "c.json").read_text())["metadata"]["search"] == {
        "depth": 3, "endgame_empties": 8}  # kept: the exported file records it too
    assert main([str(run_dir), "--format", "cs303", "--depth", "1", "--endgame-empties", "3",
                 "--out", str(tmp_path / "ai.py")]) == 0
    assert capsys.readouterr().out.splitlines()[1] == (
        "search: depth 3, exact endgame from 8 (champion file); the export uses --depth 1 "
        "--endgame-empties 3")
    assert main([str(run_dir), "--format", "cs303", "--numba", "off", "--out",
                 str(tmp_path / "ai.py")]) == 0  # an option that is not a search setting
    assert capsys.readouterr().out.splitlines()[1] == \
        "search: depth 3, exact endgame from 8 (champion file)"


def test_play_records_the_search_front_ends_play_the_champion_at(run_dir, tmp_path, capsys):
    out = tmp_path / "c.json"
    assert main([str(run_dir), "--format", "json", "--out", str(out),
                 "--play", '{"depth": 5, "endgame_empties": 12}']) == 0
    assert capsys.readouterr().out.splitlines()[1] == \
        "search: depth 5, exact endgame from 12 (champion file's play search)"
    metadata = json.loads(out.read_text())["metadata"]
    assert metadata["play"] == {"depth": 5, "endgame_empties": 12}
    assert metadata["search"] == {"depth": 3, "endgame_empties": 8}  # what it was evolved with
    assert np.array_equal(load_weights(out).to_genome(),
                          load_weights(run_dir / "champion.json").to_genome())


@pytest.mark.parametrize("play", ['{"depth": 0}', '{"depth": 2, "exact": 3}', "3",
                                  '{"depth": 2, "time_limit": -1}', "{bad"])
def test_a_bad_play_search_is_one_line_and_writes_nothing(run_dir, tmp_path, capsys, play):
    out = tmp_path / "c.json"
    assert main([str(run_dir), "--format", "json", "--out", str(out), "--play", play]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: --play: a JSON object") and err.count("\n") == 1
    assert not out.exists()


def test_play_needs_the_json_format(run_dir, tmp_path, capsys):
    assert main([str(run_dir), "--format", "npz", "--out", str(tmp_path / "c.npz"),
                 "--play", '{"depth": 2, "endgame_empties": 4}']) == 1
    assert "--format npz cannot hold it" in capsys.readouterr().err


def test_the_export_command_reads_the_champion_once(tmp_path, monkeypatch, capsys):
    """Loading, the format, the label and the search line all use the one ``Champion``."""
    import shutil

    from tests.engine.core.reads import count_opens

    source = Path(__file__).resolve().parents[2] / "experiments" / "results" / "champions"
    path = tmp_path / "p.json"
    shutil.copy(source / "pentago_twist.json", path)
    opened = count_opens(monkeypatch, path)
    assert main([str(path), "--format", "comp424", "--out", str(tmp_path / "java")]) == 0
    assert len(opened) == 1, opened
    assert "search: " in capsys.readouterr().out
