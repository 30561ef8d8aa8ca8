"""TD learning curves through ``python -m evolve.td``: several runs of one game, each saving its
network every N games (``--snapshot-every``), every snapshot played against fixed anchors.

    python -m experiments.learning.td_curves --list
    python -m experiments.learning.td_curves --curve td_curve_othello_layouts
    python -m experiments.learning.td_curves --curve td_curve_othello_layouts --run square2

A curve is a row of ``CURVES`` (``td_curves_plans``; a new comparison is a new row): the game,
its runs (a label, the network settings and ``evolve.td``'s options), how often a snapshot is
taken, the anchors, the search both sides use and the games per match. Each run is one
``evolve.td`` command with a checkpoint and ``--resume`` under
``experiments/runs/td_curves/<curve>/``: a killed job continues where it stopped (the same
bits), a finished run is not trained again, and ``--run LABEL`` trains and measures only that
run (two at once on two cores). The networks of the last snapshot of each run are kept there
(committed); the snapshots are not (remade by the command, bit for bit).

The result (``<results>/<curve>.md`` + ``.json`` + ``.png``, stamped) gives, per run and
snapshot, the games, the training CPU seconds, and the score with its 95% Wilson interval
against every anchor; then the runs' final networks in a round robin (head to head).
Anchors are never trained against: strength is judged against fixed players.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from engine.core.commands.helptext import summary
from experiments.common import ROOT, evaluate, rel, run
from experiments.learning.td_curves_plans import CURVES, LEAGUE, Curve, Run, network
from experiments.stamp import Stamp, write_json, write_markdown

__all__ = ["CURVES", "LEAGUE", "Curve", "Run", "by_name", "main", "network"]

RESULTS = ROOT / "experiments" / "results"
WORK = ROOT / "experiments" / "runs" / "td_curves"


def by_name() -> dict[str, Curve]:
    return {c.name: c for c in CURVES}


def final_path(curve: Curve, r: Run) -> Path:
    return WORK / curve.name / f"{r.label}.json"


def snapshots(curve: Curve, r: Run) -> list[tuple[int, Path]]:
    """``(games, file)`` of every snapshot of a run, in order, its final network last."""
    final = final_path(curve, r)
    found = [(int(m.group(1)), p) for p in final.parent.glob(f"{r.label}.g*.json")
             if (m := re.fullmatch(rf"{re.escape(r.label)}\.g(\d+)\.json", p.name))]
    games = json.loads(final.read_text())["metadata"]["td"]["games"]
    return sorted([x for x in found if x[0] < games] + [(games, final)])


def train(curve: Curve, r: Run, log: list[str]) -> None:
    """The run's ``evolve.td`` command, resumed from its checkpoint if one is there."""
    out = final_path(curve, r)
    command = ["python", "-m", "evolve.td", "--game", curve.game, "--settings",
               json.dumps(r.settings), *r.options.split(), "--seed", str(r.seed), "--out",
               rel(out), "--snapshot-every", str(curve.snapshot_every), "--checkpoint",
               rel(out.with_suffix(".checkpoint.npz")), "--checkpoint-seconds", "120",
               "--resume", "--no-progress"]
    if out.exists():
        log.append(" ".join(command[:3]) + f" ... (done before: {rel(out)})")
        return
    print(run(command, log, echo=True), end="", flush=True)


def game_options(curve: Curve) -> list[str]:
    return ["--game", curve.game, *(["--game-settings", curve.game_settings]
                                    if curve.game_settings else [])]


def measure_run(curve: Curve, r: Run, log: list[str]) -> list[dict]:
    rows = []
    for games, path in snapshots(curve, r):
        if curve.measure_at and games not in curve.measure_at:
            continue
        meta = json.loads(path.read_text())["metadata"]["td"]
        matches: dict[int, dict] = {}
        for search in dict.fromkeys(s for _, s in curve.matches()):  # one call per search
            which = [i for i, (_, s) in enumerate(curve.matches()) if s == search]
            done = evaluate([rel(path), "--vs", *(curve.matches()[i][0] for i in which),
                             *game_options(curve), *search.split(), "--games", curve.games,
                             "--seed", curve.seed, "--backend", "serial", "--no-progress"],
                            log=log)
            for i, m in zip(which, done.data["matches"], strict=True):  # in --vs order
                matches[i] = {**{k: m[k] for k in ("opponent", "score", "score_ci95", "wins",
                                                   "draws", "losses")}, "search": search}
        matches = [matches[i] for i in sorted(matches)]
        rows.append({"run": r.label, "games": games, "cpu_seconds": meta.get("cpu_seconds"),
                     "matches": matches})
        scores = ", ".join(f"{m['score']:.3f}" for m in rows[-1]["matches"])
        print(f"{r.label} at {games:,} games: {scores}", flush=True)
    return rows


def head_to_head(curve: Curve, runs, log: list[str]) -> dict | None:
    finals = [rel(final_path(curve, r)) for r in runs if final_path(curve, r).exists()]
    if len(finals) < 2:
        return None
    return evaluate(["--round-robin", *finals, *game_options(curve), *curve.search.split(),
                     "--games", curve.games, "--seed", curve.seed, "--backend", "serial",
                     "--no-progress"], log=log).data


