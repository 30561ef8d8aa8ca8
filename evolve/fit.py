"""Fit a game's n-tuple network to a labelled-position dataset and save it as a champion file.

    python -m evolve.fit DATASET --game othello \\
        --settings '{"genome": {"kind": "ntuple", "layout": "edax", "phases": 60}}' \\
        --out champion.npz [--l2 1] [--holdout 0.1] [--seed 0] [--iterations 100] [--limit N]

The dataset is a folder of the format of ``evolve.labels.dataset``. Regularised least squares,
one weight set per phase of the settings (``phases``, or ``phase_bounds`` in discs), solved by
conjugate gradients (docs/patterns.md, "Fitting a network to labelled positions"). The
network's value is the predicted final score in the labels' units (``--scale``: evaluation
units per unit). ``--out`` ``.json`` or ``.npz`` (the binary twin: a 60-phase Edax-like
network holds about 10 million weights); the report (per phase: positions, train and held-out
RMSE and MAE) is printed and written as ``OUT`` with ``.report.json``, and kept in the
champion's metadata with the dataset, its manifest's SHA-256 and the options. A log line per
CG pass with the time left. The same dataset, settings and options give the same bits.
"""

from __future__ import annotations

import argparse
import sys

from engine.core.commands.helptext import summary
from engine.core.commands.version import add_version_flag
from engine.core.registry import default_game
from evolve.errors import first_line, log_to_stderr
from evolve.labels.fitting_cli import run, table


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m evolve.fit", description=summary(__doc__))
    add_version_flag(parser)
    parser.add_argument("dataset", help="the dataset folder (dataset.json and its batches)")
    parser.add_argument("--game", default=None,
                        help=f"the game (default: the dataset's, else {default_game()})")
    parser.add_argument("--settings", default='{"genome": {"kind": "ntuple", "layout": "edax"}}',
                        help="the game settings as JSON (an ntuple genome; default: the edax "
                        "layout, 3 phases)")
    parser.add_argument("--out", required=True, help="the champion file (.json or .npz)")
    parser.add_argument("--l2", type=float, default=1.0, help="L2 penalty (default 1)")
    parser.add_argument("--holdout", type=float, default=0.1,
                        help="share of positions held out to measure the error (default 0.1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the held-out split")
    parser.add_argument("--iterations", type=int, default=100,
                        help="most conjugate-gradient passes over the data (default 100)")
    parser.add_argument("--tolerance", type=float, default=1e-4,
                        help="a phase stops at this relative residual (default 1e-4)")
    parser.add_argument("--min-count", type=int, default=0,
                        help="weights read fewer times in training stay 0 (default 0)")
    parser.add_argument("--exact-only", action="store_true", help="exact labels alone")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="evaluation units per label unit (default 1: discs)")
    parser.add_argument("--limit", type=int, default=None, help="the first N positions only")
    parser.add_argument("--name", default="", help="the champion's name")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    log_to_stderr()
    try:
        out, report = run(args, argv)
    except (ValueError, OSError) as err:
        print(f"error: {first_line(err)}", file=sys.stderr)
        return 2
    print(table(report))
    print(f"wrote {out} and {out.with_name(out.stem + '.report.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
