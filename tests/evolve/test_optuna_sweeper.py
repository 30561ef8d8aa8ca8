"""Our Hydra sweeper over Optuna (``hydra/sweeper=optuna``, ``evolve.sweep``):
search spaces in Hydra's sweep grammar, failed trials that do not stop the sweep, the results
files, the same suggestions from the same seed, and a real ``tune_smoke`` sweep."""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml
from hydra.core.override_parser.overrides_parser import OverridesParser

optuna = pytest.importorskip("optuna")
from optuna.distributions import (  # noqa: E402
    CategoricalDistribution,
    FloatDistribution,
    IntDistribution,
)

from evolve.sweep.search_space import (  # noqa: E402
    SearchSpaceError,
    distribution,
    search_space,
)

ROOT = Path(__file__).resolve().parents[2]


def parsed(text: str):
    return distribution(OverridesParser.create().parse_override(text))


@pytest.mark.parametrize("text, expected", [
    ("ga.population=choice(4, 6, 8)", CategoricalDistribution([4, 6, 8])),
    ("ga.crossover=block,uniform", CategoricalDistribution(["block", "uniform"])),
    ("ga.population=range(8, 17, step=4)", IntDistribution(8, 16, step=4)),
    ("ga.elites=int(interval(1, 3))", IntDistribution(1, 3)),
    ("ga.sigma=interval(0.05, 0.5)", FloatDistribution(0.05, 0.5)),
    ("ga.sigma=tag(log, interval(0.05, 0.5))", FloatDistribution(0.05, 0.5, log=True)),
    ("ga.population=tag(log, int(interval(4, 64)))", IntDistribution(4, 64, log=True)),
])
def test_hydra_sweep_syntax_becomes_the_optuna_distribution(text, expected):
    assert parsed(text) == expected


@pytest.mark.parametrize("key, space, reason", [
    ("ga.sigma", "tag(log, interval(0.0, 0.5))", "low"),
    ("ga.sigma", "interval(0.5, 0.1)", "low"),
    ("ga.population", "int(8, 16, step=4)", "unexpected keyword argument 'step'"),
    ("ga.population", "range(5, 1)", "the range is empty"),
    ("ga.population", "tag(log, choice(4, 8))", "log goes with interval(...) only"),
    ("ga.population", "tag(fine, interval(4, 8))", "unknown tag fine"),
    ("ga.population", "choice(4, 4)", "a choice is repeated"),
    ("ga.population", "choice(", "no viable alternative"),
    ("ga.population", [4, 8], "write a search space as text"),
])
def test_a_bad_search_space_is_one_line_naming_its_key(key, space, reason):
    with pytest.raises(SearchSpaceError) as err:
        search_space({key: space}, [])
    message = str(err.value)
    assert "\n" not in message and key in message and reason in message


def test_a_key_the_config_lacks_is_refused_before_any_trial():
    from hydra import compose, initialize_config_dir

    from evolve.sweep import use_plugins

    use_plugins()  # as python -m evolve does: Hydra then finds hydra/sweeper=optuna
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        cfg = compose("config", overrides=["+experiment=tune_smoke"], return_hydra_config=True)
    assert search_space(cfg.hydra.sweeper.params, ["+experiment=tune_smoke"], cfg).dimensions
    with pytest.raises(SearchSpaceError, match=r"^search space ga.populaton=choice\(4, 6\): the "
                                               r"config has no such key$"):
        search_space({"ga.populaton": "choice(4, 6)"}, [], cfg)


def test_the_command_line_adds_or_replaces_dimensions_and_fixed_overrides_reach_every_trial():
    space = search_space({"ga.population": "choice(4, 6)", "ga.elites": 1},
                         ["+experiment=smoke", "ga.population=choice(8, 10)",
                          "ga.sigma=interval(0.1, 0.2)"])
    assert space.fixed == ["ga.elites=1", "+experiment=smoke"]
    assert space.distributions() == {"ga.population": CategoricalDistribution([8, 10]),
                                     "ga.sigma": FloatDistribution(0.1, 0.2)}
    overrides = space.overrides({"ga.population": 8, "ga.sigma": 0.1 + 0.2 / 3})
    assert overrides == ["ga.elites=1", "+experiment=smoke", "ga.population=8",
                         f"ga.sigma={0.1 + 0.2 / 3!r}"]
    values = [o.value() for o in OverridesParser.create().parse_overrides(overrides[2:])]
    assert values == [8, 0.1 + 0.2 / 3]  # read back exactly


def test_the_command_line_check_lets_the_sweeper_and_its_settings_through():
    from evolve.__main__ import check_overrides

    check_overrides(["-m", "hydra/sweeper=optuna", "hydra.sweeper.n_trials=3",
                     "hydra.sweeper.sampler=random", "+experiment=tune_smoke"])


