"""Train a genome by TD self-play alone and save it as a champion file (any game whose genome
learns by temporal differences: ``game.genome.kind=ntuple``), e.g. to seed a study with it
(``game.seed_references=[network.json]``) or to compare with evolution.

    python -m evolve.td --game GAME --settings '{"genome": {"kind": "ntuple"}}' \\
        --stage 1000000:0.07 --stage 300000:0.02 --stage 300000:0.005 --out network.json

Each ``--stage GAMES:ALPHA`` plays GAMES games of epsilon-greedy self-play at learning rate
ALPHA (the share of the TD error a step moves a value by, docs/patterns.md); a falling rate
settles the weights. Reproducible from ``--seed`` whatever the machine; a progress bar on a
terminal and a log line about every 30 s (games, games/s, TD error, ETA). ``--start``: ``zero``
weights, a seed reference of the game, or a champion file (in Reversi also a network of a
layout this one holds, or a square table: re-expressed with the values it had).
``--opponents SPEC ...`` (games that support it): fixed players (agent specs: ``wpc1``, a
reference, a champion file) that play blocks of games against the network, which learns from
those games too; ``--self-play-share`` of the blocks stay self-play (docs/patterns.md).

``--round-games G`` plays in rounds of G games on the execution layer (``--backend serial`` or
``ray``, ``--workers``, ``--ray-address``: a laptop or a cluster): each round is played by a
fixed network in tasks of ``--chunk-games`` games, then learnt from in game order; the network
is the same for any number of workers (``evolve.td_training``); ``--learner workers``: each
task's worker learns from its own games and the network moves by the mean of their changes
(synchronous parameter averaging, for many workers). ``--openings MIN:MAX``: every
game starts after MIN..MAX seeded random plies. A checkpoint (``--checkpoint``, default
``OUT.checkpoint.npz``) is written about every ``--checkpoint-seconds``; ``--resume`` continues
from it exactly (after a kill -9 too). ``--snapshot-every GAMES`` also saves the network after
every GAMES games (``OUT``'s name + ``.gN.json``), for learning curves. ``--step-rule tcl``
(temporal coherence: each weight's own rate) and ``--phase-share S`` (neighbouring phases learn
from each other's positions), where the game's TD takes them (``Game.td_step_rules``).
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from engine.core.capabilities import TD, has
from engine.core.registry import game_names, get_game
from evolve.errors import first_line, log_to_stderr
from evolve.td_checkpoint import save_snapshot, temporary_checkpoint
from evolve.td_options import checked_schedule, parse_args
from evolve.td_training import Schedule, train


def start_genome(game, start: str) -> np.ndarray:
    if start == "zero":
        return np.zeros(game.genome_spec().size)
    if start.endswith(".json"):  # a smaller network or a table: re-expressed with its values
        try:
            return game.projected_genome(start)
        except ValueError as exc:
            raise ValueError(f"--start {first_line(exc)}") from None
    if start not in game.reference_names():
        raise ValueError(f"--start {start!r}: allowed zero, a champion file, or one of "
                         f"{', '.join(game.reference_names())}")
    return np.asarray(game.reference_genome(start), dtype=np.float64)


def run(args: argparse.Namespace, argv: list[str]) -> Path:
    if args.game not in game_names():
        raise ValueError(f"--game {args.game!r}: allowed {', '.join(game_names())}")
    try:
        settings = json.loads(args.settings)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--settings is not JSON: {exc}") from None
    game = get_game(args.game, settings)
    if not has(game, TD) or not game.learns_by_td():
        raise ValueError(f"{args.game} with these settings does not learn by TD (an n-tuple "
                         "genome does: --settings '{\"genome\": {\"kind\": \"ntuple\"}}')")
    if not 0.0 <= args.epsilon <= 1.0:
        raise ValueError(f"--epsilon {args.epsilon}: allowed 0 <= epsilon <= 1")
    against = None
    if args.opponents:
        if not game.td_opponents():
            raise ValueError(f"--opponents: {args.game} learns by self-play only")
        if not 0.0 <= args.self_play_share <= 1.0:
            raise ValueError(f"--self-play-share {args.self_play_share}: allowed 0 <= share "
                             "<= 1")
        against = {"opponents": tuple(args.opponents),
                   "self_play_share": args.self_play_share}
    schedule = checked_schedule(args, game)
    genome = start_genome(game, args.start)
    began = time.monotonic()
    progress = not args.no_progress and sys.stderr.isatty()
    checkpoint = args.checkpoint or args.out.with_name(args.out.name + ".checkpoint.npz")
    resumed_at = resumed_games(checkpoint, schedule) if args.resume else 0  # checked first
    backend = round_backend(args, game) if args.round_games else None
    if checkpoint.exists() and not args.resume:
        logging.getLogger("evolve.td").warning(
            "%s exists: starting over (give --resume to continue it)", checkpoint)
    save = functools.partial(save_network, game, args, argv, against)
    snapshots = functools.partial(save_snapshot, save, args.out, args.snapshot_every) \
        if args.snapshot_every else None
    try:
        genome, done = train(game, genome, schedule, backend, checkpoint,
                             args.checkpoint_seconds, progress, args.resume, snapshots)
    finally:
        if backend is not None:
            backend.close()
    save(args.out, genome, done)
    for left in (checkpoint, temporary_checkpoint(checkpoint)):  # complete: nothing to resume
        left.unlink(missing_ok=True)
    seconds = time.monotonic() - began
    print(f"wrote {args.out}: {done.games:,} TD games ({done.games - resumed_at:,} in this "
          f"run's {seconds:.0f} s: {(done.games - resumed_at) / max(seconds, 1e-9):,.0f} "
          f"games/s; {done.cpu_seconds:.0f} CPU-s in the driver)")
    return args.out


def save_network(game, args, argv, against, path: Path, genome, done) -> None:
    """``genome`` as a champion file whose metadata say how it was made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    rounds = ({"round_games": args.round_games, "chunk_games": args.chunk_games,
               **({"learner": args.learner} if args.learner != "driver" else {})}
              if args.round_games else {})
    openings = {"openings": list(args.openings)} if args.openings else {}
    game.save_champion(path, genome, f"TD {done.games} games", {
        "command": shlex.join(["python", "-m", "evolve.td", *argv]),
        "td": {"stages": [{"games": g, "alpha": a} for g, a in args.stage],
               "epsilon": args.epsilon, "seed": args.seed, "start": args.start,
               **(against or {}), **rounds, **openings, **rule_settings(args),
               "games": done.games,
               "cpu_seconds": round(done.cpu_seconds, 3),
               **({"worker_cpu_seconds": round(done.worker_cpu_seconds, 3)}
                  if done.worker_cpu_seconds else {}),
               "wall_seconds": round(done.wall_seconds, 3)}})


