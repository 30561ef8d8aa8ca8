"""Build a labelled-position dataset: positions from varied play, deduplicated under the
board's symmetries, labelled by the exact solver near the end and by a depth-D search with the
champion's evaluation before it (any game with the ``labels`` capability; docs/learning.md).

    python -m evolve.label --game othello \\
        --champion experiments/results/champions/othello_ntuple.json --positions 100000 \\
        --exact-empties 14 --depth 4 --seed 1 --out data/othello-labels

Batches of ``--batch-positions`` positions are sampled (``--openings MIN:MAX`` seeded random
plies, then the champion at ``--sample-depth`` plies with ``--epsilon`` random moves) and
labelled on the execution layer (``--backend serial`` or ``ray``, ``--workers``,
``--ray-address``); each finished batch is written in order into ``--out``
(``evolve.labels.dataset``: ``dataset.json`` + ``batch-NNNNN.npz``). The same options give the
same dataset bits on any backend and any number of workers; ``--resume`` continues a stopped
run (kill -9 too) to those same bits. A log line per batch: positions/s and ETA.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from engine.core.capabilities import LABELS, has
from engine.core.champions.files import load_champion
from engine.core.commands.helptext import summary
from engine.core.registry import game_names, get_game
from evolve.errors import first_line, log_to_stderr
from evolve.labels.builder import LabelSettings, build, file_sha256, git_commit


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def plies(text: str) -> tuple[int, int]:
    try:
        low, high = (int(x) for x in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--openings {text!r}: expected MIN:MAX plies, e.g. "
                                         "4:12") from None
    if not 0 <= low <= high <= 60:
        raise argparse.ArgumentTypeError(f"--openings {text!r}: need 0 <= MIN <= MAX <= 60")
    return low, high


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = OneLineParser(prog="python -m evolve.label", description=summary(__doc__))
    p.add_argument("--game", required=True, help=f"one of: {', '.join(game_names())}")
    p.add_argument("--champion", default=None, metavar="FILE",
                   help="the champion whose evaluation plays and searches (default: the "
                        "game's reference evaluation)")
    p.add_argument("--positions", type=int, required=True, metavar="N",
                   help="distinct positions (under the symmetries) in the dataset")
    p.add_argument("--batch-positions", type=int, default=10_000, metavar="B",
                   help="positions sampled per batch (default 10000)")
    p.add_argument("--exact-empties", type=int, default=14, metavar="E",
                   help="solve exactly at <= E empty squares (default 14)")
    p.add_argument("--depth", type=int, default=4, metavar="D",
                   help="search depth of the other labels (default 4)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--openings", type=plies, default=(4, 12), metavar="MIN:MAX",
                   help="random plies that open each sampled game (default 4:12)")
    p.add_argument("--epsilon", type=float, default=0.1,
                   help="random-move probability after the opening (default 0.1)")
    p.add_argument("--sample-depth", type=int, default=2,
                   help="the sampling players' search depth (default 2)")
    p.add_argument("--keep", type=float, default=1.0, metavar="P",
                   help="keep each position of a sampled game with probability P (default 1: "
                        "every position; less: fewer positions from one game)")
    p.add_argument("--out", type=Path, required=True, help="the dataset folder")
    p.add_argument("--resume", action="store_true",
                   help="continue the dataset in --out (the same options)")
    p.add_argument("--backend", choices=("serial", "ray"), default="serial")
    p.add_argument("--workers", type=int, default=None,
                   help="Ray actors (default: one per CPU of the Ray cluster)")
    p.add_argument("--ray-address", default=None,
                   help="join a Ray cluster (auto or ray://host:port; default: a local Ray)")
    p.add_argument("--runtime-env", default=None, metavar="JSON|FILE",
                   help="with --backend ray: Ray's runtime_env for the workers")
    return p.parse_args(argv)


def settings_of(args, game) -> LabelSettings:
    """The run's settings; ``ValueError`` naming a bad option."""
    for option, value, low in (("--positions", args.positions, 1),
                               ("--batch-positions", args.batch_positions, 1),
                               ("--depth", args.depth, 1), ("--exact-empties", args.exact_empties,
                                                            0), ("--seed", args.seed, 0)):
        if value < low:
            raise ValueError(f"{option} {value}: allowed >= {low}")
    if args.depth > 60:
        raise ValueError(f"--depth {args.depth}: allowed 1..60")
    if args.exact_empties > 30:
        raise ValueError(f"--exact-empties {args.exact_empties}: allowed 0..30 (beyond, an "
                         "exact solve takes hours)")
    if not 0.0 <= args.epsilon <= 1.0:
        raise ValueError(f"--epsilon {args.epsilon}: allowed 0 <= epsilon <= 1")
    if not 0.0 < args.keep <= 1.0:
        raise ValueError(f"--keep {args.keep}: allowed 0 < P <= 1")
    if not 1 <= args.sample_depth <= 10:
        raise ValueError(f"--sample-depth {args.sample_depth}: allowed 1..10")
    if args.workers is not None and args.workers < 1:
        raise ValueError(f"--workers {args.workers}: allowed >= 1")
    if args.backend == "serial" and (args.workers is not None or args.ray_address):
        raise ValueError("--workers and --ray-address need --backend ray")
    sampling = {"openings": list(args.openings), "epsilon": args.epsilon,
                "depth": args.sample_depth, "keep": args.keep}
    champion = file_sha256(args.champion) if args.champion else None
    return LabelSettings(game.name, champion, args.positions, args.batch_positions,
                         args.exact_empties, args.depth, args.seed, sampling)


