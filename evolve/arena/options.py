"""The command line of ``python -m evolve.evaluate``: its options and their checks.

Every check runs before any game is played and raises ``ValueError`` naming the option.
"""

from __future__ import annotations

import argparse
import json
import math
import os
from pathlib import Path

from engine.core.commands.version import add_version_flag

DESCRIPTION = ("Play colour-swapped pairs of games between champions and agents and report "
               "each match's score and Elo with 95% intervals.")
EPILOG = ("Search: a champion plays the search it records (its file's metadata.search, else its "
          "study's config, else depth 4 with an exact endgame from 8 empties); a fixed agent "
          "that searches plays the first champion's search; --depth, --time, --clock and "
          "--endgame-empties set that field for every player. Each player's search is printed "
          "before the games, and a match whose sides search differently is flagged.")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m evolve.evaluate", description=DESCRIPTION,
                                epilog=EPILOG)
    p.add_argument("weights", nargs="?",
                   help="the player: a champion file, a run directory (its champion.json) or "
                   "an agent spec")
    p.add_argument("--vs", nargs="+", default=[], metavar="OPP",
                   help="opponents: agent specs (python -m engine.games lists them), champion "
                   "files or run directories")
    p.add_argument("--games", type=int, default=200,
                   help="games per opponent (default 200; whole colour-swapped pairs: an odd "
                   "number rounds up)")
    search = p.add_mutually_exclusive_group()
    search.add_argument("--depth", type=int, default=None,
                        help="search depth of every player that searches (default: each "
                        "champion's recorded depth; without a champion 4)")
    search.add_argument("--time", type=float, default=None,
                        help="seconds per move for every player instead of a depth")
    search.add_argument("--clock", default=None, metavar="BASE[+INC]",
                        help="a game clock per player instead of a depth, e.g. 60+1: 60 s for "
                        "the game, 1 s more after each move (timed agents only; time is "
                        "shared over the moves left, more at mid-game)")
    p.add_argument("--endgame-empties", type=int, default=None, metavar="N",
                   help="search exactly from this many moves before the end, every player "
                   "that searches (default: each champion's record; without a champion 8)")
    p.add_argument("--equal", action="store_true",
                   help="every player that searches, champions included, plays the first "
                   "champion's search (with the flags above over it)")
    p.add_argument("--epsilon", type=float, default=0.0,
                   help="both sides play a random legal move with this probability (default 0)")
    p.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                   help="a sequential test per match: stop as soon as Elo <= ELO0 (H0) or "
                   "Elo >= ELO1 (H1) is accepted, e.g. --sprt 0 50")
    p.add_argument("--sprt-full", action="store_true",
                   help="play all --games games and report when the SPRT would have stopped")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="the SPRT's false-positive rate (default 0.05)")
    p.add_argument("--beta", type=float, default=0.05,
                   help="the SPRT's false-negative rate (default 0.05)")
    p.add_argument("--round-robin", nargs="+", default=None, metavar="PLAYER",
                   help="every player against every other (with WEIGHTS, if given), ranked by "
                   "a Bradley-Terry Elo")
    p.add_argument("--game", default=None,
                   help="game name (python -m engine.games; default: the champion files' game)")
    p.add_argument("--game-settings", default=None, metavar="JSON",
                   help="the game's settings as a JSON object, e.g. '{\"size\": 2}'")
    from engine.core.registry import selectors

    for option, values in selectors().items():  # games' own selectors (--variant ...)
        p.add_argument("--" + option.replace("_", "-"), dest=f"select_{option}", default=None,
                       choices=list(values), help="picks the game: "
                       + ", ".join(f"{v} = --game {g}" for v, g in values.items()))
    p.add_argument("--json", default=None, metavar="OUT", help="also write the results as JSON")
    p.add_argument("--backend", choices=("serial", "ray"), default="ray",
                   help="ray (default: a local Ray, like training) or serial (in-process)")
    p.add_argument("--workers", type=int, default=None,
                   help="Ray actors (default: one per CPU of the local Ray or the cluster)")
    p.add_argument("--ray-address", default=None,
                   help="join a Ray cluster: auto, host:port or ray://host:port (like ray.address)")
    p.add_argument("--runtime-env", default=None, metavar="JSON|FILE",
                   help="Ray's runtime_env for the workers (like ray.runtime_env), a JSON object "
                   "or a YAML file, e.g. '{\"py_modules\": [\"engine\", \"evolve\"]}'")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the openings and the agents' randomness (default 0)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar with ETA on stderr (default: only on a terminal)")
    add_version_flag(p)
    return p.parse_args(argv)


def check_args(args) -> None:
    """Raise ``ValueError`` naming the bad option (before any game is played)."""
    for name, value, minimum in (("games", args.games, 1), ("depth", args.depth, 1),
                                 ("workers", args.workers, 1), ("seed", args.seed, 0),
                                 ("endgame-empties", args.endgame_empties, 0)):
        if value is not None and value < minimum:
            raise ValueError(f"--{name} must be >= {minimum}, got {value}")
    if args.time is not None and not (math.isfinite(args.time) and args.time > 0):
        raise ValueError(f"--time must be > 0 seconds, got {args.time}")
    if args.clock is not None:
        from engine.core.matches.clock import TimeControl

        try:
            TimeControl.parse(args.clock)
        except ValueError as err:
            raise ValueError(f"--clock: {err}") from None
    if not 0.0 <= args.epsilon <= 1.0:
        raise ValueError(f"--epsilon must be in [0, 1], got {args.epsilon}")
    if args.sprt_full and not args.sprt:
        raise ValueError("--sprt-full needs --sprt ELO0 ELO1")
    for name in ("alpha", "beta"):
        if not 0.0 < getattr(args, name) < 1.0:
            raise ValueError(f"--{name} must be in (0, 1), got {getattr(args, name)}")
    if args.sprt and not args.sprt[0] < args.sprt[1]:
        raise ValueError(f"--sprt needs ELO0 < ELO1, got {args.sprt[0]:g} {args.sprt[1]:g}")
    if args.round_robin is None and (not args.weights or not args.vs):
        raise ValueError("give WEIGHTS and --vs OPPONENT..., or --round-robin PLAYER...")
    if args.round_robin is not None and len(args.round_robin) + bool(args.weights) < 2:
        raise ValueError("--round-robin needs at least two players")
    if args.json:
        check_writable(Path(args.json))
    from evolve.execution.runtime_env import from_option

    args.runtime_env = from_option(args.runtime_env)


def check_writable(path: Path) -> None:
    """Fail now, not after hours of games, if ``--json`` cannot be written."""
    if path.is_dir():
        raise ValueError(f"--json {path} is a directory, not a file")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise ValueError(f"--json {path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"--json {path}: not writable")


def game_settings(text: str | None, game: str) -> dict:
    """``--game-settings '{"size": 2}'``: validated by the game (one line naming the key)."""
    if text is None:
        return {}
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--game-settings is not valid JSON ({exc.msg})") from None
    if not isinstance(settings, dict):
        raise ValueError("--game-settings must be a JSON object, e.g. '{\"size\": 2}'")
    from engine.core.registry import get_game

    get_game(game, settings)  # GameSettingsError (a ValueError) names the bad key
    return settings


def requested_game(args) -> str | None:
    from engine.core.registry import select_game

    chosen = {k[len("select_"):]: v for k, v in vars(args).items() if k.startswith("select_")}
    return select_game(args.game, chosen)
