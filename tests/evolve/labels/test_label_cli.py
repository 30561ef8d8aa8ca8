"""``python -m evolve.label``: a dataset of distinct labelled positions, the same bits whatever
runs it (serial, Ray workers, interrupted and resumed), and bad input in one line."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from engine.reversi.labels.symmetry import boards_of, symmetry_keys
from evolve import label
from evolve.labels import dataset

OTHER_GAME = str(Path(__file__).resolve().parents[3] / "experiments/results/champions/"
                 "reversed_reversi.json")
SMALL = ["--game", "othello", "--positions", "300", "--batch-positions", "120",
         "--exact-empties", "8", "--depth", "2", "--seed", "3", "--openings", "2:6"]


def build(out, *extra) -> None:
    assert label.main([*SMALL, *extra, "--out", str(out)]) == 0


def batch_files(out) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("batch-*.npz"))}


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    out = tmp_path_factory.mktemp("serial") / "data"
    build(out)
    return out


def test_the_dataset_holds_distinct_labelled_positions(serial):
    data = dataset.read_dataset(serial)
    assert len(data) == 300
    keys = symmetry_keys(*boards_of(data.cells))
    assert len(np.unique(keys)) == 300  # no two equal under the symmetries
    empties = 60 - data.ply
    np.testing.assert_array_equal(data.source == dataset.EXACT, empties <= 8)
    np.testing.assert_array_equal(data.depth, np.where(empties <= 8, empties, 2))
    meta = data.meta
    assert meta["complete"] and meta["positions"] == 300 and meta["seed"] == 3
    assert meta["command"].startswith("python -m evolve.label --game othello")
    assert meta["commit"] and meta["evaluation"]["name"] == "reference"
    assert meta["settings"]["sampling"] == {"openings": [2, 6], "epsilon": 0.1, "depth": 2,
                                         "keep": 1.0}
    assert meta["search_scale"] > 0


def test_the_same_options_give_the_same_bits(serial, tmp_path):
    build(tmp_path / "again")
    assert batch_files(tmp_path / "again") == batch_files(serial)


def test_resume_continues_to_the_same_bits(serial, tmp_path):
    """A run stopped after two batches (as a kill leaves it: the rest unlisted)."""
    cut = tmp_path / "cut"
    shutil.copytree(serial, cut)
    manifest = json.loads((cut / dataset.MANIFEST).read_text())
    manifest["batches"], manifest["complete"] = manifest["batches"][:2], False
    (cut / dataset.MANIFEST).write_text(json.dumps(manifest))
    (cut / "batch-00002.npz").write_bytes(b"half a file")  # written, not listed
    build(cut, "--resume")
    assert batch_files(cut) == batch_files(serial)
    resumed = dataset.read_manifest(cut)
    assert resumed["complete"] and resumed["resumed"][0]["at_positions"] == sum(
        e["positions"] for e in manifest["batches"])


@pytest.mark.parametrize("argv,message", [
    (["--positions", "0"], "error: --positions 0: allowed >= 1"),
    (["--exact-empties", "40"], "error: --exact-empties 40: allowed 0..30"),
    (["--epsilon", "1.5"], "error: --epsilon 1.5: allowed 0 <= epsilon <= 1"),
    (["--keep", "0"], "error: --keep 0.0: allowed 0 < P <= 1"),
    (["--openings", "6:2"], "error: argument --openings: --openings '6:2': need 0 <= MIN"),
    (["--game", "chess"], "error: --game 'chess': allowed"),
    (["--champion", "missing.json"], "error: --champion missing.json: no such file"),
    (["--workers", "2"], "error: --workers and --ray-address need --backend ray"),
    (["--champion", OTHER_GAME], f"error: --champion {OTHER_GAME}: a reversed_reversi "
     "champion (--game othello labels with one of its own)"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) if argv[0] == "--openings" else _nothing() as raised:
        code = label.main([*SMALL, *argv, "--out", str(tmp_path / "x")])
    code = raised.value.code if argv[0] == "--openings" else code
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(message) and len(err.strip().splitlines()) == 1, err


def test_a_dataset_is_not_overwritten_nor_resumed_with_other_options(serial, tmp_path, capsys):
    out = tmp_path / "data"
    shutil.copytree(serial, out)
    assert label.main([*SMALL, "--out", str(out)]) == 2
    assert "holds a dataset already (give --resume" in capsys.readouterr().err
    assert label.main([*SMALL, "--depth", "3", "--resume", "--out", str(out)]) == 2
    assert "--resume: depth differs from the dataset's (2 there, 3 now)" in \
        capsys.readouterr().err


class _nothing:
    value = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.slow
def test_two_ray_workers_write_the_same_bits_as_serial(serial, tmp_path, ray_session):
    build(tmp_path / "ray", "--backend", "ray", "--workers", "2")
    assert batch_files(tmp_path / "ray") == batch_files(serial)


@pytest.mark.slow
def test_a_kill_9_and_resume_give_the_uninterrupted_dataset(tmp_path):
    args = ["--game", "othello", "--positions", "6000", "--batch-positions", "300",
            "--exact-empties", "10", "--depth", "3", "--seed", "5"]
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    command = [sys.executable, "-m", "evolve.label", *args]
    subprocess.run([*command, "--out", str(whole)], check=True, capture_output=True)
    run = subprocess.Popen([*command, "--out", str(killed)], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not (killed / "batch-00002.npz").exists() and run.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    listed = dataset.read_manifest(killed)
    assert not listed["complete"], "the run finished before the kill: make it longer"
    done = subprocess.run([*command, "--resume", "--out", str(killed)], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert "resumed from" in done.stderr
    assert batch_files(killed) == batch_files(whole)
