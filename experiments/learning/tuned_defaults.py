"""Do the settings an Optuna sweep found beat the study's defaults on fresh seeds?

    python -m experiments.learning.tuned_defaults --seeds 1000 1001 1002 --games 100 \\
        --out experiments/results/tuned_defaults_reversed_reversi.md

1. The sweep ``python -m evolve -m +experiment=tune_reversed_reversi`` into ``--sweep`` (run
   there unless its ``optimization_results.yaml`` is already there; about an hour on 2 cores),
   and its report (``sweep.md``, the history and importance figures).
2. The default study (``+experiment=reversed_reversi``) with its defaults and with the best
   trial's settings, on seeds the sweep never saw (``--seeds``; every trial of the sweep ran the
   study's own seed), into ``experiments/runs/tuned_defaults/<setting>_seed<k>``.
3. Every champion against the study's yardstick panel, and every tuned champion against every
   default champion, at the study's search (depth 4, exact endgame 10), colour-swapped pairs
   from seeded openings.

The tuned settings are called better only if the tuned champions beat the default ones head to
head (the pooled 95% interval above 50%) and are not weaker against the panel (the mean paired
difference over seeds at least 0), and adopted only if their study also costs at most 1.25x the
games (the sweep's objective does not count cost, so it favours bigger studies). Everything
finished is reused, so the job resumes.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from evolve.analysis.sweep_report import importances, load_results, study_of, write_sweep_report
from evolve.arena.elo import elo_estimate, pair_estimate, score_from_elo
from experiments.common import ROOT, arguments, evaluate, rel, run
from experiments.learning.diversity import seed_interval
from experiments.stamp import Stamp, write_json, write_markdown

EXPERIMENT = "reversed_reversi"
SWEEP = "tune_reversed_reversi"
PANEL = ["wpc_negated", "wpc_negated@d+1", "wpc_negated@d+2", "course"]  # the study's yardstick
SEARCH = ["--depth", "4", "--endgame-empties", "10"]                      # the study's search
RUNS = ROOT / "experiments" / "runs" / "tuned_defaults"
EVAL_SEED = 99
MAX_COST = 1.25  # adopt tuned settings only if their study costs at most this many times the games


def sweep(folder: Path) -> dict:
    if not (folder / "optimization_results.yaml").is_file():
        run(["python", "-m", "evolve", "-m", f"+experiment={SWEEP}",
             f"hydra.sweep.dir={rel(folder)}"], echo=True)
    write_sweep_report(folder)
    return load_results(folder)


def overrides(params: dict) -> list[str]:
    return [f"{key}={value}" for key, value in sorted(params.items())]


def study(setting: str, seed: int, params: dict, games: int) -> dict:
    run_dir = RUNS / f"{setting}_seed{seed}"
    if not (run_dir / "objective.json").is_file():
        run(["python", "-m", "evolve", f"+experiment={EXPERIMENT}", *overrides(params),
             f"seed={seed}", "plot=false", f"hydra.run.dir={rel(run_dir)}"], echo=True)
    gens = pd.read_csv(run_dir / "generations.csv")
    panel = measured(run_dir / "panel.json", [rel(run_dir), "--vs", *PANEL], games)
    w, d, losses = (sum(m[k] for m in panel["matches"]) for k in ("wins", "draws", "losses"))
    return {"setting": setting, "seed": seed, "run": rel(run_dir),
            "objective": json.loads((run_dir / "objective.json").read_text())["value"],  # None: inf
            "games": int(gens["games"].sum()),
            "wins": w, "draws": d, "losses": losses, "elo": elo_estimate(w, d, losses).elo}


def measured(out: Path, options: list, games: int) -> dict:
    if out.is_file():  # measured by an earlier run of this job
        return json.loads(out.read_text())
    return evaluate([*options, "--games", games, *SEARCH, "--seed", EVAL_SEED],
                    out).data


def head_to_head(tuned: dict, default: dict, games: int) -> dict:
    out = RUNS / "head_to_head" / f"tuned{tuned['seed']}_vs_default{default['seed']}.json"
    match = measured(out, [tuned["run"], "--vs", f"{default['run']}/champion.json"],
                     games)["matches"][0]
    return {"tuned_seed": tuned["seed"], "default_seed": default["seed"],
            **{k: match[k] for k in ("wins", "draws", "losses", "score", "pentanomial")}}


def main() -> None:
    p = arguments(__doc__)
    p.add_argument("--sweep", type=Path, default=ROOT / "experiments" / "runs" / SWEEP)
    p.add_argument("--seeds", type=int, nargs="+", default=[1000, 1001, 1002])
    p.add_argument("--games", type=int, default=100, help="per pairing (colour-swapped pairs)")
    args = p.parse_args()
    stamp = Stamp.begin()
    results = sweep(args.sweep)
    best = results["best_params"]
    runs = {s: [study(s, seed, params, args.games) for seed in args.seeds]
            for s, params in (("defaults", {}), ("tuned", best))}
    pairs = [head_to_head(t, d, args.games) for t in runs["tuned"] for d in runs["defaults"]]
    weights = importances(study_of(results))
    figure = args.sweep / "sweep_importance.png"
    if args.out and figure.is_file():
        shutil.copyfile(figure, args.out.with_name(args.out.stem + "_importance.png"))
    table, verdict = render(results, weights, runs, pairs, args)
    print(table)
    if args.out:
        write_markdown(args.out, "# Tuned GA settings vs the defaults, Reversed Reversi", table,
                       stamp)
        write_json(args.out.with_suffix(".json"), {
            "sweep": rel(args.sweep), "best_params": best, "best_value": results["best_value"],
            "importances": weights, "runs": runs["defaults"] + runs["tuned"],
            "head_to_head": pairs, "verdict": verdict}, stamp)


def verdict_text(better: bool, adopt: bool, cost: float) -> str:
    if adopt:
        return "the tuned settings beat the defaults on fresh seeds at about their cost: " \
               "adopt them."
    if better:
        return (f"the tuned settings beat the defaults on fresh seeds, but their studies play "
                f"{cost:.1f}x the games: more games, not better settings, may be what wins. "
                "The defaults stay (a few-minute study on a laptop); a user with the CPU can "
                "take the tuned settings.")
    return "the tuned settings do not beat the defaults on fresh seeds: the defaults stay."


def render(results, weights, runs, pairs, args) -> tuple[str, dict]:
    best = results["best_params"]
    done = [t for t in results["trials"] if t.get("state") == "COMPLETE"]
    lines = [f"Sweep: `python -m evolve -m +experiment={SWEEP} hydra.sweep.dir={rel(args.sweep)}`"
             f" ({len(done)} of {results['n_trials']} trials complete, seeded TPE, every trial "
             f"the default study from its own seed 0; report: `{rel(args.sweep)}/sweep.md`). Best "
             f"trial {results['best_trial']}: objective (champion Elo vs the panel) "
             f"{results['best_value']:+.0f} with `{' '.join(overrides(best))}`.", "",
             "What sets the best quarter of the trials apart (Optuna's PED-ANOVA; "
             f"{len(done)} trials are a hint, not a measurement):", "",
             "| setting | importance |", "|---|---|"]
    lines += [f"| `{k}` | {v:.2f} |" for k, v in weights.items()]
    lines += ["", f"Fresh seeds {', '.join(map(str, args.seeds))}: `python -m evolve "
              f"+experiment={EXPERIMENT} seed=<k>` with the defaults and with the tuned settings. "
              f"Each champion then plays {args.games} games against each panel opponent "
              f"({', '.join(PANEL)}), and each tuned champion {args.games} games against each "
              f"default champion, at depth 4 with exact endgame 10, seed {EVAL_SEED}.", "",
              "| setting | seed | games in the study | objective | vs panel W/D/L | Elo vs panel |",
              "|---|---|---|---|---|---|"]
    for setting in ("defaults", "tuned"):
        for r in runs[setting]:
            objective = "n/a" if r["objective"] is None else f"{r['objective']:+.0f}"
            lines.append(f"| {setting} | {r['seed']} | {r['games']:,} "
                         f"| {objective} | {r['wins']}/{r['draws']}/{r['losses']} "
                         f"| {r['elo']:+.0f} |")
    diffs = [t["elo"] - d["elo"] for t, d in zip(runs["tuned"], runs["defaults"], strict=True)]
    dmean, dlow, dhigh = seed_interval(diffs)
    penta = np.sum([p["pentanomial"] for p in pairs], axis=0)
    h2h = pair_estimate(penta)
    low, high = score_from_elo(h2h.elo_low), score_from_elo(h2h.elo_high)
    per_seed = [np.mean([p["score"] for p in pairs if p["tuned_seed"] == t["seed"]])
                for t in runs["tuned"]]
    smean, slow, shigh = seed_interval(per_seed)
    better = low > 0.5 and dmean >= 0
    cost = np.mean([r["games"] for r in runs["tuned"]]) / np.mean(
        [r["games"] for r in runs["defaults"]])
    adopt = better and cost <= MAX_COST
    verdict = {"panel_elo_difference": [dmean, dlow, dhigh], "head_to_head_score": float(h2h.score),
               "head_to_head_ci95": [float(low), float(high)], "head_to_head_elo": float(h2h.elo),
               "tuned_better": bool(better), "games_ratio": float(cost), "adopt": bool(adopt)}
    lines += ["", "| comparison | tuned minus defaults [95% CI] |", "|---|---|",
              f"| Elo vs panel, paired by seed (t over {len(diffs)} seeds) | {dmean:+.0f} "
              f"[{dlow:+.0f}, {dhigh:+.0f}] |",
              f"| head to head, {len(pairs)} pairings pooled ({int(penta.sum())} colour-swapped "
              f"pairs) | score {h2h.score:.1%} [{low:.1%}, {high:.1%}], Elo {h2h.elo:+.0f} |",
              f"| head to head, each tuned champion's mean score (t over seeds) | {smean:.1%} "
              f"[{slow:.1%}, {shigh:.1%}] |",
              f"| games a study plays, tuned / defaults | {cost:.2f}x |", "",
              "**Verdict: " + verdict_text(better, adopt, cost) + "**"]
    return "\n".join(lines) + "\n", verdict


if __name__ == "__main__":
    main()
