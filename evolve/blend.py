"""Average champion networks into one (``python -m evolve.blend``): an ensemble at the cost of
one network.

    python -m evolve.blend A.json B.json [--weights 1 1] --out C.json \\
        [--game othello --settings '{"genome": {"kind": "ntuple", ...}}']

Every file is re-expressed as a genome of the target settings (``Game.projected_genome``: in
Reversi a network whose tuples the target layout holds, or a square table), then the genomes
are averaged with ``--weights`` (normalised to sum 1; default: equal). An n-tuple network's
value is linear in its weights, so the blend scores every position as the weighted mean of
the files' scores, and its 1-ply moves are the ensemble's. Networks that learnt differently
err differently: in Othello, the mean of the 4+2x2 and the 2x2-square networks in 4 phases
scores 65% head to head against today's network, where they score 65% and 55% alone
(experiments/notes/tuning.md, "Strength at scale"). The game and settings default to the
first file's. The output's metadata name every file, its SHA-256 and its weight.
"""

from __future__ import annotations

import argparse
import hashlib
import shlex
import sys
from pathlib import Path

import numpy as np

from engine.core.champions.files import champion_game
from engine.core.commands.helptext import summary
from engine.core.commands.version import add_version_flag
from engine.core.registry import game_names, get_game
from evolve.errors import first_line


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m evolve.blend",
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                description=summary(__doc__),
                                epilog=__doc__.split("\n\n", 1)[1].replace("``", "`"))
    p.add_argument("files", nargs="+", type=Path, help="champion files (two or more)")
    p.add_argument("--weights", nargs="+", type=float, default=None,
                   help="one weight per file, >= 0 (normalised to sum 1; default: equal)")
    p.add_argument("--game", default=None,
                   help=f"one of: {', '.join(game_names())} (default: the first file's)")
    p.add_argument("--settings", default=None,
                   help="the blend's game settings as JSON (default: the first file's)")
    p.add_argument("--out", type=Path, required=True)
    add_version_flag(p)
    return p.parse_args(argv)


def blend(args: argparse.Namespace, argv: list[str]) -> Path:
    import json

    if len(args.files) < 2:
        raise ValueError("give two or more files to blend")
    weights = np.ones(len(args.files)) if args.weights is None else np.array(args.weights)
    if weights.shape != (len(args.files),):
        raise ValueError(f"--weights: {weights.size} given, one per file needed "
                         f"({len(args.files)})")
    if not (np.all(np.isfinite(weights)) and np.all(weights >= 0) and weights.sum() > 0):
        raise ValueError("--weights: allowed finite numbers >= 0, not all 0")
    weights = weights / weights.sum()
    name = args.game or champion_game(args.files[0])
    if name not in game_names():
        raise ValueError(f"--game {name!r}: allowed {', '.join(game_names())}")
    game = get_game(name)
    if args.settings is not None:
        try:
            settings = json.loads(args.settings)
        except json.JSONDecodeError as exc:
            raise ValueError(f"--settings is not JSON: {exc}") from None
    else:
        settings = game.load_champion(args.files[0]).settings
    game = get_game(name, settings)
    genome = np.zeros(game.genome_spec().size)
    for w, path in zip(weights, args.files, strict=True):
        genome += w * game.projected_genome(path)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    game.save_champion(args.out, genome, f"blend of {len(args.files)}", {
        "command": shlex.join(["python", "-m", "evolve.blend", *argv]),
        "blend": [{"file": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                   "weight": float(w)} for w, path in zip(weights, args.files, strict=True)]})
    return args.out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    try:
        out = blend(args, argv)
    except (ValueError, OSError) as err:
        print(f"error: {first_line(err)}", file=sys.stderr)
        return 1
    print(f"wrote {out}: the weighted mean of {len(args.files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
