"""Does keeping diversity make stronger champions? Several seeds of one study with the old
settings and with the diversity keepers, same population and generations (so about the same
games and CPU), each final champion then measured against the same anchors.

    python experiments/diversity.py --seeds 0 1 2 --out experiments/results/diversity.md

Writes the runs under ``experiments/runs/diversity/<setting>_seed<k>`` and the table (with the
command) to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evolve.arena.elo import elo_estimate  # noqa: E402

STUDY = ["+experiment=reversed_reversi", "search.depth=2", "search.endgame_empties=6",
         "ga.population=12", "ga.generations=20", "games.openings=2", "yardstick.openings=4",
         "backend=ray", "plot=false"]
SETTINGS = {
    "old": ["ga.elite_copies=0", "ga.immigrants=0", "ga.sigma_min=0.01"],
    "keepers": ["ga.elite_copies=2", "ga.immigrants=2", "ga.immigrant_below=0.05",
                "ga.sigma_min=0.03"],
    "immigrants": ["ga.elite_copies=0", "ga.immigrants=2", "ga.immigrant_below=0.05",
                   "ga.sigma_min=0.01"],
}
ANCHORS = ["wpc_negated", "wpc_negated@d+1", "wpc_negated@d+2", "course"]


def run_study(setting: str, seed: int, runs: Path) -> tuple[Path, float]:
    run_dir = runs / f"{setting}_seed{seed}"
    start = time.perf_counter()
    if not (run_dir / "champion.json").is_file():
        cmd = [sys.executable, "-m", "evolve", *STUDY, *SETTINGS[setting], f"seed={seed}",
               f"hydra.run.dir={run_dir}"]
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
    return run_dir, time.perf_counter() - start


def evaluate(run_dir: Path, games: int) -> dict:
    out = run_dir / "anchors.json"
    if not out.is_file():
        cmd = [sys.executable, "-m", "evolve.evaluate", str(run_dir), "--vs", *ANCHORS,
               "--games", str(games), "--depth", "2", "--endgame-empties", "6", "--seed", "99",
               "--json", str(out)]
        subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)
    return json.loads(out.read_text())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    p.add_argument("--games", type=int, default=100, help="per anchor opponent")
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args()
    runs = ROOT / "experiments" / "runs" / "diversity"
    rows, pooled = [], {}
    for setting in SETTINGS:
        for seed in args.seeds:
            run_dir, seconds = run_study(setting, seed, runs)
            gens = pd.read_csv(run_dir / "generations.csv")
            result = evaluate(run_dir, args.games)
            w = sum(m["wins"] for m in result["matches"])
            d = sum(m["draws"] for m in result["matches"])
            losses = sum(m["losses"] for m in result["matches"])
            est = elo_estimate(w, d, losses)
            totals = pooled.setdefault(setting, [0, 0, 0])
            totals[0], totals[1], totals[2] = totals[0] + w, totals[1] + d, totals[2] + losses
            rows.append((setting, seed, gens["diversity"].iloc[3], gens["diversity"].iloc[-1],
                         gens["wall_seconds"].sum(), w, d, losses, est))
            print(f"{setting} seed {seed}: Elo {est.elo:+.0f} [{est.elo_low:+.0f}, "
                  f"{est.elo_high:+.0f}]", flush=True)
    table = render(rows, pooled, args)
    print(table)
    if args.out:
        args.out.write_text(table)


def render(rows, pooled, args) -> str:
    lines = ["# Diversity keepers vs the old settings (issue 14)", "",
             "Command: `python experiments/diversity.py --seeds "
             f"{' '.join(map(str, args.seeds))} --games {args.games}`", "",
             f"Study: `python -m evolve {' '.join(STUDY)} seed=<k>` plus the setting; "
             f"`old` = `{' '.join(SETTINGS['old'])}`, `keepers` = "
             f"`{' '.join(SETTINGS['keepers'])}`, `immigrants` = "
             f"`{' '.join(SETTINGS['immigrants'])}`. Same population and generations, so about "
             "the same games per study. Each run's exported champion (the playoff winner) then "
             f"plays {args.games} games (colour-swapped pairs, seed 99) against each of "
             f"{', '.join(ANCHORS)} at depth 2; Elo is against those anchors pooled.", "",
             "| setting | seed | diversity at gen 3 | final diversity | study wall s | W | D | L "
             "| Elo vs anchors [95% CI] |", "|---|---|---|---|---|---|---|---|---|"]
    for setting, seed, d3, dlast, secs, w, d, losses, est in rows:
        lines.append(f"| {setting} | {seed} | {d3:.3f} | {dlast:.3f} | {secs:.0f} | {w} | {d} "
                     f"| {losses} | {est.elo:+.0f} [{est.elo_low:+.0f}, {est.elo_high:+.0f}] |")
    lines += ["", "| setting | all seeds W/D/L | Elo vs anchors [95% CI] |", "|---|---|---|"]
    for setting, (w, d, losses) in pooled.items():
        est = elo_estimate(w, d, losses)
        lines.append(f"| {setting} | {w}/{d}/{losses} | {est.elo:+.0f} [{est.elo_low:+.0f}, "
                     f"{est.elo_high:+.0f}] |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
