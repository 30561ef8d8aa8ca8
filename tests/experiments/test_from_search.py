"""experiments.learning.from_search: which steps a run does again after a stop, what it records
per round, and the result files; the children faked (default tier), then one real tiny run
(slow)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest

from evolve.labels import dataset
from experiments.learning import from_search
from experiments.learning import from_search_steps as steps


class FakeChildren:
    """Stands in for the label and fit CLIs and ``evolve.evaluate``: writes what they would and
    counts the calls; ``fail`` names a step that raises once (a killed child)."""

    def __init__(self, monkeypatch, fail: str | None = None):
        self.calls: list[str] = []
        self.fail = fail
        monkeypatch.setattr(steps, "run_child", self.run_child)
        monkeypatch.setattr(steps, "evaluate", self.evaluate)

    def run_child(self, cmd, log_path, commands):
        what = cmd[2]
        self.calls.append(what + (" --resume" if "--resume" in cmd else ""))
        commands.append(" ".join(cmd))
        if what == "evolve.label":
            with open(log_path, "a") as log:  # as the label CLI logs its tasks' CPU
                log.write("12:00:00 batch 0: 20 positions (2 exact, 18 search; 2.5 CPU-s); "
                          "20/40, 10 positions/s, ETA 0m02s\n")
            self.label(cmd)
        else:
            out = Path(cmd[cmd.index("--out") + 1])
            if self.fail == what:
                self.fail = None
                raise RuntimeError(f"{what} failed (-9)")
            out.write_bytes(b"network")
            report = {"overall": {"train_rmse": 5.0, "held_out_rmse": 6.0,
                                  "held_out_rmse_of_zero": 20.0}, "phases": []}
            out.with_name(out.stem + ".report.json").write_text(json.dumps(report))
        return {"cpu_seconds": 1.5, "wall_seconds": 2.0}

    def label(self, cmd):
        out = Path(cmd[cmd.index("--out") + 1])
        n = int(cmd[cmd.index("--positions") + 1])
        out.mkdir(parents=True, exist_ok=True)
        manifest = {"game": "othello", "batches": [], "positions": 0}
        for i in range(2):  # a killed label run has written its first batch only
            cols = {"cells": np.zeros((n // 2, 64), np.uint8), "ply": np.zeros(n // 2, np.int16),
                    "target": np.full(n // 2, float(i), np.float32),
                    "source": np.zeros(n // 2, np.uint8), "depth": np.zeros(n // 2, np.int8)}
            manifest["batches"].append(dataset.write_batch(out, i, cols))
            manifest["positions"] += n // 2
            if self.fail == "evolve.label":
                self.fail = None
                dataset.write_manifest(out, manifest)
                raise RuntimeError("evolve.label failed (-9)")
        dataset.write_manifest(out, {**manifest, "complete": True})

    def evaluate(self, options, out, log=None):
        self.calls.append("evolve.evaluate")
        rest = options[options.index("--vs") + 1:]
        opponents = rest[:next(i for i, x in enumerate(rest) if str(x).startswith("--"))]
        games = int(options[options.index("--games") + 1])
        matches = [{"opponent": o, "games": games, "wins": games // 2, "draws": 0,
                    "losses": games - games // 2, "score": (games // 2) / games,
                    "score_ci95": [0.2, 0.8], "elo": 0.0, "elo_ci95": [-100.0, 100.0]}
                   for o in opponents]
        log.append("python -m evolve.evaluate " + " ".join(map(str, options)))
        return type("E", (), {"command": log[-1], "data": {"matches": matches}})()


def argv(tmp_path, *more):
    return ["--rounds", "2", "--positions", "40", "--games", "4", "--work",
            str(tmp_path / "work"), "--out", str(tmp_path / "out" / "r.md"), *more]


def test_a_round_labels_fits_and_measures_and_records_it(tmp_path, monkeypatch):
    fake = FakeChildren(monkeypatch)
    assert from_search.main(argv(tmp_path)) == 0
    assert fake.calls == ["evolve.evaluate", *["evolve.label", "evolve.fit",
                                               "evolve.evaluate"] * 2]
    report = json.loads((tmp_path / "out" / "r.json").read_text())
    rounds = report["rounds"]
    assert [r["positions_cumulative"] for r in rounds] == [0, 40, 80]
    assert [r["label_cpu_seconds_cumulative"] for r in rounds] == [0.0, 1.5, 3.0]
    assert rounds[2]["held_out_rmse"] == 6.0 and rounds[2]["fit_positions"] == 80  # the union
    anchors = steps.SETUPS["othello"].anchors
    assert [m["opponent"] for m in rounds[0]["matches"]] == list(anchors)  # not itself
    assert rounds[1]["matches"][0]["opponent"] == steps.SETUPS["othello"].champion
    assert rounds[1]["pooled"]["games"] == 4 * len(anchors)  # the fixed anchors only
    assert len(report["commands"]) == 7
    assert (tmp_path / "out" / "r.png").is_file()
    assert "| 2 | 80 |" in (tmp_path / "out" / "r.md").read_text()


def test_a_finished_run_runs_no_child_again_and_lists_the_same_commands(tmp_path, monkeypatch):
    FakeChildren(monkeypatch)
    from_search.main(argv(tmp_path))
    first = json.loads((tmp_path / "out" / "r.json").read_text())
    again = FakeChildren(monkeypatch)
    assert from_search.main(argv(tmp_path)) == 0
    assert again.calls == []
    second = json.loads((tmp_path / "out" / "r.json").read_text())
    assert second["commands"] == first["commands"]
    assert second["rounds"] == first["rounds"]


@pytest.mark.parametrize("step", ["evolve.label", "evolve.fit"])
def test_a_run_killed_in_a_step_does_that_step_again(tmp_path, monkeypatch, step):
    FakeChildren(monkeypatch, fail=step)
    assert from_search.main(argv(tmp_path)) == 2
    again = FakeChildren(monkeypatch)
    assert from_search.main(argv(tmp_path)) == 0
    expected = {"evolve.label": ["evolve.label --resume", "evolve.fit", "evolve.evaluate"],
                "evolve.fit": ["evolve.fit", "evolve.evaluate"]}[step]
    assert again.calls[:len(expected)] == expected  # round 0's measurement was kept
    assert again.calls[len(expected):] == ["evolve.label", "evolve.fit", "evolve.evaluate"]


def test_more_rounds_extend_a_run_and_other_games_measure_again(tmp_path, monkeypatch):
    FakeChildren(monkeypatch)
    from_search.main(argv(tmp_path))
    more = FakeChildren(monkeypatch)
    from_search.main([*argv(tmp_path), "--rounds", "3"])
    assert more.calls == ["evolve.label", "evolve.fit", "evolve.evaluate"]
    other = FakeChildren(monkeypatch)
    from_search.main([*argv(tmp_path), "--games", "6"])
    assert other.calls == ["evolve.evaluate"] * 3


def test_a_work_folder_of_other_settings_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    # another test's CLI may have left a root handler on its own, closed, capture stream
    monkeypatch.setattr(logging.getLogger(), "handlers", [])
    FakeChildren(monkeypatch)
    from_search.main(argv(tmp_path))
    capsys.readouterr()  # the first run's progress lines
    assert from_search.main([*argv(tmp_path), "--phases", "60"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --work") and "phases" in err and "\n" not in err


def test_this_round_only_fits_on_the_rounds_own_positions(tmp_path, monkeypatch):
    FakeChildren(monkeypatch)
    from_search.main([*argv(tmp_path), "--this-round-only"])
    rounds = json.loads((tmp_path / "out" / "r.json").read_text())["rounds"]
    assert [r.get("fit_positions") for r in rounds] == [None, 40, 40]


def test_the_union_lists_every_rounds_batches_in_order(tmp_path):
    folders = []
    for r in range(2):
        folder = tmp_path / f"r{r}"
        folder.mkdir()
        cols = {"cells": np.zeros((3, 64), np.uint8), "ply": np.zeros(3, np.int16),
                "target": np.full(3, float(r), np.float32), "source": np.zeros(3, np.uint8),
                "depth": np.zeros(3, np.int8)}
        dataset.write_manifest(folder, {"game": "othello", "positions": 3,
                                        "batches": [dataset.write_batch(folder, 0, cols)]})
        folders.append(folder)
    data = dataset.read_dataset(steps.union(folders, tmp_path / "union"))
    assert data.target.tolist() == [0.0] * 3 + [1.0] * 3


@pytest.mark.slow
def test_a_tiny_real_run_and_its_resume(tmp_path):
    options = ["--rounds", "1", "--positions", "300", "--batch-positions", "150", "--depth", "1",
               "--exact-empties", "6", "--phases", "2", "--iterations", "5", "--games", "2",
               "--work", str(tmp_path / "work"), "--out", str(tmp_path / "r.md")]
    assert from_search.main(options) == 0
    first = json.loads((tmp_path / "r.json").read_text())
    log = tmp_path / "work" / "round01" / "label.log"
    size = log.stat().st_size
    assert from_search.main(options) == 0
    assert log.stat().st_size == size  # nothing labelled again
    second = json.loads((tmp_path / "r.json").read_text())
    assert second["rounds"] == first["rounds"]
    assert first["rounds"][1]["positions"] == 300
    assert len(first["rounds"][1]["matches"]) == 1 + len(steps.SETUPS["othello"].anchors)


def test_learn_alone_from_the_reference_evaluation_for_the_efficiency_study(tmp_path,
                                                                           monkeypatch):
    from experiments.learning import efficiency
    from experiments.learning.efficiency_plans import PLANS

    fake = FakeChildren(monkeypatch)
    seen = []
    monkeypatch.setattr(fake, "label", lambda cmd, keep=fake.label: (seen.append(cmd), keep(cmd)))
    method = next(x for x in PLANS["othello"].methods if x.kind == "from_search")
    small = method.__class__(**{**method.__dict__, "overrides": (
        *method.overrides, "--rounds", "2", "--positions", "40")})
    history = efficiency.run_from_search(small, 3, 3600.0, tmp_path / "seed3")
    assert fake.calls == ["evolve.label", "evolve.fit"] * 2  # nothing measured
    assert [h["cpu"] for h in history] == [3.0, 6.0]  # labelling and fitting, cumulative
    assert [h["positions"] for h in history] == [40, 80]
    assert all(Path(h["champion"]).is_absolute() for h in history)
    assert "--champion" not in seen[0]  # round 1: the reference evaluation searches
    assert seen[1][seen[1].index("--champion") + 1] == history[0]["champion"]  # round 1's
    assert seen[0][seen[0].index("--seed") + 1] == "4"  # the seed + the round


def test_the_driver_refuses_the_reference_start_in_one_line(tmp_path, monkeypatch, capsys):
    FakeChildren(monkeypatch)
    assert from_search.main([*argv(tmp_path), "--champion", "reference"]) == 2
    assert capsys.readouterr().err.startswith("error: --champion reference")


def test_on_ray_the_labelling_cpu_counts_the_workers_tasks(tmp_path, monkeypatch):
    FakeChildren(monkeypatch)
    from_search.main([*argv(tmp_path), "--backend", "ray", "--workers", "2"])
    rounds = json.loads((tmp_path / "out" / "r.json").read_text())["rounds"]
    assert [r["label_cpu_seconds"] for r in rounds] == [0.0, 4.0, 4.0]  # 1.5 own + 2.5 tasks
    FakeChildren(monkeypatch)
    from_search.main([*argv(tmp_path / "serial")])
    rounds = json.loads((tmp_path / "serial" / "out" / "r.json").read_text())["rounds"]
    assert [r["label_cpu_seconds"] for r in rounds] == [0.0, 1.5, 1.5]  # its children already


def test_time_games_play_the_round_0_champion_at_the_time_per_move_in_the_last_round(
        tmp_path, monkeypatch):
    fake = FakeChildren(monkeypatch)
    from_search.main([*argv(tmp_path), "--time-games", "2", "--time", "0.1", "--backend", "ray",
                      "--workers", "2"])
    report = json.loads((tmp_path / "out" / "r.json").read_text())
    assert fake.calls.count("evolve.evaluate") == 1 + 2 + 1  # the timed games: the last round's
    (timed,) = [c for c in report["commands"] if "--time 0.1" in c]
    assert f"--vs {steps.SETUPS['othello'].champion} --time" in timed
    assert "--backend ray --workers 2" in timed  # the costly games on the labelling's workers
    assert [bool(r.get("timed")) for r in report["rounds"]] == [False, False, True]
    assert report["rounds"][2]["timed"]["games"] == 2
    assert "At 0.1 s per move" in (tmp_path / "out" / "r.md").read_text()