def rule_settings(args) -> dict:
    """The step rule in a file's metadata, when not the default."""
    return {**({"step_rule": args.step_rule} if args.step_rule != "nlms" else {}),
            **({"phase_share": args.phase_share} if args.phase_share else {})}


def resumed_games(checkpoint: Path, schedule: Schedule) -> int:
    from evolve.td_checkpoint import read_checkpoint

    return read_checkpoint(checkpoint, schedule)[2].games if checkpoint.is_file() else 0


def round_backend(args, game):
    """The execution backend that plays the rounds, its workers warmed on ``td_play``."""
    from evolve.execution.backends import RayConfig, make_backend

    warm = functools.partial(warm_up, game.name, game.settings())
    from evolve.execution.runtime_env import from_option

    ray_cfg = RayConfig(address=args.ray_address,
                        num_cpus=None if args.ray_address else args.workers,
                        workers=args.workers, runtime_env=from_option(args.runtime_env) or {})
    return make_backend(args.backend, ray_cfg, warm_up=warm)


def warm_up(name: str, settings: dict) -> None:
    """Compile (or load) the kernels a round's worker runs."""
    game = get_game(name, settings)
    game.td_play(np.zeros(game.genome_spec().size), 1, 0, 0.1)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv, __doc__)
    log_to_stderr()
    try:
        run(args, argv)
    except (ValueError, OSError) as err:
        print(f"error: {first_line(err)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
