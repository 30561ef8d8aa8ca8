"""The options of ``python -m evolve.td`` (its docstring is the help's): parsing, and the checks
that turn them into the run's ``Schedule`` (one line naming a bad option, before anything runs)."""

from __future__ import annotations

import argparse
import json
import textwrap
from pathlib import Path

import numpy as np

from engine.core.capabilities import TD, has
from engine.core.commands.helptext import summary
from engine.core.commands.version import add_version_flag
from engine.core.records import STEP_RULES
from engine.core.registry import game_names
from evolve.td_training import ONLINE_CHUNK, Schedule

CHUNK_GAMES = 100  # --chunk-games by default


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


HELP_EXAMPLE = """

example (online, one core; add --round-games 2000 --backend ray for Ray workers):
  python -m evolve.td --game GAME --settings '{"genome": {"kind": "ntuple"}}' \\
      --stage 1000000:0.07 --stage 1000000:0.02 --out network.json

docs/tuning.md ("TD alone") describes every option."""


def parse_args(argv: list[str], doc: str) -> argparse.Namespace:
    """The options; ``doc``: evolve.td's docstring, whose first paragraph opens the help."""
    p = argparse.ArgumentParser(
        prog="python -m evolve.td", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=textwrap.fill(summary(doc), 88) + HELP_EXAMPLE)
    p.add_argument("--game", required=True, help=f"one of: {', '.join(game_names())}")
    add_version_flag(p)
    p.add_argument("--settings", default="{}", help="the game's settings as a JSON object; a "
                   "genome that learns by TD, e.g. '{\"genome\": {\"kind\": \"ntuple\", "
                   "\"layout\": \"square2\"}}'")
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
    p.add_argument("--chunk-games", type=int, default=None, metavar="C",
                   help=f"with --round-games: games per task (a seed stream; default "
                        f"{CHUNK_GAMES})")
    p.add_argument("--learner", choices=("driver", "workers"), default="driver",
                   help="with --round-games: who learns from a round's games: the driver, game "
                        "by game (default), or each task's worker from its own games, the "
                        "network moving by the mean of their changes (synchronous parameter "
                        "averaging; for many workers: the driver's one core no longer caps the "
                        "games/s; docs/tuning.md)")
    p.add_argument("--backend", choices=("serial", "ray"), default="serial",
                   help="with --round-games: where the games are played (default serial)")
    p.add_argument("--workers", type=int, default=None,
                   help="Ray actors (default: one per CPU of the Ray cluster)")
    p.add_argument("--ray-address", default=None,
                   help="join a Ray cluster (auto or ray://host:port; default: a local Ray)")
    p.add_argument("--runtime-env", default=None, metavar="JSON|FILE",
                   help="with --backend ray: Ray's runtime_env for the workers (like "
                   "ray.runtime_env of python -m evolve), a JSON object or a YAML file")
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


def checked_schedule(args, game) -> Schedule:
    """The run's ``Schedule``; ``ValueError`` naming a bad option."""
    if args.round_games < 0 or args.chunk_games is not None and args.chunk_games < 1:
        raise ValueError("--round-games must be >= 0 and --chunk-games >= 1")
    if not args.round_games:  # options that would change nothing: say so, not ignore them
        for option, value in (("--backend ray", args.backend == "ray"),
                              ("--openings", args.openings),
                              ("--learner workers", args.learner == "workers"),
                              ("--chunk-games", args.chunk_games is not None),
                              ("--workers", args.workers is not None),
                              ("--ray-address", args.ray_address is not None),
                              ("--runtime-env", args.runtime_env is not None)):
            if value:
                raise ValueError(f"{option} needs --round-games G (online TD runs in this "
                                 "process from the initial position)")
    elif not has(game, TD) or not game.td_rounds():
        raise ValueError(f"--round-games: {game.name} learns online only (td_rounds is false)")
    from evolve.execution.runtime_env import from_option

    from_option(args.runtime_env)  # checked now, before any game
    step_games = args.round_games or ONLINE_CHUNK
    if args.snapshot_every < 0 or args.snapshot_every % step_games:
        raise ValueError(f"--snapshot-every {args.snapshot_every}: allowed a multiple of the "
                         f"games of a step ({step_games}: "
                         f"{'--round-games' if args.round_games else 'online TD'})")
    if not 0.0 <= args.phase_share <= 1.0:
        raise ValueError(f"--phase-share {args.phase_share}: allowed 0 <= S <= 1")
    supported = game.td_step_rules() if has(game, TD) else ()
    if (args.step_rule != "nlms" or args.phase_share) and args.step_rule not in (supported or ()):
        raise ValueError(f"--step-rule {args.step_rule}"
                         f"{f' --phase-share {args.phase_share}' if args.phase_share else ''}: "
                         f"{game.name}'s TD takes "
                         f"{', '.join(supported) if supported else 'plain nlms only'}")
    if args.learner == "workers" and args.step_rule != "nlms":
        raise ValueError(f"--learner workers --step-rule {args.step_rule}: the workers learn "
                         "with the plain nlms rule only (a rule with state needs one learner)")
    if args.chunk_games is None:
        args.chunk_games = CHUNK_GAMES  # what online checkpoints have always recorded
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
                    args.self_play_share, args.start, args.step_rule, args.phase_share,
                    args.learner)
