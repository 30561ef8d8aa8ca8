"""The table and curve of ``experiments.learning.from_search``: per round the positions, what
labelling and fitting cost, the held-out error, and the score and Elo (95% CI) of the round's
network against each fixed anchor and against all of them pooled."""

from __future__ import annotations

import math

from evolve.arena.elo import elo_estimate
from experiments.common import rel


def pooled(matches: list[dict]) -> dict:
    """Score and Elo over ``matches`` pooled (games taken as independent), with 95% CIs."""
    w, d, losses = (sum(m[k] for m in matches) for k in ("wins", "draws", "losses"))
    return elo_estimate(w, d, losses).as_dict()


def anchor_name(spec: str) -> str:
    """A short column name: an agent spec as is, a champion file by its stem (a run's
    ``champion.json`` by its run folder)."""
    if not spec.endswith((".json", ".npz")):
        return spec
    parts = spec.replace("\\", "/").split("/")
    return parts[-2] if parts[-1] == "champion.json" and len(parts) > 1 else \
        parts[-1].rsplit(".", 1)[0]


def _signed(v, unbounded: str) -> str:
    """An Elo figure; an unbounded one (a score of 0 or 1: null in JSON) as ``unbounded``."""
    return unbounded if v is None or not math.isfinite(v) else f"{v:+.0f}"


def _elo(x: dict | None) -> str:
    if x is None:
        return "-"
    low, high = x["elo_ci95"]
    sign = "-inf" if x["score"] < 0.5 else "+inf"
    return (f"{x['score']:.3f}, {_signed(x['elo'], sign)} "
            f"[{_signed(low, '-inf')}, {_signed(high, '+inf')}]")


def _f(v, spec: str) -> str:
    return "-" if v is None else format(v, spec)


def _finite(v) -> float:
    return v if v is not None and math.isfinite(v) else math.nan


def markdown(report: dict, figure_name: str | None) -> list[str]:
    s = report["settings"]
    anchors = report["anchors"]
    lines = [*report.get("notes", []), "",
             f"Start (round 0): `{s['champion']}`. Each round labels {s['positions']:,} new "
             f"positions with the previous round's network (`evolve.label`: {s['label_options']}) "
             f"and fits `{s['layout']}` in {s['phases']} phases "
             f"({'on every round so far' if s['union'] else 'on this round alone'}; "
             f"`evolve.fit` {s['fit_options']}). Measured at `{' '.join(s['protocol'])}` (the "
             f"{'League' if s['game'] == 'othello' else '1-ply'} protocol), {s['games']} "
             f"colour-swapped games per anchor, seed {s['eval_seed']}: score, Elo [95% CI]; "
             "pooled: over the fixed anchors (every one but the round-0 champion, which round 0 "
             "cannot play), the games taken as independent.", "",
             "| round | positions | labelling CPU-s | fit s | held-out RMSE | "
             + " | ".join(f"vs {anchor_name(a)}" for a in anchors) + " | pooled, fixed anchors |",
             "|---:|---:|---:|---:|---:|" + "---|" * (len(anchors) + 1)]
    for r in report["rounds"]:
        by = {m["opponent"]: m for m in r["matches"]}
        cells = [_elo(by.get(a)) for a in anchors]
        rmse = r.get("held_out_rmse")  # round 0 was not fitted
        lines.append(f"| {r['round']} | {r['positions_cumulative']:,} | "
                     f"{r['label_cpu_seconds_cumulative']:,.0f} | "
                     f"{_f(r.get('fit_wall_seconds'), '.0f')} | "
                     f"{_f(rmse, '.2f')} | " + " | ".join(cells)
                     + f" | {_elo(r.get('pooled'))} |")
    timed = [r for r in report["rounds"] if r.get("timed")]
    if timed:
        t = s["time"]
        lines += ["", f"At {t['seconds']} s per move against the round-0 champion "
                  f"({t['games']} games): " + "; ".join(
                      f"round {r['round']} {_elo(r['timed'])}" for r in timed) + "."]
    if figure_name:
        lines += ["", f"![Elo per round and per million positions]({figure_name})"]
    lines += ["", "Positions: cumulative over the rounds; labelling CPU-s: the label processes' "
              "CPU (with their reaped children; on Ray plus the workers' labelling tasks as the "
              "label CLI logs them, their sampling not counted), cumulative; fit s: wall "
              "seconds of that round's fit. Commands, in order:", ""]
    lines += [f"- `{c}`" for c in report["commands"]]
    return lines


def figure(report: dict):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rounds = report["rounds"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    xs = ([r["round"] for r in rounds], [r["positions_cumulative"] / 1e6 for r in rounds])
    for ax, x, label in zip(axes, xs, ("round", "million positions labelled"), strict=True):
        for a in report["anchors"]:
            ys = [next((_finite(m["elo"]) for m in r["matches"] if m["opponent"] == a), None)
                  for r in rounds]
            pts = [(xi, y) for xi, y in zip(x, ys, strict=True) if y is not None]
            if pts:
                ax.plot(*zip(*pts, strict=True), marker=".", alpha=0.6, label=anchor_name(a))
        elo = [_finite(r["pooled"]["elo"]) for r in rounds]
        low, high = ([_finite(r["pooled"]["elo_ci95"][i]) for r in rounds] for i in (0, 1))
        ax.errorbar(x, elo, yerr=[[e - lo for e, lo in zip(elo, low, strict=True)],
                                  [hi - e for e, hi in zip(elo, high, strict=True)]],
                    color="black", marker="o", capsize=3, label="pooled, fixed anchors (95% CI)")
        ax.axhline(0, color="grey", lw=0.5)
        ax.set_xlabel(label)
    axes[0].xaxis.get_major_locator().set_params(integer=True)
    axes[0].set_ylabel("Elo vs the anchor")
    axes[1].legend(fontsize=7)
    fig.suptitle(f"Learning from search, {report['settings']['game']}: "
                 f"{rel(report['settings']['champion'])} at round 0")
    fig.tight_layout()
    return fig
