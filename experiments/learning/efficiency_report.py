"""The learning-efficiency table and figure, from the rows ``experiments.learning.efficiency``
measured (one row per method, seed and checkpoint of the CPU budget)."""

from __future__ import annotations

import math
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

Z = 1.959964


def wilson(points: float, n: int) -> tuple[float, float, float]:
    p = points / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return p, max(centre - half, 0.0), min(centre + half, 1.0)


def elo_text(score: float) -> str:
    if score <= 0.0:
        return "<= -800"
    if score >= 1.0:
        return ">= +800"
    return f"{-400.0 * math.log10(1.0 / score - 1.0):+.0f}"


def seeds_pooled(rows: list[dict]) -> tuple[float, float, float, int]:
    """Score and Wilson interval over the games of every seed's row (same checkpoint)."""
    n = sum(r["games"] for r in rows)
    return (*wilson(sum(r["score"] * r["games"] for r in rows), n), n)


def by_method(rows: list[dict]) -> dict[str, dict[float, list[dict]]]:
    out: dict[str, dict[float, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        out[r["method"]][r["fraction"]].append(r)
    return out


def markdown(report: dict, plans: dict, figure_name: str) -> list[str]:
    lines = ["Elo against a fixed anchor pool as a function of the CPU-seconds a method spent "
             "learning, for each genome kind x optimizer, from "
             "`experiments/learning/efficiency_plans.py`. Each run gets the same CPU budget "
             "(serial, one core; distributed TD counts its Ray workers' CPU too, and the hour-long "
             "sections show the wall clock beside it: a TD run's steps, without Ray's start and "
             "the workers' warm-up of a few seconds; a study's whole process); its champion at "
             "1/4, 1/2 and all of the budget (the last one within each, 2% allowed; a TD "
             "run's: its snapshots) plays every anchor with colour-swapped seeded openings "
             "(the same for every player). Score and Elo are over all anchor games, with the "
             "95% Wilson interval; *all seeds* pools the seeds' games at the full budget.", "",
             f"![Elo against the anchors per CPU-second]({figure_name})", ""]
    for name, game in report["games"].items():
        plan = plans[game.get("game", name)]
        lines += [f"## {name}", "",
                  f"Anchors: {', '.join(f'`{a}`' for a in game['anchors'])}; protocol "
                  f"`{' '.join(game['protocol'])}`; {game['games']} games per anchor and "
                  f"checkpoint; budget {game['budget']:.0f} CPU-s per run.", *plan.notes, "",
                  "| method | what | seed | Elo at 1/4 | Elo at 1/2 | Elo at the budget [95% CI] "
                  "| " + " | ".join(f"score vs {anchor_name(a)}" for a in game["anchors"])
                  + " | CPU-s / wall-s at the budget |",
                  "|---|---|---:|---:|---:|---|" + "---:|" * len(game["anchors"]) + "---:|"]
        for method, fractions in by_method(game["rows"]).items():
            full = fractions[1.0]
            for r in full:
                early = [next((x for x in fractions[f] if x["seed"] == r["seed"]), None)
                         for f in (0.25, 0.5)]
                lines.append(
                    f"| {method} | {game['methods'][method]} | {r['seed']} | "
                    + " | ".join(elo_text(e["score"]) if e else "" for e in early)
                    + f" | {elo_text(r['score'])} [{elo_text(r['score_ci95'][0])}, "
                    f"{elo_text(r['score_ci95'][1])}] | "
                    + " | ".join(f"{r['by_anchor'].get(a, float('nan')):.1%}"
                                 for a in game["anchors"]) + f" | {spent(r)} |")
            if len(full) > 1:
                p, low, high, n = seeds_pooled(full)
                lines.append(f"| {method} | all seeds ({n} games) | | | | **{elo_text(p)}** "
                             f"[{elo_text(low)}, {elo_text(high)}] | "
                             + " | ".join("" for _ in game["anchors"]) + " | |")
        commands = sorted({c for value in game.get("commands", {}).values()
                           for c in ([value] if isinstance(value, str) else value)})
        if commands:
            lines += ["", "Measured by " + "; ".join(f"`{c}`" for c in commands) + "."]
        lines.append("")
    return lines


def spent(row: dict) -> str:
    """CPU (and wall, where the run recorded it) the row's champion had spent."""
    cpu = f"{row['cpu']:,.0f}" if "cpu" in row else "?"
    return f"{cpu} / {row['wall']:,.0f}" if "wall" in row else cpu


def anchor_name(anchor: str) -> str:
    return anchor.rsplit("/", 1)[-1].removesuffix(".json")


def figure(report: dict):
    """One panel per game section against the CPU spent, and beside it one against the wall
    clock when its runs recorded it (hour-long sections: in hours)."""
    games = list(report["games"].items())
    methods = list(dict.fromkeys(r["method"] for _, g in games for r in g["rows"]))
    colour = {m: plt.get_cmap("tab10")(i % 10) for i, m in enumerate(methods)}  # one per method
    panels = [(name, game, clock) for name, game in games
              for clock in ("cpu", "wall") if clock == "cpu" or any("wall" in r for r in
                                                                     game["rows"])]
    columns = min(2, len(panels))
    rows = -(-len(panels) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(6.5 * columns, 4.6 * rows), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax, (name, game, clock) in zip(axes.flat, panels, strict=False):
        hours = game["budget"] >= 3600.0
        for method, fractions in by_method(game["rows"]).items():
            xs, ys, lows, highs = [], [], [], []
            for f in sorted(fractions):
                timed = [r for r in fractions[f] if clock in r]
                if not timed:
                    continue
                p, low, high, _ = seeds_pooled(fractions[f])
                xs.append(sum(r[clock] for r in timed) / len(timed) / (3600.0 if hours else 1.0))
                ys.append(elo(p))
                lows.append(elo(p) - elo(low))
                highs.append(elo(high) - elo(p))
            if xs:
                ax.errorbar(xs, ys, yerr=[lows, highs], marker="o", capsize=3, label=method,
                            color=colour[method])
        ax.axhline(0, color="grey", lw=0.8)
        unit = "hours" if hours else "seconds"
        budget = f"{game['budget'] / 3600:.0f} CPU-hour" if hours else \
            f"{game['budget']:.0f} CPU-s"
        ax.set_title(f"{name}: {budget} per run" + (", wall clock" if clock == "wall" else ""))
        ax.set_xlabel(f"CPU-{unit} spent learning (mean over seeds)" if clock == "cpu" else
                      f"wall-clock {unit} spent learning (mean over seeds)")
        ax.set_ylabel("Elo vs the anchor pool (seeds pooled, 95% CI)")
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)  # a clean sweep is drawn at +-1200
    return -400.0 * math.log10(1.0 / score - 1.0)
