"""The report of an Optuna sweep folder (``python -m evolve -m ... hydra/sweeper=optuna``):
``sweep.md`` ranks the trials by their objective, each with its champion's Elo interval against
the panel (from the trial's own ``generations.csv``), and two of Optuna's matplotlib figures:
``sweep_history.png`` (every trial's objective and the best so far) and ``sweep_importance.png``
(how much each setting sets the best quarter of the trials apart, Optuna's PED-ANOVA).

The study is rebuilt in memory from ``optimization_results.yaml`` (values, parameters and the
search space as Optuna's JSON distributions): nothing but YAML, JSON and CSV is read.
"""

from __future__ import annotations

import csv
import json
import math
import warnings
from pathlib import Path

import yaml

from evolve.analysis.captions import elo_range
from evolve.analysis.markdown import fmt, table
from evolve.analysis.rundata import RunDirError

RESULTS = "optimization_results.yaml"
MIN_TRIALS_FOR_IMPORTANCE = 3  # the importances need a few completed trials to say anything
TARGET_QUANTILE = 0.25  # PED-ANOVA: the "good" trials are the best quarter


def is_sweep(folder: Path) -> bool:
    return (Path(folder) / RESULTS).is_file()


def load_results(folder: Path) -> dict:
    path = Path(folder) / RESULTS
    try:
        results = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise RunDirError(f"{path}: not valid YAML ({exc.__class__.__name__})") from None
    if not isinstance(results, dict) or not isinstance(results.get("trials"), list):
        raise RunDirError(f"{path}: not an Optuna sweep's results (no list of trials)")
    return results


def ranked(results: dict) -> list[dict]:
    """The completed trials, best first (by the sweep's direction), then the others."""
    complete = [t for t in results["trials"] if t.get("state") == "COMPLETE"]
    complete.sort(key=lambda t: t["value"], reverse=results.get("direction") != "minimize")
    return complete + [t for t in results["trials"] if t.get("state") != "COMPLETE"]


def job_of(folder: Path, job_dir) -> Path | None:
    """A trial's folder: as recorded, else the one of that name inside the sweep folder (a
    sweep moved or cloned elsewhere records the absolute paths it was made at)."""
    if not job_dir:
        return None
    recorded = Path(job_dir)
    moved = Path(folder) / recorded.name
    return recorded if recorded.is_dir() or not moved.is_dir() else moved


def elo_interval(job_dir) -> str:
    """The trial's exported champion's Elo against the panel with its 95% CI, from the row
    ``objective.json`` names in its ``generations.csv`` ("n/a" when there is none)."""
    if not job_dir:
        return "n/a"
    job = Path(job_dir)
    try:
        generation = json.loads((job / "objective.json").read_text())["generation"]
        with open(job / "generations.csv", newline="") as f:
            row = next(r for r in csv.DictReader(f) if int(r["generation"]) == generation)
        return elo_range(*(float(row[k]) for k in ("champion_elo", "champion_elo_low",
                                                    "champion_elo_high")))
    except (OSError, KeyError, ValueError, StopIteration, json.JSONDecodeError):
        return "n/a"


def study_of(results: dict):
    """An in-memory Optuna study holding the completed trials (None without a search space)."""
    import optuna
    from optuna.distributions import json_to_distribution

    spaces = results.get("distributions") or {}
    if not spaces:
        return None
    distributions = {k: json_to_distribution(json.dumps(v)) for k, v in spaces.items()}
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction=results.get("direction", "maximize"))
    for t in results["trials"]:
        if t.get("state") == "COMPLETE" and set(t["params"]) <= set(distributions):
            study.add_trial(optuna.trial.create_trial(
                params=t["params"], value=t["value"],
                distributions={k: distributions[k] for k in t["params"]}))
    return study


