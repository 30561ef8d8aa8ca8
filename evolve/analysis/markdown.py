"""The Markdown of ``python -m evolve.report``: a run's summary, figures with captions,
generation table and champion; the comparison of several runs.

Tables show what a column says: a column that holds one value in every generation (the mean
of a zero-sum round-robin fitness is always 0) is left out with a note saying so. Generation
numbers are the 0-based ones of ``generations.csv`` and ``champions/gen_XXXX``.
"""

from __future__ import annotations

import json

import numpy as np

from evolve.analysis.captions import caption, elo_range
from evolve.analysis.rundata import RunData

MAX_TABLE_ROWS = 25  # longer runs: every k-th generation plus the last
GENERATION_TABLE = {  # generations.csv column: header
    "generation": "generation",
    "best_fitness": "best fitness",
    "mean_fitness": "mean fitness",
    "min_fitness": "worst fitness",
    "std_fitness": "fitness std",
    "yardstick_score": "yardstick score",
    "champion_elo": "champion Elo [95% CI]",
    "diversity": "diversity",
}


def run_markdown(run: RunData, champion, figures: list[tuple[str, str, str]]) -> str:
    """``figures``: (stem, file name, title) of each figure written next to ``report.md``."""
    parts = [f"# Run report: {run.path.name}\n", table(["", ""], summary_rows(run, champion)),
             "## Figures\n", figures_markdown(run, figures), "## Generations\n",
             generation_table(run.generations)]
    if champion is None:
        parts.append("## Champion\n\n`champion.json` not found (run still starting?).\n")
    else:
        parts.append(champion_markdown(champion, run.game))
    return "\n".join(parts)


def summary_rows(run: RunData, champion) -> list[list[str]]:
    g = run.generations
    last = g.iloc[-1]
    at_last = f"generation {int(last['generation'])}, the last"
    rows = [
        ["run directory", f"`{run.path}`"],
        ["overrides", f"`{' '.join(run.overrides)}`" if run.overrides else "(none)"],
        ["generations", f"{len(g)} (numbered {int(g['generation'].iloc[0])} to "
                        f"{int(last['generation'])})"],
    ]
    if champion is not None:
        rows.append(["champion", champion_origin(champion)])
    if "champion_elo" in g and not np.isnan(last["champion_elo"]):
        rows.append([f"champion Elo vs the panel ({at_last})",
                     elo_range(last["champion_elo"], last["champion_elo_low"],
                               last["champion_elo_high"])])
    rows += [[f"yardstick score ({at_last})", yardstick_text(run, last)],
             [f"best fitness ({at_last}; relative)", fmt(last["best_fitness"])]]
    if "games" in g:
        rows.append(["games played", str(int(g["games"].sum()))])
    if "wall_seconds" in g:
        rows.append(["wall time of the generations", f"{g['wall_seconds'].sum():.1f} s"])
    return rows


def champion_origin(champion) -> str:
    """``generation 28, chosen by a playoff among generations 25, 26, 27, 28, 29``."""
    meta = champion.metadata
    generation = meta.get("provenance", {}).get("generation")
    text = f"generation {generation}" if generation is not None else "generation unknown"
    selection = meta.get("selection", {})
    if selection.get("method") == "playoff" and len(selection.get("candidates", ())) > 1:
        listed = ", ".join(str(c) for c in selection["candidates"])
        text += f", chosen by a playoff among generations {listed}"
    return text


def figures_markdown(run: RunData, figures: list[tuple[str, str, str]]) -> str:
    return "\n".join(f"![{stem}]({name})\n\n*Figure {k}. {caption(stem, run, title)}*\n"
                     for k, (stem, name, title) in enumerate(figures, 1))


def generation_table(g) -> str:
    """Every k-th generation (and the last); constant columns left out, with a note."""
    step = max(1, -(-len(g) // MAX_TABLE_ROWS))
    shown = g.iloc[sorted(set(range(0, len(g), step)) | {len(g) - 1})]
    columns = [c for c in GENERATION_TABLE if c in g]
    dropped = [c for c in columns[1:] if constant(g[c])]
    columns = [c for c in columns if c not in dropped]
    rows = [[cell(row, c) for c in columns] for _, row in shown.iterrows()]
    notes = [constant_note(c, g[c]) for c in dropped]
    every = f"Shown: one generation in {step}, and the last. " if step > 1 else ""
    return (table([GENERATION_TABLE[c] for c in columns], rows)
            + ("\n" + every + " ".join(notes) + "\n" if every or notes else ""))


def constant(column) -> bool:
    values = column.to_numpy(dtype=float)
    return bool(np.all(np.isnan(values)) or np.all(values == values[0]))


def constant_note(column: str, values) -> str:
    first = values.iloc[0]
    if np.isnan(first):
        return f"`{column}` is empty in every generation and left out."
    why = " (round-robin fitness is zero-sum)" if column == "mean_fitness" and first == 0 else ""
    return f"`{column}` is {fmt(first)} in every generation{why} and left out."


def cell(row, column: str) -> str:
    if column == "generation":
        return str(int(row[column]))
    if column == "champion_elo":
        return elo_range(row["champion_elo"], row["champion_elo_low"], row["champion_elo_high"])
    return fmt(row[column])


def yardstick_text(run: RunData, row) -> str:
    if np.isnan(row["yardstick_score"]):
        return "none (yardstick.enabled=false)"
    per = ", ".join(f"{o} {fmt(row[f'yardstick_{o}'])}" for o in run.yardstick_opponents)
    return f"{fmt(row['yardstick_score'])}" + (f" ({per})" if per else "")


def champion_markdown(champion, game) -> str:
    provenance = champion.metadata.get("provenance", {})
    info = [[k, f"`{v}`" if isinstance(v, str) else fmt(v)] for k, v in provenance.items()]
    search = champion.metadata.get("search")
    if search:
        info.append(["search", f"`{json.dumps(search)}`"])
    parts = [f"## Champion: {champion.name or 'champion.json'}\n"]
    if info:
        parts.append(table(["provenance", "value"], info))
    parts.append(game.genome_markdown(champion.genome))
    return "\n".join(parts)


def comparison_markdown(runs: list[RunData], figure_name: str) -> str:
    return ("# Run comparison\n\n" + comparison_table(runs)
            + "\nEach run is labelled by the overrides that differ between the runs; 'last' is "
              "each run's last generation.\n"
            + f"\n![comparison]({figure_name})\n\n*{len(runs)} runs: champion Elo against the "
              "yardstick panel, best (relative) fitness, yardstick score and diversity per "
              "generation.*\n")


def comparison_table(runs: list[RunData]) -> str:
    """One row per run: its label, directory, generations and last generation's numbers."""
    rows = []
    for r in runs:
        g, last = r.generations, r.generations.iloc[-1]
        elo = (elo_range(last["champion_elo"], last["champion_elo_low"],
                         last["champion_elo_high"]) if "champion_elo" in g else "n/a")
        rows.append([r.label, f"`{r.path}`", f"0 to {int(last['generation'])}", elo,
                     fmt(last["yardstick_score"]), fmt(last["best_fitness"])])
    header = ["run", "directory", "generations", "champion Elo (last)",
              "yardstick score (last)", "best fitness (last)"]
    return table(header, rows)


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def fmt(value) -> str:
    """Floats with 4 significant digits (weights and fitness need no more to be compared)."""
    if isinstance(value, bool | np.bool_):
        return str(value)
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        return f"{float(value):.4g}"
    return str(value)
