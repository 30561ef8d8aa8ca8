"""The hour-long learning-efficiency rows (``learning_efficiency_hour.md`` / ``.json`` /
``.png``): each hour-long method of a game's plan (``efficiency_plans.an_hour``: TD online,
distributed TD on 2 Ray workers learnt by the driver or on the workers, Co-CMA-ES; in
Othello also learning from search) for 1 CPU-hour per seed, Reversed Reversi from one seed and
Othello from two, plotted per CPU-hour and per wall-hour. Every run is resumable and a measured
row is kept (``efficiency``), so an interrupted call continues where it stopped, and a bigger
machine can add seeds::

    python -m experiments.learning.efficiency_hour [--results experiments/results]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from experiments.learning import efficiency
from experiments.learning.efficiency_plans import HOUR, PLANS
from experiments.stamp import ROOT

NAME = "learning_efficiency_hour"
SEEDS = {"reversed_reversi": ("0",), "othello": ("0", "1")}


def hour_methods(game: str) -> list[str]:
    return [m.name for m in PLANS[game].methods if m.budget == HOUR]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m experiments.learning.efficiency_hour",
        description="The hour-long learning-efficiency rows (TD online, distributed TD "
        "on 2 Ray workers, Co-CMA-ES, Othello learning from search; 1 CPU-hour each; "
        "Reversed Reversi 1 seed, Othello 2) into "
        "learning_efficiency_hour.md/.json/.png. Resumable: rerun the same command to continue.")
    p.add_argument("--results", type=Path, default=ROOT / "experiments" / "results",
                   help="where the result files go (default: experiments/results)")
    p.add_argument("--work", type=Path, default=Path("outputs/learning_efficiency"),
                   help="run folders and champions (keep it to resume)")
    args = p.parse_args(argv)
    for game, seeds in SEEDS.items():
        code = efficiency.main(["--game", game, "--methods", *hour_methods(game), "--seeds",
                                *seeds, "--work", str(args.work), "--results",
                                str(args.results), "--name", NAME])
        if code:
            return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
