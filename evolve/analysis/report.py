"""``python -m evolve.report <run dir> [<run dir> ...]``: write a run's figures and report.md
(no Jupyter needed).

Writes into each run directory ``report_<figure>.png`` (the same figures as the notebooks:
strength, fitness, yardstick, diversity, and the game's figures of the champion's genome) and
``report.md``: a summary, every figure with a caption saying how to read it, the generation
table and the champion. With more than one run (or a multirun sweep folder, which expands to
its jobs) it also writes ``comparison.png`` and ``comparison.md`` into ``--compare-dir``
(default: the runs' common parent folder). An Optuna sweep folder (``optimization_results.yaml``)
also gets ``sweep.md``: its trials ranked by objective, and Optuna's history and importance
figures (``evolve.analysis.sweep_report``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import matplotlib

from engine.core.commands.helptext import summary
from engine.core.commands.version import add_version_flag

matplotlib.use("Agg")  # files only; must not need a display

import matplotlib.pyplot as plt  # noqa: E402

from evolve.analysis import plots  # noqa: E402
from evolve.analysis.markdown import comparison_markdown, run_markdown  # noqa: E402
from evolve.analysis.rundata import RunData, RunDirError, load_runs  # noqa: E402
from evolve.analysis.sweep_report import is_sweep, write_sweep_report  # noqa: E402


def write_run_report(run: RunData, dpi: int = 110) -> list[Path]:
    """Save the run's figures and ``report.md`` into its directory; returns the files."""
    figures = plots.run_figures(run)
    champion = _champion_or_none(run)
    if champion is not None:
        figures |= genome_figures(run.game, champion, _history_or_none(run))
    written = [(stem, _save(fig, run.path / f"report_{stem}.png", dpi), figure_title(fig))
               for stem, fig in figures.items()]
    markdown = run.path / "report.md"
    markdown.write_text(run_markdown(run, champion, [(stem, path.name, title)
                                                     for stem, path, title in written]))
    return [*(path for _, path, _ in written), markdown]


def write_comparison(runs: list[RunData], folder: Path, dpi: int = 110) -> list[Path]:
    figure = _save(plots.plot_comparison(runs), folder / "comparison.png", dpi)
    (folder / "comparison.md").write_text(comparison_markdown(runs, figure.name))
    return [figure, folder / "comparison.md"]


def genome_figures(game, champion, history) -> dict:
    """The game's figures of a champion's genome (Reversi: heatmaps, features, history)."""
    return game.genome_figures(champion, history)


def figure_title(fig) -> str:
    """The figure's own title (its suptitle, else its first axes' title), for a caption."""
    suptitle = fig.get_suptitle() if hasattr(fig, "get_suptitle") else ""  # matplotlib >= 3.8
    if suptitle:
        return suptitle.splitlines()[0]
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    return titles[0].splitlines()[0] if titles else ""


def _champion_or_none(run: RunData):
    if not (run.path / "champion.json").is_file():
        print(f"evolve.report: warning: {run.path}: no champion.json, weight figures skipped",
              file=sys.stderr)
        return None
    return run.champion


def _history_or_none(run: RunData) -> list:
    """The champions' history, or none (with a warning) when the run kept neither
    ``champions/`` nor ``individuals.csv`` (committed runs keep only their summaries)."""
    try:
        return run.champion_history()
    except RunDirError as exc:
        print(f"evolve.report: warning: no champion history ({exc}); figures of the weights' "
              "history skipped", file=sys.stderr)
        return []


def laid_out(fig):
    """``fig`` with constrained layout unless it has a layout of its own: a game's figure laid
    out by hand cut its tick labels and put its suptitle over an axes title (Pentago Twist's
    genome); constrained layout makes room for both."""
    if fig.get_layout_engine() is None:
        fig.set_layout_engine("constrained")
    return fig


def _save(fig, path: Path, dpi: int) -> Path:
    laid_out(fig).savefig(path, dpi=dpi)
    plt.close(fig)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evolve.report", description=summary(__doc__))
    parser.add_argument("run_dirs", nargs="+", type=Path,
                        help="run directories (or multirun sweep folders)")
    parser.add_argument("--compare-dir", type=Path, default=None,
                        help="where comparison.png/.md go (default: the runs' common parent)")
    parser.add_argument("--dpi", type=int, default=110)
    add_version_flag(parser)
    args = parser.parse_args(argv)
    try:
        runs = load_runs(args.run_dirs)
        for run in runs:
            files = write_run_report(run, args.dpi)
            print(f"{run.path}: wrote {', '.join(f.name for f in files)}")
        if len(runs) > 1:
            folder = args.compare_dir or Path(os.path.commonpath([r.path.resolve() for r in runs]))
            folder.mkdir(parents=True, exist_ok=True)
            files = write_comparison(runs, folder, args.dpi)
            print(f"{folder}: wrote {', '.join(f.name for f in files)}")
        for sweep in (d for d in args.run_dirs if is_sweep(d)):
            files = write_sweep_report(sweep, args.dpi)
            print(f"{sweep}: wrote {', '.join(f.name for f in files)}")
    except (RunDirError, OSError) as exc:
        print(f"evolve.report: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
