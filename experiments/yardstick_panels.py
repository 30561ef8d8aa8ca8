"""Choosing the yardstick panels (issue 14): a panel a generation-0 champion already beats 100%
of the time shows no progress. The generation-0 champions of the committed default studies
(depth 4, exact endgame from 10 empties) against candidate panel opponents; ``@d+K`` is the same
weights searching K plies deeper than the champion.

    python experiments/yardstick_panels.py --out experiments/results/yardstick_panels.md

Each match is ``--games`` games (colour-swapped pairs from seeded random openings, serial),
played by ``python -m evolve.evaluate``; its table and JSON are kept as they came.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.registry import get_game  # noqa: E402
from experiments.stamp import Stamp, write_json, write_markdown  # noqa: E402

CANDIDATES = {  # game: (its default study's run, the reference it is measured by)
    "reversed_reversi": ("experiments/runs/reversed_reversi", "wpc_negated"),
    "othello": ("experiments/runs/othello", "wpc"),
}


def candidates(reference: str) -> list[str]:
    return [reference, "course", "greedy", f"{reference}@d+2", "course@d+2", f"{reference}@d+1"]


def evaluate(game: str, args) -> tuple[list[str], dict]:
    run, reference = CANDIDATES[game]
    champion = f"{run}/champions/gen_0000.json"
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["python", "-m", "evolve.evaluate", champion, "--vs", *candidates(reference),
               "--games", str(args.games), "--depth", "4", "--endgame-empties", "10",
               "--backend", "serial", "--seed", str(args.seed), "--no-progress",
               "--json", f"{tmp}/{game}.json"]
        done = subprocess.run([sys.executable, *cmd[1:]], cwd=ROOT, capture_output=True,
                              text=True)
        if done.returncode != 0:
            sys.exit(f"evaluate failed: {' '.join(cmd[:-2])}\n{done.stderr.strip()[-2000:]}")
        data = json.loads(Path(f"{tmp}/{game}.json").read_text())
    shown = " ".join(cmd[:-2])  # the temporary --json path says nothing
    return [f"## {game}", "", f"`{shown}`", "", "```", done.stdout.rstrip(), "```", ""], {
        "command": shown, "matches": data["matches"],
        "default_panel": list(get_game(game).default_panel)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=40, help="per opponent")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, help="write the Markdown here (+ .json)")
    args = p.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    lines, data = [], {}
    for game in CANDIDATES:
        text, data[game] = evaluate(game, args)
        lines += text
    lines += ["The default panels (`Game.default_panel`, `engine/reversi/game.py`): " + "; ".join(
        f"{game} `{', '.join(d['default_panel'])}`" for game, d in data.items()) + ". The "
        "reference and the same weights one and two plies deeper are not saturated at "
        "generation 0; `course` stays as the familiar course baseline; `greedy` and `random` are "
        "left out (name them in `yardstick.panel` to keep them)."]
    print("\n".join(lines))
    if args.out:
        write_markdown(args.out, "# Choosing the yardstick panels (issue 14)", lines, stamp)
        write_json(args.out.with_suffix(".json"), data, stamp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