def make_backend(args, game_name: str, champion, settings: LabelSettings):
    import functools

    from evolve.execution.backends import RayConfig
    from evolve.execution.backends import make_backend as backend_of
    from evolve.execution.runtime_env import from_option
    from evolve.labels.tasks import warm_up

    ray_cfg = RayConfig(address=args.ray_address,
                        num_cpus=None if args.ray_address else args.workers,
                        workers=args.workers, runtime_env=from_option(args.runtime_env) or {})
    warm = functools.partial(warm_up, game_name, champion, settings.sampling, settings.depth)
    return backend_of(args.backend, ray_cfg, warm_up=warm)


def run(args, argv: list[str]) -> dict:
    if args.game not in game_names():
        raise ValueError(f"--game {args.game!r}: allowed {', '.join(game_names())}")
    game = get_game(args.game)
    if not has(game, LABELS):
        raise ValueError(f"--game {args.game}: no labels capability (games that have it: "
                         f"{', '.join(n for n in game_names() if has(get_game(n), LABELS))})")
    if args.champion and not Path(args.champion).is_file():
        raise ValueError(f"--champion {args.champion}: no such file")
    champion = load_champion(args.champion) if args.champion else None
    if champion is not None and champion.game != game.name:
        raise ValueError(f"--champion {args.champion}: a {champion.game} champion (--game "
                         f"{game.name} labels with one of its own)")
    settings = settings_of(args, game)
    game.sample_positions(0, 0, champion, settings.sampling)  # the game checks its options
    header = {"command": shlex.join(["python", "-m", "evolve.label", *argv]),
              "commit": git_commit(),
              "evaluation": {"name": champion.label if champion else "reference",
                             "path": str(args.champion) if args.champion else None,
                             "sha256": settings.champion}}
    backend = make_backend(args, game.name, champion, settings)
    try:
        manifest = build(settings, champion, args.out, backend, args.resume, header)
    finally:
        backend.close()
    print(f"wrote {args.out}: {manifest['positions']:,} positions in "
          f"{len(manifest['batches'])} batches (search scale {manifest.get('search_scale')})")
    return manifest


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    log_to_stderr()
    try:
        run(args, argv)
    except (ValueError, OSError) as err:
        print(f"error: {first_line(err)}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