def figures(study, folder: Path, dpi: int = 110) -> list[tuple[str, str]]:
    """Optuna's history and importance figures (matplotlib) as files: (file name, caption)."""
    import matplotlib.pyplot as plt
    from optuna.visualization import matplotlib as optuna_plots

    out = []
    made = [("sweep_history.png", optuna_plots.plot_optimization_history,
             "each trial's objective (dots) and the best so far (line)")]
    if len(study.trials) >= MIN_TRIALS_FOR_IMPORTANCE and len(study.trials[0].params) > 0:
        made.append(("sweep_importance.png", lambda study: optuna_plots.plot_param_importances(
                         study, evaluator=evaluator()),
                     "how much each setting sets the best quarter of the trials apart "
                     "(PED-ANOVA; with few trials, a hint, not a measurement)"))
    for name, plot, caption in made:
        with warnings.catch_warnings():  # Optuna marks its matplotlib figures experimental
            warnings.simplefilter("ignore")
            axes = plot(study)
        figure = axes.figure if hasattr(axes, "figure") else axes[0].figure
        figure.set_size_inches(7, 4)
        figure.tight_layout()
        figure.savefig(folder / name, dpi=dpi)
        plt.close(figure)
        out.append((name, caption))
    return out


def evaluator():
    """Optuna's PED-ANOVA: how much each setting sets the best quarter of the trials apart from
    the rest (deterministic, and without scikit-learn, which fANOVA needs)."""
    from optuna.importance import PedAnovaImportanceEvaluator

    return PedAnovaImportanceEvaluator(target_quantile=TARGET_QUANTILE)


def importances(study) -> dict[str, float]:
    if study is None or len(study.trials) < MIN_TRIALS_FOR_IMPORTANCE:
        return {}
    import optuna

    try:
        return optuna.importance.get_param_importances(study, evaluator=evaluator())
    except (RuntimeError, ValueError):  # e.g. every trial with the same value
        return {}


def write_sweep_report(folder: Path, dpi: int = 110) -> list[Path]:
    """``sweep.md`` and the figures into the sweep folder; returns the files written."""
    folder = Path(folder)
    results = load_results(folder)
    study = study_of(results)
    drawn = figures(study, folder, dpi) if study is not None and study.trials else []
    shares = importances(study)
    rows = []
    for rank, t in enumerate(ranked(results), 1):
        done = t.get("state") == "COMPLETE"
        value = t.get("value")
        rows.append([rank if done else "", t["number"], fmt(value) if done and value is not None
                     and math.isfinite(value) else t.get("failure", t.get("state")),
                     elo_interval(job_of(folder, t.get("job_dir"))) if done else "",
                     ", ".join(f"{k}={fmt(v)}" for k, v in t["params"].items()),
                     f"`{t['job_dir']}`" if t.get("job_dir") else ""])
    parts = [f"# Sweep report: {folder.name}\n",
             f"{len(results['trials'])} trials ({results.get('n_complete', '?')} complete), "
             f"{results.get('direction', 'maximize')} the objective; best: trial "
             f"{results.get('best_trial')} = {fmt(results.get('best_value'))} with "
             f"`{results.get('best_params')}`.\n",
             "## Trials, best first\n",
             table(["rank", "trial", "objective", "champion Elo vs the panel [95% CI]",
                    "settings", "job"], rows),
             "Each trial is one run from the study's seed; rerun one with the overrides in its "
             "job's `.hydra/overrides.yaml`. The objective of one run is one sample: before "
             "adopting the best settings, measure them against the defaults on fresh seeds.\n"]
    if shares:
        parts += ["## Which settings matter\n",
                  table(["setting", "importance"], [[k, f"{v:.2f}"] for k, v in
                                                   shares.items()])]
    for name, caption in drawn:
        parts.append(f"![{name}]({name})\n\n*{caption}.*\n")
    markdown = folder / "sweep.md"
    markdown.write_text("\n".join(parts))
    return [*(folder / name for name, _ in drawn), markdown]
