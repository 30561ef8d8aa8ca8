"""Does keeping diversity make stronger champions? Several seeds of one study with the old
settings and with the diversity keepers, same population and generations (so about the same
games and CPU), each final champion then measured against the same anchors.

    python -m experiments.learning.diversity --seeds 0 1 2 --out experiments/results/diversity.md

Writes the runs under ``experiments/runs/diversity/<setting>_seed<k>`` and the table (with the
command) to ``--out``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from evolve.arena.elo import elo_estimate
from experiments.common import ROOT, arguments, evaluate, run
from experiments.stamp import Stamp, write_json, write_markdown

STUDY = ["search.depth=2", "search.endgame_empties=6", "ga.population=12", "ga.generations=20",
         "games.openings=2", "yardstick.openings=4", "backend=ray", "plot=false"]
GAMES = {  # the study's experiment, its anchors and where the runs go
    "reversed_reversi": ("+experiment=reversed_reversi",
                         ["wpc_negated", "wpc_negated@d+1", "wpc_negated@d+2", "course"],
                         "diversity"),
    "othello": ("+experiment=othello", ["wpc", "wpc@d+1", "wpc@d+2", "course"],
                "diversity_othello"),
}
# every key any setting varies, at the values of the old settings: a setting's command line
# sets all of them, so it does not depend on what the experiment's defaults are now
BASE = {"ga.elite_copies": 0, "ga.immigrants": 0, "ga.immigrant_below": 0.05,
        "ga.sigma_min": 0.01, "ga.mutation_prob": 0.1, "ga.seed_noise": 0.05,
        "ga.sharing_radius": 0.0}
SETTINGS = {
    "old": ["ga.elite_copies=0", "ga.immigrants=0", "ga.sigma_min=0.01"],
    "keepers": ["ga.elite_copies=2", "ga.immigrants=2", "ga.immigrant_below=0.05",
                "ga.sigma_min=0.03"],
    "immigrants": ["ga.elite_copies=0", "ga.immigrants=2", "ga.immigrant_below=0.05",
                   "ga.sigma_min=0.01"],
    "elite_copies": ["ga.elite_copies=2", "ga.immigrants=0", "ga.sigma_min=0.03"],
    # the seeded half spread wider around the references: diversity near good weights
    "spread": ["ga.seed_noise=0.15", "ga.elite_copies=2", "ga.immigrants=0", "ga.sigma_min=0.03"],
    # fitness sharing: parents chosen on rank / niche count (evolve/ga/operators.py)
    "sharing": ["ga.sharing_radius=0.1"],
    "sharing_wide": ["ga.sharing_radius=0.2"],
    # stronger mutation that never fades: the bred core itself stays spread (no immigrants)
    "mutation": ["ga.elite_copies=2", "ga.immigrants=0", "ga.sigma_min=0.05",
                 "ga.mutation_prob=0.2"],
    "keepers_sharing": ["ga.elite_copies=2", "ga.immigrants=2", "ga.immigrant_below=0.05",
                        "ga.sigma_min=0.03", "ga.sharing_radius=0.1"],
}


def setting_overrides(setting: str) -> list[str]:
    keys = dict(BASE)
    keys.update(o.split("=", 1) for o in SETTINGS[setting])
    return [f"{k}={v}" for k, v in keys.items()]


def run_study(setting: str, seed: int, runs: Path, experiment: str) -> tuple[Path, float]:
    run_dir = runs / f"{setting}_seed{seed}"
    start = time.perf_counter()
    if not (run_dir / "champion.json").is_file():
        run(["python", "-m", "evolve", experiment, *STUDY, *setting_overrides(setting),
             f"seed={seed}", f"hydra.run.dir={run_dir}"])
    return run_dir, time.perf_counter() - start


def anchors_report(run_dir: Path, games: int, anchors: list[str]) -> dict:
    out = run_dir / "anchors.json"
    if out.is_file():  # measured by an earlier run
        return json.loads(out.read_text())
    return evaluate([run_dir, "--vs", *anchors, "--games", games, "--depth", "2",
                     "--endgame-empties", "6", "--seed", "99"], out).data


def main() -> None:
    p = arguments(__doc__)
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    p.add_argument("--more-seeds", type=int, nargs="*", default=[],
                   help="extra seeds for the settings named by --more-settings only")
    p.add_argument("--more-settings", nargs="*", default=[], choices=list(SETTINGS))
    p.add_argument("--games", type=int, default=100, help="per anchor opponent")
    p.add_argument("--game", choices=list(GAMES), default="reversed_reversi")
    p.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    args = p.parse_args()
    stamp = Stamp.begin()
    experiment, anchors, folder = GAMES[args.game]
    runs = ROOT / "experiments" / "runs" / folder
    rows, pooled = [], {}
    for setting in args.settings:
        seeds = args.seeds + (args.more_seeds if setting in args.more_settings else [])
        for seed in seeds:
            run_dir, seconds = run_study(setting, seed, runs, experiment)
            gens = pd.read_csv(run_dir / "generations.csv")
            result = anchors_report(run_dir, args.games, anchors)
            w = sum(m["wins"] for m in result["matches"])
            d = sum(m["draws"] for m in result["matches"])
            losses = sum(m["losses"] for m in result["matches"])
            est = elo_estimate(w, d, losses)
            totals = pooled.setdefault(setting, [0, 0, 0])
            totals[0], totals[1], totals[2] = totals[0] + w, totals[1] + d, totals[2] + losses
            rows.append((setting, seed, gens["diversity"].iloc[3], gens["diversity"].iloc[-1],
                         gens["diversity"].iloc[3:].min(), gens["wall_seconds"].sum(), w, d,
                         losses, est))
            print(f"{setting} seed {seed}: Elo {est.elo:+.0f} [{est.elo_low:+.0f}, "
                  f"{est.elo_high:+.0f}]", flush=True)
    table = render(rows, pooled, args)
    print(table)
    if args.out:
        write_markdown(args.out, f"# Diversity settings vs the old settings ({args.game})",
                       table, stamp)
        write_json(args.out.with_suffix(".json"), {"game": args.game, "runs": [
            {"setting": setting, "seed": seed, "diversity_gen3": float(d3),
             "diversity_final": float(dlast), "diversity_lowest_from_gen3": float(dmin),
             "study_seconds": float(secs), "wins": w, "draws": d, "losses": losses,
             "elo": est.elo, "elo_low": est.elo_low, "elo_high": est.elo_high}
            for setting, seed, d3, dlast, dmin, secs, w, d, losses, est in rows]}, stamp)


def seed_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean over seeds with a t-based 95% interval: the seeds, not the games, are the samples
    (one seed's champion is one draw of what a setting produces)."""
    x = np.asarray(values, dtype=float)
    if len(x) < 2:
        return float(x.mean()), float("nan"), float("nan")
    half = stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))
    return float(x.mean()), float(x.mean() - half), float(x.mean() + half)


