"""Which anchors keep the in-run champion Elo honest? Recomputed from the yardstick games that
committed runs recorded (no game is played), three ways per generation:

- ``in-run (old)``: the panel rated 0 and every hall-of-fame member at its own in-run Elo from
  when it was champion (what ``generations.csv`` said before the panel-only Elo);
- ``members rated vs panel``: each member rated once, against the panel alone, its uncertainty
  carried into the champion's CI (delta method, added in quadrature);
- ``panel only``: the hall of fame left out (what a run reports now).

For each run: over the generations that played hall-of-fame members, the mean and the last
difference to the panel-only Elo, and in how many of them the panel-only estimate lies inside
that method's 95% CI.

    python -m experiments.learning.elo_anchors experiments/runs/reversed_reversi_progress \
        experiments/runs/reversed_reversi_long experiments/runs/diversity/*_seed[0-2] \
        experiments/runs/hexifence --out experiments/results/elo_anchors.md
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from evolve.arena.elo import Z95, performance_rating, score_from_elo
from experiments.common import arguments
from experiments.stamp import ROOT, Stamp, write_result

EVERY = 5  # the default yardstick.hall_of_fame_every of these runs


def champion_counts(games: pd.DataFrame) -> dict[str, list[int]]:
    """(losses, draws, wins) of the champion (the numeric id) against each opponent."""
    first_id, second_id = games.columns[3], games.columns[4]
    first, second = first_id.removesuffix("_id"), second_id.removesuffix("_id")
    counts: dict[str, list[int]] = {}
    for row in games.itertuples(index=False):
        a, b = str(getattr(row, first_id)), str(getattr(row, second_id))
        champion_first = a.isdigit()
        opponent = b if champion_first else a
        won = row.winner == (first if champion_first else second)
        c = counts.setdefault(opponent, [0, 0, 0])
        c[2 if won else 1 if row.winner == "draw" else 0] += 1
    return counts


def rated(counts: dict, ratings: dict[str, tuple[float, float]]):
    """Performance rating against panel (0) and members at ``ratings`` (elo, sd), with a CI
    widened by the members' uncertainty; the members without a finite rating left out."""
    results = [(c, 0.0, 0.0) for k, c in counts.items() if not k.startswith("hof_gen")]
    results += [(c, *ratings[k]) for k, c in counts.items() if k in ratings]
    est = performance_rating([(c, r) for c, r, _ in results])
    if not math.isfinite(est.elo):
        return est.elo, est.elo_low, est.elo_high
    info = [sum(c) * score_from_elo(est.elo - r) * (1 - score_from_elo(est.elo - r))
            for c, r, _ in results]
    shares = [i / sum(info) for i in info]  # d(rating) / d(member's rating)
    carried = math.sqrt(sum((w * sd) ** 2 for w, (_, _, sd) in zip(shares, results, strict=True)))
    return (est.elo, est.elo - math.hypot(est.elo - est.elo_low, Z95 * carried),
            est.elo + math.hypot(est.elo_high - est.elo, Z95 * carried))


def compare(run_dir: Path) -> dict:
    yard = pd.read_csv(run_dir / "yardstick_games.csv")
    old_ratings, panel_ratings, rows = {}, {}, []
    for g, games in yard.groupby("generation"):
        counts = champion_counts(games)
        panel = rated(counts, {})
        old = rated(counts, old_ratings)
        anchored = rated(counts, panel_ratings)
        if any(k.startswith("hof_gen") for k in counts) and math.isfinite(panel[0]):
            rows.append((panel[0], old, anchored))
        if g % EVERY == 0 and math.isfinite(old[0]):  # who joined: as the runs decided
            label = f"hof_gen{g:04d}"
            old_ratings[label] = (old[0], 0.0)
            if math.isfinite(panel[0]) and math.isfinite(panel[2]):
                panel_ratings[label] = (panel[0], (panel[2] - panel[1]) / (2 * Z95))
    out = {"generations": len(rows)}
    for name, k in (("old", 1), ("anchored", 2)):
        diffs = [r[k][0] - r[0] for r in rows if math.isfinite(r[k][0])]
        inside = sum(r[k][1] <= r[0] <= r[k][2] for r in rows)
        out[name] = (np.mean(diffs), diffs[-1], inside)
    return out


def main() -> None:
    p = arguments(__doc__)
    p.add_argument("runs", type=Path, nargs="+")
    args = p.parse_args()
    stamp = Stamp.begin()
    lines = ["From the yardstick games each run recorded (no game played). Per run, over the "
             "generations whose champion played hall-of-fame members: the mean and the last "
             "difference of each method's Elo to the panel-only Elo, and in how many of those "
             "generations the panel-only Elo lies inside the method's 95% CI.", "",
             "| run | generations with members | in-run (old): mean / last vs panel only, panel "
             "in CI | members rated vs panel: mean / last, panel in CI |", "|---|---|---|---|"]
    rows = []
    for run_dir in args.runs:
        r = compare(run_dir)
        name = str(run_dir.resolve().relative_to(ROOT) if run_dir.resolve().is_relative_to(ROOT)
                   else run_dir)
        rows.append({"run": name, "generations": r["generations"],
                     **{k: {"mean": float(m), "last": float(last), "inside": int(inside)}
                        for k, (m, last, inside) in (("old", r["old"]),
                                                     ("anchored", r["anchored"]))}})
        cells = [f"{m:+.0f} / {last:+.0f}, {inside}/{r['generations']}"
                 for m, last, inside in (r["old"], r["anchored"])]
        lines.append(f"| `{name}` | {r['generations']} | {cells[0]} | {cells[1]} |")
    write_result(args.out, "# Which anchors keep the champion Elo honest", lines,
                 stamp, {"runs": rows})


if __name__ == "__main__":
    main()
