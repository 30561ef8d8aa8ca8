"""Choosing the yardstick panels (issue 14): a panel a generation-0 champion already beats 100%
of the time shows no progress. The generation-0 champions of the committed default studies
(depth 4, exact endgame from 10 empties) against candidate panel opponents; ``@d+K`` is the same
weights searching K plies deeper than the champion.

    python -m experiments.yardstick_panels --out experiments/results/yardstick_panels.md

Each match is ``--games`` games (colour-swapped pairs from seeded random openings, serial),
played by ``python -m evolve.evaluate``; its table and JSON are kept as they came.
"""

from __future__ import annotations

import sys

from engine.core.registry import get_game
from experiments.common import arguments, evaluate
from experiments.stamp import Stamp, write_result

CANDIDATES = {  # game: (its default study's run, the reference it is measured by)
    "reversed_reversi": ("experiments/runs/reversed_reversi", "wpc_negated"),
    "othello": ("experiments/runs/othello", "wpc"),
}


def candidates(reference: str) -> list[str]:
    return [reference, "course", "greedy", f"{reference}@d+2", "course@d+2", f"{reference}@d+1"]


def panel_matches(game: str, args) -> tuple[list[str], dict]:
    run, reference = CANDIDATES[game]
    done = evaluate([f"{run}/champions/gen_0000.json", "--vs", *candidates(reference), "--games",
                     args.games, "--depth", "4", "--endgame-empties", "10", "--backend",
                     "serial", "--seed", args.seed, "--no-progress"])
    return [f"## {game}", "", f"`{done.command}`", "", "```", done.output.rstrip(), "```", ""], {
        "command": done.command, "matches": done.data["matches"],
        "default_panel": list(get_game(game).default_panel)}


def main(argv: list[str] | None = None) -> int:
    p = arguments(__doc__)
    p.add_argument("--games", type=int, default=40, help="per opponent")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    lines, data = [], {}
    for game in CANDIDATES:
        text, data[game] = panel_matches(game, args)
        lines += text
    lines += ["The default panels (`Game.default_panel`, `engine/reversi/game.py`): " + "; ".join(
        f"{game} `{', '.join(d['default_panel'])}`" for game, d in data.items()) + ". The "
        "reference and the same weights one and two plies deeper are not saturated at "
        "generation 0; `course` stays as the familiar course baseline; `greedy` and `random` are "
        "left out (name them in `yardstick.panel` to keep them)."]
    write_result(args.out, "# Choosing the yardstick panels (issue 14)", lines, stamp, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