def render(rows, pooled, args) -> str:
    settings = " ".join(f"`{name}` = `{' '.join(keys)}`;" for name, keys in SETTINGS.items())
    lines = [f"Study: `python -m evolve {GAMES[args.game][0]} {' '.join(STUDY)} seed=<k>` plus "
             f"{' '.join(f'{k}={v}' for k, v in BASE.items())} (the old settings) with the "
             f"setting's changes: {settings} "
             "same population and generations, so about the same games and CPU per study. Each "
             "run's exported champion (the playoff winner) then plays "
             f"{args.games} games (colour-swapped pairs, seed 99) against each of "
             f"{', '.join(GAMES[args.game][1])} at depth 2; Elo is against those anchors "
             "pooled.", "",
             "| setting | seed | diversity at gen 3 | final diversity | lowest from gen 3 "
             "| study wall s | W | D | L | Elo vs anchors [95% CI] |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for setting, seed, d3, dlast, dmin, secs, w, d, losses, est in rows:
        lines.append(f"| {setting} | {seed} | {d3:.3f} | {dlast:.3f} | {dmin:.3f} | {secs:.0f} "
                     f"| {w} | {d} "
                     f"| {losses} | {est.elo:+.0f} [{est.elo_low:+.0f}, {est.elo_high:+.0f}] |")
    lines += ["", "Per setting over the seeds. Seed-level columns treat each seed's champion as "
              "one sample (t interval over seeds); the paired difference compares each seed with "
              "`old` on the same seed. The pooled column counts games, so its CI is too narrow "
              "for a comparison of settings.", "",
              "| setting | seeds | mean diversity gen 3 | mean final diversity "
              "| mean lowest from gen 3 | mean Elo over seeds [95% CI] "
              "| minus `old`, paired [95% CI] | pooled W/D/L | pooled Elo [95% CI] |",
              "|---|---|---|---|---|---|---|---|---|"]
    by_setting: dict[str, dict[int, tuple]] = {}
    for setting, seed, d3, dlast, dmin, _secs, _w, _d, _l, est in rows:
        by_setting.setdefault(setting, {})[seed] = (d3, dlast, est.elo, dmin)
    base = by_setting.get("old", {})
    for setting, (w, d, losses) in pooled.items():
        runs = by_setting[setting]
        mean, low, high = seed_interval([r[2] for r in runs.values()])
        paired = [runs[k][2] - base[k][2] for k in runs if k in base]
        dmean, dlow, dhigh = seed_interval(paired) if setting != "old" else (0, 0, 0)
        est = elo_estimate(w, d, losses)
        diff = "" if setting == "old" else f"{dmean:+.0f} [{dlow:+.0f}, {dhigh:+.0f}]"
        lines.append(
            f"| {setting} | {len(runs)} | {np.mean([r[0] for r in runs.values()]):.3f} "
            f"| {np.mean([r[1] for r in runs.values()]):.3f} "
            f"| {np.mean([r[3] for r in runs.values()]):.3f} | {mean:+.0f} [{low:+.0f}, "
            f"{high:+.0f}] | {diff} | {w}/{d}/{losses} | {est.elo:+.0f} [{est.elo_low:+.0f}, "
            f"{est.elo_high:+.0f}] |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