def short(spec: str) -> str:
    name, _, search = spec.partition("@")
    name = Path(name).stem if name.endswith(".json") else name
    return f"{name} ({search.strip()})" if search else name


def table(curve: Curve, rows: list[dict]) -> list[str]:
    anchors = [short(a) for a in curve.anchors]
    lines = ["| run | games | CPU-s | " + " | ".join(f"vs {a}" for a in anchors) + " |",
             "|---|---:|---:|" + "---:|" * len(anchors)]
    for row in rows:
        cells = [f"{m['score']:.1%} [{m['score_ci95'][0]:.1%}, {m['score_ci95'][1]:.1%}]"
                 for m in row["matches"]]
        cpu = "" if row["cpu_seconds"] is None else f"{row['cpu_seconds']:,.0f}"
        lines.append(f"| {row['run']} | {row['games']:,} | {cpu} | " + " | ".join(cells) + " |")
    return lines


def figure(curve: Curve, rows: list[dict], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(curve.anchors), figsize=(4.2 * len(curve.anchors), 3.6),
                             squeeze=False, sharey=True)
    for j, (ax, anchor) in enumerate(zip(axes[0], curve.anchors, strict=True)):
        for r in curve.runs:
            mine = [row for row in rows if row["run"] == r.label]
            if not mine:
                continue
            x = [row["games"] for row in mine]
            m = [row["matches"][j] for row in mine]
            ax.plot(x, [s["score"] for s in m], marker="o", label=r.label)
            ax.fill_between(x, [s["score_ci95"][0] for s in m], [s["score_ci95"][1] for s in m],
                            alpha=0.15)
        ax.axhline(0.5, color="grey", lw=0.8, ls=":")
        ax.set_title(f"vs {short(anchor)}", fontsize=10)
        ax.set_xlabel("TD games")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("score (95% CI)")
    axes[0][-1].legend(fontsize=8, loc="lower right")
    fig.suptitle(f"{curve.name}: {curve.game}, {curve.search}, {curve.games} games per point",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def measure(curve: Curve, results: Path, only: str | None) -> None:
    stamp, log = Stamp.begin(), []
    runs = [r for r in curve.runs if only in (None, r.label)]
    for r in runs:
        train(curve, r, log)
    rows = [row for r in runs for row in measure_run(curve, r, log)]
    if only is not None:  # one run of several: its rows only, nothing written
        return
    h2h = head_to_head(curve, runs, log)
    stem = results / curve.name
    write_json(stem.with_suffix(".json"), {"curve": curve.name, "what": curve.what,
                                           "rows": rows, "head_to_head": h2h}, stamp)
    figure(curve, rows, stem.with_suffix(".png"))
    lines = [curve.what + ".", "", "```", *log, "```", "", *table(curve, rows), "",
             f"![{curve.name}]({curve.name}.png)"]
    if h2h is not None:
        lines += ["", "The runs' final networks head to head (row's score against column):",
                  "", *head_to_head_table(h2h)]
    write_markdown(stem.with_suffix(".md"), f"# TD learning curves: {curve.name}", lines, stamp)


def head_to_head_table(h2h: dict) -> list[str]:
    names = sorted({short(m["player"]) for m in h2h["matches"]} |
                   {short(m["opponent"]) for m in h2h["matches"]})
    score = {(short(m["player"]), short(m["opponent"])): m for m in h2h["matches"]}
    lines = ["| | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for a in names:
        cells = []
        for b in names:
            if (a, b) in score:
                m = score[(a, b)]
                cells.append(f"{m['score']:.1%} [{m['score_ci95'][0]:.0%}, "
                             f"{m['score_ci95'][1]:.0%}]")
            elif (b, a) in score:
                m = score[(b, a)]
                cells.append(f"{1 - m['score']:.1%} [{1 - m['score_ci95'][1]:.0%}, "
                             f"{1 - m['score_ci95'][0]:.0%}]")
            else:
                cells.append("")
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.learning.td_curves",
                                description=summary(__doc__))
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--curve", choices=list(by_name()), metavar="NAME")
    which.add_argument("--list", action="store_true", help="show the curves and exit")
    p.add_argument("--run", default=None, metavar="LABEL",
                   help="train and measure this run only (no result file)")
    p.add_argument("--results", type=Path, default=RESULTS, help="where results go")
    args = p.parse_args(argv)
    if args.list:
        for c in CURVES:
            print(f"{c.name}: {c.what}\n    runs: {', '.join(r.label for r in c.runs)}")
        return 0
    curve = by_name()[args.curve]
    if args.run is not None and args.run not in {r.label for r in curve.runs}:
        p.error(f"--run {args.run!r}: allowed {', '.join(r.label for r in curve.runs)}")
    args.results.mkdir(parents=True, exist_ok=True)
    measure(curve, args.results, args.run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
