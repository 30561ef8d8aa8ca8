"""``python -m evolve.report`` on an Optuna sweep folder: trials ranked by objective (best first
for the sweep's direction, failed trials last), each with its champion's Elo interval read from
its own run, the importance of each setting, and Optuna's figures written as files."""

from __future__ import annotations

import csv
import json

import pytest
import yaml

optuna = pytest.importorskip("optuna")
from optuna.distributions import (  # noqa: E402
    CategoricalDistribution,
    FloatDistribution,
    distribution_to_json,
)

from evolve.analysis.sweep_report import ranked, write_sweep_report  # noqa: E402

SPACE = {"ga.population": CategoricalDistribution([4, 6, 8]),
         "ga.sigma": FloatDistribution(0.02, 0.5, log=True)}


def job(folder, number: int, elo: float, generation: int) -> str:
    """A trial's run folder: objective.json and the generations.csv row it names."""
    path = folder / str(number)
    path.mkdir(parents=True)
    (path / "objective.json").write_text(json.dumps({"schema": 1, "metric": "champion_elo",
                                                     "value": elo, "generation": generation}))
    with open(path / "generations.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["generation", "champion_elo", "champion_elo_low", "champion_elo_high"])
        for g in range(generation + 1):
            writer.writerow([g, elo if g == generation else 0.0, elo - 50, elo + 40])
    return str(path)


def sweep(tmp_path, direction="maximize"):
    folder = tmp_path / "sweep"
    values = [12.0, 150.0, None, -30.0, 80.0, 95.0]
    trials = []
    for number, value in enumerate(values):
        params = {"ga.population": [4, 6, 8][number % 3], "ga.sigma": 0.05 * (number + 1)}
        trial = {"number": number, "params": params, "value": value,
                 "state": "FAIL" if value is None else "COMPLETE",
                 "job_dir": None if value is None else job(folder, number, value, number % 2)}
        if value is None:
            trial["failure"] = "RuntimeError: boom"
        trials.append(trial)
    folder.mkdir(exist_ok=True)
    (folder / "optimization_results.yaml").write_text(yaml.safe_dump({
        "name": "optuna", "direction": direction, "n_trials": 6, "n_complete": 5,
        "best_trial": 1, "best_value": 150.0, "best_params": trials[1]["params"],
        "distributions": {k: json.loads(distribution_to_json(d)) for k, d in SPACE.items()},
        "trials": trials}, sort_keys=False))
    return folder


def test_trials_are_ranked_by_objective_for_the_sweeps_direction(tmp_path):
    results = yaml.safe_load((sweep(tmp_path) / "optimization_results.yaml").read_text())
    assert [t["number"] for t in ranked(results)] == [1, 5, 4, 0, 3, 2]
    results["direction"] = "minimize"
    assert [t["number"] for t in ranked(results)] == [3, 0, 4, 5, 1, 2]


def test_the_report_ranks_trials_with_their_elo_intervals_and_draws_optunas_figures(tmp_path):
    folder = sweep(tmp_path)
    written = {p.name for p in write_sweep_report(folder)}
    assert written == {"sweep.md", "sweep_history.png", "sweep_importance.png"}
    text = (folder / "sweep.md").read_text()
    trials_table = text.split("## Trials, best first\n\n")[1].split("\n\n")[0]
    rows = trials_table.splitlines()[2:]  # below the header and its rule
    assert [row.split(" | ")[1] for row in rows] == ["1", "5", "4", "0", "3", "2"]  # trials
    assert "+150 [+100, +190]" in rows[0]  # its own run's interval, from the row it names
    assert "RuntimeError: boom" in rows[-1]
    assert "## Which settings matter" in text and "ga.sigma" in text
    for name in ("sweep_history.png", "sweep_importance.png"):
        assert (folder / name).stat().st_size > 5000  # a drawn figure, not an empty canvas


def test_a_moved_sweep_folder_still_finds_its_trials_runs(tmp_path):
    """The results record the absolute folders the trials ran in; a sweep committed and cloned
    elsewhere finds each trial's run by its name inside the sweep folder."""
    folder = sweep(tmp_path)
    moved = folder.rename(tmp_path / "elsewhere")
    write_sweep_report(moved)
    assert "+150 [+100, +190]" in (moved / "sweep.md").read_text()