# A task function that fails on purpose in some jobs: NaN, infinity, an exception, an exit.
APP = '''
import hydra
from hydra.core.hydra_config import HydraConfig

from evolve.sweep import use_plugins

use_plugins()

FAILURES = {1: "nan", 2: "inf", 3: "raise", 4: "exit"}


@hydra.main(version_base="1.3", config_path=".", config_name="app")
def main(cfg):
    failure = FAILURES.get(HydraConfig.get().job.num)
    if failure == "raise":
        raise RuntimeError("boom")
    if failure == "exit":
        raise SystemExit(2)
    if failure is not None:
        return float(failure)
    return -(cfg.x - 0.3) ** 2 - (cfg.n - 2) ** 2


if __name__ == "__main__":
    main()
'''

APP_CONFIG = {
    "defaults": [{"override hydra/sweeper": "optuna"}, "_self_"],
    "x": 0.0,
    "n": 0,
    "hydra": {"sweeper": {"n_trials": 8, "n_startup_trials": 3,
                          "params": {"x": "interval(-1.0, 1.0)", "n": "choice(1, 2, 3)"}}},
}


def run_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [
        str(ROOT), os.environ.get("PYTHONPATH")]))}


def fake_sweep(tmp_path: Path, name: str, *overrides: str) -> dict:
    app = tmp_path / "app.py"
    app.write_text(APP)
    (tmp_path / "app.yaml").write_text(yaml.safe_dump(APP_CONFIG))
    sweep_dir = tmp_path / name
    done = subprocess.run([sys.executable, str(app), "-m", f"hydra.sweep.dir={sweep_dir}",
                           *overrides], cwd=tmp_path, env=run_env(), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return yaml.safe_load((sweep_dir / "optimization_results.yaml").read_text())


def test_failed_trials_are_recorded_and_the_sweep_goes_on(tmp_path):
    results = fake_sweep(tmp_path, "sweep")
    trials = results["trials"]
    assert [t["state"] for t in trials] == ["COMPLETE", "FAIL", "FAIL", "FAIL", "FAIL",
                                            "COMPLETE", "COMPLETE", "COMPLETE"]
    assert [t.get("failure") for t in trials[1:5]] == [
        "returned nan, not a finite number", "returned inf, not a finite number",
        "RuntimeError: boom", "its job exited"]
    values = [t["value"] for t in trials if t["state"] == "COMPLETE"]
    best = max(values)
    assert results["name"] == "optuna" and results["direction"] == "maximize"
    assert results["n_trials"] == 8 and results["best_value"] == best
    assert results["best_params"] == next(t["params"] for t in trials if t["value"] == best)
    for t in trials[:4]:  # the job that exited has no return, so no folder recorded
        assert Path(t["job_dir"]) == tmp_path / "sweep" / str(t["number"])
    table = pd.read_csv(tmp_path / "sweep" / "trials.csv")
    assert list(table["state"]) == [t["state"] for t in trials]
    assert set(table.columns) >= {"number", "value", "job_dir", "x", "n"}


def test_the_same_seed_suggests_the_same_params_and_another_seed_others(tmp_path):
    def suggested(name, *overrides):
        return [t["params"] for t in fake_sweep(tmp_path, name, *overrides)["trials"]]

    first = suggested("a")
    assert suggested("b") == first
    assert suggested("c", "hydra.sweeper.seed=1") != first
    assert len({json.dumps(p, sort_keys=True) for p in first}) == len(first)


def test_tune_smoke_returns_the_best_objective_of_its_trials(tmp_path):
    sweep_dir = tmp_path / "tune"
    done = subprocess.run([sys.executable, "-m", "evolve", "-m", "+experiment=tune_smoke",
                           "hydra.sweeper.n_trials=2", "plot=false",
                           f"hydra.sweep.dir={sweep_dir}"],
                          cwd=tmp_path, env=run_env(), capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    results = yaml.safe_load((sweep_dir / "optimization_results.yaml").read_text())
    jobs = [Path(t["job_dir"]) for t in results["trials"]]
    assert jobs == [sweep_dir / "0", sweep_dir / "1"]
    objectives = [json.loads((job / "objective.json").read_text())["value"] for job in jobs]
    assert [t["value"] for t in results["trials"]] == objectives
    assert results["best_value"] == max(v for v in objectives if v is not None and
                                        math.isfinite(v))
    configs = [yaml.safe_load((job / ".hydra" / "config.yaml").read_text()) for job in jobs]
    assert configs[0]["seed"] == configs[1]["seed"] == 0  # the study's seed, in every trial
    params = [t["params"] for t in results["trials"]]
    assert params[0] != params[1]
    assert [c["ga"]["population"] for c in configs] == [p["ga.population"] for p in params]
    # a trial is rerun exactly by its overrides
    overrides = yaml.safe_load((jobs[1] / ".hydra" / "overrides.yaml").read_text())
    rerun = subprocess.run([sys.executable, "-m", "evolve", *overrides,
                            f"hydra.run.dir={tmp_path / 'rerun'}"], cwd=tmp_path, env=run_env(),
                           capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    assert json.loads((tmp_path / "rerun" / "objective.json").read_text())["value"] == \
        objectives[1]
    # evolve.report on the sweep folder: every run's report, and the trials ranked
    report = subprocess.run([sys.executable, "-m", "evolve.report", str(sweep_dir)],
                            cwd=tmp_path, env=run_env(), capture_output=True, text=True,
                            timeout=600)
    assert report.returncode == 0, report.stderr[-3000:]
    ranked_text = (sweep_dir / "sweep.md").read_text()
    best = max(range(2), key=lambda i: objectives[i])
    first_row = next(line for line in ranked_text.splitlines() if line.startswith("| 1 | "))
    assert first_row.startswith(f"| 1 | {best} | ")
    assert (sweep_dir / "sweep_history.png").is_file()
    assert all((job / "report.md").is_file() for job in jobs)


@pytest.mark.slow  # a whole sweep in a subprocess; the default set reads back one tracked run
def test_a_tracked_sweep_reads_back_every_trials_generations_under_one_parent(tmp_path,
                                                                            monkeypatch):
    """tracking=mlflow in an Optuna sweep: one parent run for the sweep, one child per trial,
    and every generation's Elo of every trial read back through the client API."""
    pytest.importorskip("mlflow")
    from mlflow.tracking import MlflowClient

    sweep_dir, store = tmp_path / "tune", tmp_path / "mlruns"
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")  # MLflow 3.x's local file store
    env = run_env()
    done = subprocess.run([sys.executable, "-m", "evolve", "-m", "+experiment=tune_smoke",
                           "hydra.sweeper.n_trials=2", "ga.generations=2", "plot=false",
                           "tracking.backend=mlflow", f"tracking.uri=file:{store}",
                           "tracking.experiment=tracked-sweep", f"hydra.sweep.dir={sweep_dir}"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    client = MlflowClient(f"file:{store}")
    experiment = client.get_experiment_by_name("tracked-sweep")
    runs = client.search_runs([experiment.experiment_id])
    parents = [r for r in runs if "mlflow.parentRunId" not in r.data.tags]
    children = [r for r in runs if "mlflow.parentRunId" in r.data.tags]
    assert len(parents) == 1 and len(children) == 2
    assert {r.data.tags["mlflow.parentRunId"] for r in children} == {parents[0].info.run_id}
    for number in (0, 1):
        job = sweep_dir / str(number)
        run_id = json.loads((job / "tracking.json").read_text())["run_id"]
        assert run_id in {r.info.run_id for r in children}
        rows = pd.read_csv(job / "generations.csv")
        history = sorted(client.get_metric_history(run_id, "champion_elo"), key=lambda m: m.step)
        assert [m.step for m in history] == rows["generation"].tolist() == [0, 1]
        assert [m.value for m in history] == rows["champion_elo"].tolist()
        objective = json.loads((job / "objective.json").read_text())["value"]
        assert client.get_run(run_id).data.metrics.get("objective") == objective


def test_a_bad_search_space_on_the_command_line_stops_the_sweep_with_one_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "evolve", "-m", "+experiment=tune_smoke",
                           "ga.sigma=tag(log, interval(0, 1))"], cwd=tmp_path, env=run_env(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()  # Optuna's own reason, in Optuna's words
    assert line.startswith("error: search space ga.sigma=tag(log, interval(0, 1)): ")
    assert "low" in line
    assert not (tmp_path / "multirun").exists()  # no trial ran


def test_the_first_line_of_an_optuna_sweep_says_so_and_checks_the_fixed_settings(capsys):
    import io

    from evolve.errors import ConfigError
    from evolve.ga.configuration.preflight import preflight
    from evolve.sweep import use_plugins

    use_plugins()
    out = io.StringIO()
    preflight(["-m", "+experiment=tune_smoke", "ga.sigma=interval(0.1, 0.2)",
               "hydra.sweep.dir=/tmp/x"], ROOT / "conf", out)
    assert out.getvalue() == ("evolve: an Optuna sweep, 6 trials (tpe, seed 0, maximize "
                              "objective.metric=champion_elo), 1 at a time; outputs in /tmp/x/0 "
                              "... /tmp/x/5 and /tmp/x/optimization_results.yaml\n")
    with pytest.raises(ConfigError, match="ga.elites"):
        preflight(["-m", "+experiment=tune_smoke", "ga.elites=-1"], ROOT / "conf", out)


@pytest.mark.parametrize("experiment", ["tune_smoke", "tune_reversed_reversi"])
def test_each_tuning_experiments_search_space_names_real_keys(experiment):
    from hydra import compose, initialize_config_dir

    from evolve.sweep import use_plugins

    use_plugins()
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        cfg = compose("config", overrides=[f"+experiment={experiment}"],
                      return_hydra_config=True)
    space = search_space(cfg.hydra.sweeper.params, [f"+experiment={experiment}"], cfg)
    assert set(space.distributions()) == set(cfg.hydra.sweeper.params)
