"""Train a genome by TD self-play alone and save it as a champion file (any game whose genome
learns by temporal differences: ``game.genome.kind=ntuple``), e.g. to seed a study with it
(``game.seed_references=[network.json]``) or to compare with evolution.

    python -m evolve.td --game GAME --settings '{"genome": {"kind": "ntuple"}}' \
        --stage 1000000:0.07 --stage 300000:0.02 --stage 300000:0.005 --out network.json

Each ``--stage GAMES:ALPHA`` plays GAMES games of epsilon-greedy self-play at learning rate
ALPHA (the share of the TD error a step moves a value by, docs/patterns.md); a falling rate
settles the weights. Reproducible from ``--seed`` whatever the machine; a progress bar on a
terminal and a log line about every 30 s (games, games/s, TD error, ETA). ``--start``: ``zero``
weights, a seed reference of the game, or a champion file. ``--opponents SPEC ...`` (games that
support it): fixed players (agent specs: ``wpc1``, a reference, a champion file) that play
blocks of games against the network, which learns from those games too;
``--self-play-share`` of the blocks stay self-play (docs/patterns.md).

``--round-games G`` plays in rounds of G games on the execution layer (``--backend serial`` or
``ray``, ``--workers``, ``--ray-address``: a laptop or a cluster): each round is played by a
fixed network in tasks of ``--chunk-games`` games, then learnt from in game order; the network
is the same for any number of workers (``evolve.td_training``). ``--openings MIN:MAX``: every
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

from engine.core.records import STEP_RULES
from engine.core.registry import game_names, get_game
from evolve.errors import first_line
from evolve.td_training import (
    ONLINE_CHUNK,
    Schedule,
    save_snapshot,
    temporary_checkpoint,
    train,
)


def stage(text: str) -> tuple[int, float]:
    try:
        games, alpha = text.split(":")
        games, alpha = int(games), float(alpha)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--stage {text!r}: expected GAMES:ALPHA, e.g. "
                                         "1000000:0.07") from None
    if games < 1 or not 0.0 < alpha <= 1.0:
        raise argparse.ArgumentTypeError(f"--stage {text!r}: GAMES must be >= 1 and "
                                         "0 < ALPHA <= 1")
    return games, alpha


def plies(text: str) -> tuple[int, int]:
    try:
        low, high = (int(x) for x in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--openings {text!r}: expected MIN:MAX plies, e.g. "
                                         "4:8") from None
    if not 1 <= low <= high:
        raise argparse.ArgumentTypeError(f"--openings {text!r}: need 1 <= MIN <= MAX")
    return low, high


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m evolve.td", description=__doc__.split("\n")[0])
    p.add_argument("--game", required=True, help=f"one of: {', '.join(game_names())}")
    p.add_argument("--settings", default="{}", help="the game's settings as a JSON object")
    p.add_argument("--stage", type=stage, action="append", required=True,
                   help="GAMES:ALPHA, repeatable (in order)")
    p.add_argument("--epsilon", type=float, default=0.1, help="random-move probability")
    p.add_argument("--start", default="zero", help="zero | a seed reference | a champion file")
    p.add_argument("--opponents", nargs="+", default=[], metavar="SPEC",
                   help="fixed players some games are played against (e.g. wpc1 a.json)")
    p.add_argument("--self-play-share", type=float, default=0.5,
                   help="with --opponents: share of the games that stay self-play")
    p.add_argument("--step-rule", choices=STEP_RULES, default="nlms",
                   help="how each weight moves: nlms (all at the stage's rate, default) or tcl "
                        "(temporal coherence: each weight's rate shrinks as its changes "
                        "disagree)")
    p.add_argument("--phase-share", type=float, default=0.0, metavar="S",
                   help="genomes with phases: a step also moves the neighbouring phases' same "
                        "weights by S times it (0 <= S <= 1; default 0: phases apart)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--round-games", type=int, default=0, metavar="G",
                   help="play in rounds of G games with a fixed network, learnt from in game "
                        "order (any backend, the same network for any number of workers); "
                        "0: online TD in this process (default)")
    p.add_argument("--chunk-games", type=int, default=100, metavar="C",
                   help="with --round-games: games per task (a seed stream; default 100)")
    p.add_argument("--backend", choices=("serial", "ray"), default="serial",
                   help="with --round-games: where the games are played (default serial)")
    p.add_argument("--workers", type=int, default=None,
                   help="Ray actors (default: one per CPU of the Ray cluster)")
    p.add_argument("--ray-address", default=None,
                   help="join a Ray cluster (auto or ray://host:port; default: a local Ray)")
    p.add_argument("--openings", type=plies, default=None, metavar="MIN:MAX",
                   help="with --round-games: start every game after MIN..MAX seeded random "
                        "plies (default: the initial position)")
    p.add_argument("--checkpoint", type=Path, default=None,
                   help="checkpoint file (default OUT.checkpoint.npz)")
    p.add_argument("--checkpoint-seconds", type=float, default=60.0,
                   help="write the checkpoint about this often (and at the end)")
    p.add_argument("--resume", action="store_true",
                   help="continue from the checkpoint (exactly; it must have the same settings)")
    p.add_argument("--snapshot-every", type=int, default=0, metavar="GAMES",
                   help="also save the network each time another GAMES games are done, as "
                        "OUT's name + .gN.json (N: games done; for learning curves)")
    p.add_argument("--no-progress", action="store_true")
    return p.parse_args(argv)


def start_genome(game, start: str) -> np.ndarray:
    if start == "zero":
        return np.zeros(game.genome_spec().size)
    if start.endswith(".json"):
        champion = game.load_champion(start)
        genome = np.asarray(champion.genome, dtype=np.float64)
        if genome.shape != (game.genome_spec().size,):
            raise ValueError(f"--start {start}: {genome.size} genes, this genome has "
                             f"{game.genome_spec().size} (use the file's --settings)")
        return genome
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
    if not game.learns_by_td():
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
    rounds = ({"round_games": args.round_games, "chunk_games": args.chunk_games}
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


def checked_schedule(args, game) -> Schedule:
    """The run's ``Schedule``; ``ValueError`` naming a bad option."""
    if args.round_games < 0 or args.chunk_games < 1:
        raise ValueError("--round-games must be >= 0 and --chunk-games >= 1")
    if not args.round_games:
        for option, value in (("--backend ray", args.backend == "ray"),
                              ("--openings", args.openings)):
            if value:
                raise ValueError(f"{option} needs --round-games G (online TD runs in this "
                                 "process from the initial position)")
    elif not game.td_rounds():
        raise ValueError(f"--round-games: {game.name} learns online only (td_rounds is false)")
    step_games = args.round_games or ONLINE_CHUNK
    if args.snapshot_every < 0 or args.snapshot_every % step_games:
        raise ValueError(f"--snapshot-every {args.snapshot_every}: allowed a multiple of the "
                         f"games of a step ({step_games}: "
                         f"{'--round-games' if args.round_games else 'online TD'})")
    if not 0.0 <= args.phase_share <= 1.0:
        raise ValueError(f"--phase-share {args.phase_share}: allowed 0 <= S <= 1")
    if (args.step_rule != "nlms" or args.phase_share) and \
            args.step_rule not in (game.td_step_rules() or ()):
        supported = game.td_step_rules()
        raise ValueError(f"--step-rule {args.step_rule}"
                         f"{f' --phase-share {args.phase_share}' if args.phase_share else ''}: "
                         f"{game.name}'s TD takes "
                         f"{', '.join(supported) if supported else 'plain nlms only'}")
    if args.workers is not None and args.workers < 1:
        raise ValueError(f"--workers must be >= 1, got {args.workers}")
    if args.round_games and args.opponents:  # the workers load them: fail here, in one line
        game.td_play(np.zeros(game.genome_spec().size), 1, 0, 1.0,
                     opponents=tuple(args.opponents), self_play_share=args.self_play_share)
    if args.openings:
        try:  # every task draws distinct openings: say now if there are too few
            game.random_openings(args.chunk_games, 0, *args.openings)
        except ValueError as exc:
            raise ValueError(f"--openings {args.openings[0]}:{args.openings[1]}: {exc} (a task "
                             f"of --chunk-games {args.chunk_games} needs that many distinct "
                             "openings: more plies or smaller tasks)") from None
    return Schedule(game.name, json.dumps(game.settings(), sort_keys=True),
                    tuple(args.stage), args.seed, args.epsilon, args.round_games,
                    args.chunk_games, args.openings, tuple(args.opponents),
                    args.self_play_share, args.start, args.step_rule, args.phase_share)


def resumed_games(checkpoint: Path, schedule: Schedule) -> int:
    from evolve.td_training import read_checkpoint

    return read_checkpoint(checkpoint, schedule)[2].games if checkpoint.is_file() else 0


def round_backend(args, game):
    """The execution backend that plays the rounds, its workers warmed on ``td_play``."""
    from evolve.execution.backends import RayConfig, make_backend

    warm = functools.partial(warm_up, game.name, game.settings())
    ray_cfg = RayConfig(address=args.ray_address,
                        num_cpus=None if args.ray_address else args.workers,
                        workers=args.workers)
    return make_backend(args.backend, ray_cfg, warm_up=warm)


def warm_up(name: str, settings: dict) -> None:
    """Compile (or load) the kernels a round's worker runs."""
    game = get_game(name, settings)
    game.td_play(np.zeros(game.genome_spec().size), 1, 0, 0.1)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s",
                            datefmt="%H:%M:%S")
    try:
        run(args, argv)
    except (ValueError, OSError) as err:
        print(f"error: {first_line(err)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
