"""``python -m evolve.report <run dir> [<run dir> ...]``: a run's figures without Jupyter.

Writes into each run directory ``report_<figure>.png`` (the same figures as the notebooks:
fitness, yardstick, diversity, positional heatmaps, feature weights, weight history) and
``report.md``, a short summary with the generation table and the champion's weights. With more
than one run (or a multirun sweep folder, which expands to its jobs) it also writes
``comparison.png`` and ``comparison.md`` into ``--compare-dir`` (default: the runs' common
parent folder).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")  # files only; must not need a display

import matplotlib.pyplot as plt  # noqa: E402

from evolve.analysis import plots  # noqa: E402
from evolve.analysis.rundata import RunData, RunDirError, load_runs  # noqa: E402

MAX_TABLE_ROWS = 25  # longer runs: every k-th generation plus the last


def write_run_report(run: RunData, dpi: int = 110) -> list[Path]:
    """Save the run's figures and ``report.md`` into its directory; returns the files."""
    figures = plots.run_figures(run)
    champion = _champion_or_none(run)
    if champion is not None:
        figures |= genome_figures(run.game, champion, run.champion_history())
    files = [_save(fig, run.path / f"report_{stem}.png", dpi) for stem, fig in figures.items()]
    markdown = run.path / "report.md"
    markdown.write_text(run_markdown(run, champion, [f.name for f in files]))
    return [*files, markdown]


def write_comparison(runs: list[RunData], folder: Path, dpi: int = 110) -> list[Path]:
    figure = _save(plots.plot_comparison(runs), folder / "comparison.png", dpi)
    rows = [[r.label, str(r.path), len(r.generations), _fmt(r.generations["best_fitness"].iloc[-1]),
             _fmt(r.generations["yardstick_score"].iloc[-1])] for r in runs]
    text = ("# Run comparison\n\n"
            + _table(["run", "directory", "generations", "final best fitness",
                      "final yardstick score"], rows)
            + f"\n![comparison]({figure.name})\n")
    (folder / "comparison.md").write_text(text)
    return [figure, folder / "comparison.md"]


def run_markdown(run: RunData, champion, figure_names: list[str]) -> str:
    g = run.generations
    last = g.iloc[-1]
    summary = [
        ["run directory", f"`{run.path}`"],
        ["overrides", f"`{' '.join(run.overrides)}`" if run.overrides else "(none)"],
        ["generations", f"{len(g)} ({int(g['generation'].iloc[0])}..{int(last['generation'])})"],
        ["best fitness (last generation)", _fmt(last["best_fitness"])],
        ["yardstick score (last generation)", _yardstick_text(run, last)],
    ]
    if "games" in g:
        summary.append(["games played", str(int(g["games"].sum()))])
    if "wall_seconds" in g:
        summary.append(["wall time", f"{g['wall_seconds'].sum():.1f} s"])
    parts = [f"# Run report: {run.path.name}\n", _table(["", ""], summary),
             "## Generations\n", _generation_table(g)]
    if champion is None:
        parts.append("## Champion\n\n`champion.json` not found (run still starting?).\n")
    else:
        parts.append(champion_markdown(champion, run.game))
    parts.append("## Figures\n\n" + "\n".join(f"![{n}]({n})\n" for n in figure_names))
    return "\n".join(parts)


def genome_figures(game, champion, history) -> dict:
    """The game's figures of a champion's genome (Reversi: heatmaps, features, history)."""
    return game.genome_figures(champion, history)


def champion_markdown(champion, game=None) -> str:
    provenance = champion.metadata.get("provenance", {})
    info = [[k, f"`{v}`" if isinstance(v, str) else _fmt(v)] for k, v in provenance.items()]
    search = champion.metadata.get("search")
    if search:
        info.append(["search", f"`{json.dumps(search)}`"])
    parts = [f"## Champion: {champion.name or 'champion.json'}\n"]
    if info:
        parts.append(_table(["provenance", "value"], info))
    if game is not None:
        parts.append(game.genome_markdown(champion.genome))
    else:
        names = (game.genome_spec().names if game is not None
                 else [str(i) for i in range(len(champion.genome))])
        parts += ["### Genome\n", _table(["gene", "weight"], [[n, _fmt(v)] for n, v in
                                                              zip(names, champion.genome,
                                                                  strict=True)])]
    return "\n".join(parts)


def _generation_table(g) -> str:
    step = max(1, -(-len(g) // MAX_TABLE_ROWS))
    shown = g.iloc[sorted(set(range(0, len(g), step)) | {len(g) - 1})]
    columns = ["generation", "best_fitness", "mean_fitness", "min_fitness", "std_fitness",
               "yardstick_score", "diversity"]
    rows = [[str(int(r["generation"])), *(_fmt(r[c]) for c in columns[1:])]
            for _, r in shown.iterrows()]
    return _table(columns, rows)


def _yardstick_text(run: RunData, row) -> str:
    if np.isnan(row["yardstick_score"]):
        return "none (yardstick.enabled=false)"
    per = ", ".join(f"{o} {_fmt(row[f'yardstick_{o}'])}" for o in run.yardstick_opponents)
    return f"{_fmt(row['yardstick_score'])}" + (f" ({per})" if per else "")


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _fmt(value) -> str:
    """Floats with 4 significant digits (weights and fitness need no more to be compared)."""
    if isinstance(value, bool | np.bool_):
        return str(value)
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        return f"{float(value):.4g}"
    return str(value)


def _champion_or_none(run: RunData):
    if not (run.path / "champion.json").is_file():
        print(f"evolve.report: warning: {run.path}: no champion.json, weight figures skipped",
              file=sys.stderr)
        return None
    return run.champion


def _save(fig, path: Path, dpi: int) -> Path:
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evolve.report", description=__doc__.split(
        "\n")[0].split(": ", 1)[-1])
    parser.add_argument("run_dirs", nargs="+", type=Path,
                        help="run directories (or multirun sweep folders)")
    parser.add_argument("--compare-dir", type=Path, default=None,
                        help="where comparison.png/.md go (default: the runs' common parent)")
    parser.add_argument("--dpi", type=int, default=110)
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
    except (RunDirError, OSError) as exc:
        print(f"evolve.report: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
