"""The sweep's outputs: ``optimization_results.yaml`` (the best trial, every trial and the search
space as Optuna's JSON distributions, so ``python -m evolve.report`` can rebuild the study) and
``trials.csv`` (one row per trial, one column per parameter), rewritten after every batch."""

from __future__ import annotations

import json
from pathlib import Path


def write_results(study, sweep_dir: Path, direction: str) -> None:
    import pandas as pd
    import yaml
    from optuna.distributions import distribution_to_json
    from optuna.trial import TrialState

    rows = [_row(trial) for trial in study.get_trials(deepcopy=False)]
    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    best = study.best_trial if complete else None
    results = {
        "name": "optuna",
        "study_name": study.study_name,
        "direction": direction,
        "n_trials": len(rows),
        "n_complete": len(complete),
        "best_params": dict(best.params) if best else None,
        "best_value": best.value if best else None,
        "best_trial": best.number if best else None,
        "best_job_dir": best.user_attrs.get("job_dir") if best else None,
        "distributions": {name: json.loads(distribution_to_json(d)) for trial in
                          study.get_trials(deepcopy=False)
                          for name, d in trial.distributions.items()},
        "trials": rows,
    }
    text = yaml.safe_dump(results, sort_keys=False, allow_unicode=True)
    (sweep_dir / "optimization_results.yaml").write_text(text)
    table = pd.DataFrame([{k: v for k, v in row.items() if k != "params"} | row["params"]
                          for row in rows])
    table.to_csv(sweep_dir / "trials.csv", index=False)


def _row(trial) -> dict:
    row = {
        "number": trial.number,
        "params": dict(trial.params),
        "value": trial.value,
        "state": trial.state.name,
        "job_dir": trial.user_attrs.get("job_dir"),
        "seconds": round(trial.duration.total_seconds(), 3) if trial.duration else None,
    }
    if "failure" in trial.user_attrs:
        row["failure"] = trial.user_attrs["failure"]
    return row
