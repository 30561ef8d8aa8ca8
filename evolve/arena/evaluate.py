"""Strength evaluation: colour-swapped pairs from seeded openings, Elo with 95% CI, SPRT.

    python -m evolve.evaluate WEIGHTS --vs course greedy random --games 200 --depth 4
    python -m evolve.evaluate WEIGHTS --vs course --games 2000 --sprt 0 50
    python -m evolve.evaluate --round-robin A.json B.json course --games 100

Players are agent specs of the game (``python -m engine.games`` lists them; Reversi: ``random``,
``greedy``, ``wpc1``, ``course``, ``wpc``, ``wpc_negated``, ``mcts``, ``bfs``) or champion files (a
run directory means its ``champion.json``); the game comes from ``--game`` or the files. Game
``k`` of a match uses opening ``k // 2`` with the sides swapped on odd ``k``, and its agents'
seeds come from ``SeedSequence([seed, match, k])``: results do not depend on the backend or
the number of workers (with ``--depth``; ``--time`` makes searches depend on the machine's
speed). Games ``2j`` and ``2j + 1`` form a
pair; the SPRT and the pair CI count pairs (pentanomial), see ``evolve.arena.elo``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine.core.game import DRAW
from evolve.arena.elo import elo_estimate, fit_elo, pair_estimate, sprt
from evolve.arena.matches import EvalContext, EvalSettings, EvalTask
from evolve.arena.tables import format_elo_table, format_table
from evolve.errors import ConfigError
from evolve.execution.backends import RayConfig, make_backend
from evolve.execution.games import OPENINGS_STREAM

SPRT_BATCH_PAIRS = 8  # pairs played between two SPRT looks at the results (decision per pair)


@dataclass
class MatchResult:
    player: str
    opponent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    sprt: dict | None = None
    penta: list[int] = field(default_factory=lambda: [0] * 5)  # pairs by points: 0, 1/2, .., 2
    extra: dict = field(default_factory=dict)
    # the player's wins, draws, losses when it moved first / second
    by_side: dict = field(default_factory=lambda: {"first": [0, 0, 0], "second": [0, 0, 0]})

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, points: float, moved_first: bool) -> None:
        column = 0 if points == 1.0 else 1 if points == 0.5 else 2
        if column == 0:
            self.wins += 1
        elif column == 1:
            self.draws += 1
        else:
            self.losses += 1
        self.by_side["first" if moved_first else "second"][column] += 1

    def as_dict(self) -> dict:
        d = {"player": self.player, "opponent": self.opponent, "games": self.games,
             "wins": self.wins, "draws": self.draws, "losses": self.losses}
        if self.games:
            est = elo_estimate(self.wins, self.draws, self.losses).as_dict()
            d.update(score=est["score"], elo=_finite(est["elo"]),
                     elo_ci95=[_finite(x) for x in est["elo_ci95"]])
        if sum(self.penta):
            pairs = pair_estimate(self.penta).as_dict()
            d.update(pentanomial=list(self.penta),
                     elo_ci95_pairs=[_finite(x) for x in pairs["elo_ci95"]])
        d["by_side"] = {side: dict(zip(("wins", "draws", "losses"), wdl, strict=True))
                        for side, wdl in self.by_side.items()}
        if self.sprt is not None:
            d["sprt"] = self.sprt
        return d


def _finite(x: float) -> float | None:
    """JSON has no infinity: a 100% or 0% score's unbounded Elo is written as null."""
    return x if math.isfinite(x) else None


def openings(game, n_pairs: int, seed: int, min_plies: int = 4,
             max_plies: int = 8) -> list[tuple[int, ...]]:
    """The match openings: like the GA's ``tournament.openings_for`` but with no generation
    in the seed (so they are not a GA run's generation-0 openings for the same seed)."""
    ss = np.random.SeedSequence([seed, OPENINGS_STREAM])
    return [tuple(o) for o in game.random_openings(n_pairs, ss, min_plies, max_plies)]


def match_tasks(a: str, b: str, match: int, games: range, opening_list,
                seed: int) -> list[EvalTask]:
    """Games ``games`` of match ``match``: even k has ``a`` move first, odd k has ``b``."""
    tasks = []
    for k in games:
        first, second = (a, b) if k % 2 == 0 else (b, a)
        tasks.append(EvalTask(k, first, second, opening_list[k // 2], (seed, match, k)))
    return tasks


def points_for_a(task: EvalTask, winner: int) -> float:
    if winner == DRAW:
        return 0.5
    a_side = 0 if task.index % 2 == 0 else 1
    return 1.0 if winner == a_side else 0.0


class Match:
    """One pairing's running tally; ``record`` takes results in game order and says when the
    SPRT (looked at after every complete pair, on the pentanomial counts) has decided."""

    def __init__(self, a: str, b: str, sprt_elo=None, alpha=0.05, beta=0.05):
        self.result = MatchResult(a, b)
        self.sprt_elo, self.alpha, self.beta = sprt_elo, alpha, beta
        self.first_game_points = 0.0

    def record(self, task: EvalTask, winner: str) -> bool:
        r = self.result
        points = points_for_a(task, winner)
        r.add(points, moved_first=task.index % 2 == 0)
        if task.index % 2 == 0:
            self.first_game_points = points
            return self.decided
        r.penta[round(2 * (self.first_game_points + points))] += 1
        if self.sprt_elo is None or self.decided:
            return self.decided
        test = sprt(r.penta, *self.sprt_elo, self.alpha, self.beta)
        r.sprt = {"elo0": self.sprt_elo[0], "elo1": self.sprt_elo[1], "alpha": self.alpha,
                  "beta": self.beta, **test.as_dict(), "games": r.games}
        return self.decided

    @property
    def decided(self) -> bool:
        return self.result.sprt is not None and self.result.sprt["decision"] != "continue"

    def finish(self) -> MatchResult:
        r = self.result
        if self.sprt_elo is not None:
            r.sprt["llr_final"] = sprt(r.penta, *self.sprt_elo).llr
        return r


class Runner:
    """Evaluation games on the shared execution layer: ``runner(tasks) -> winners``."""

    def __init__(self, settings: EvalSettings, backend):
        self.context, self.backend = EvalContext(settings), backend
        self.game = self.context.game()

    def __call__(self, tasks: list[EvalTask]) -> list[int]:
        return self.backend.play(self.context, tasks)


def open_backend(name: str, workers: int | None, address: str | None, game: str,
                 game_settings: dict | None = None):
    """The backend training uses (``evolve.execution``): warm Ray actors, ``ray.address``."""
    import functools

    from evolve.execution.games import warm_up

    if workers is not None and workers < 1:  # ray.init(num_cpus=0) would wait forever
        raise ValueError(f"--workers must be >= 1, got {workers}")
    ray_cfg = RayConfig(address=address, num_cpus=None if address else workers,
                        workers=workers, chunks_per_worker=4)
    warm = functools.partial(warm_up, game, game_settings or {})
    return make_backend(name, ray_cfg, warm_up=warm)


def play_sequential(runner, match: Match, index: int, n_games: int, opening_list, seed: int):
    """SPRT with stopping: batches of pairs until the test decides; games of the last batch
    after the deciding pair are discarded, so the result does not depend on the batch size."""
    a, b = match.result.player, match.result.opponent
    batch = 2 * SPRT_BATCH_PAIRS
    for start in range(0, n_games, batch):
        games = range(start, min(n_games, start + batch))
        tasks = match_tasks(a, b, index, games, opening_list, seed)
        for task, winner in zip(tasks, runner(tasks), strict=True):
            if match.record(task, winner):
                return match.finish()
    return match.finish()


def play_all(runner, matches: list[Match], n_games: int, opening_list,
             seed: int) -> list[MatchResult]:
    """Every game of every match in one batch (keeps all workers busy); an SPRT, if any, is
    still evaluated pair by pair in game order and reports where it would have stopped."""
    tasks = []
    for index, match in enumerate(matches):  # the match index seeds its games
        r = match.result
        tasks.append(match_tasks(r.player, r.opponent, index, range(n_games), opening_list, seed))
    winners = iter(runner([t for ts in tasks for t in ts]))
    for match, ts in zip(matches, tasks, strict=True):
        for task in ts:
            match.record(task, next(winners))
    return [m.finish() for m in matches]


def evaluate(player: str, opponents: list[str], settings: EvalSettings, games: int, seed: int,
             runner, sprt_elo=None, alpha=0.05, beta=0.05, stop=True) -> list[MatchResult]:
    """``player`` against each opponent, ``games`` (rounded up to even) games each.

    With ``sprt_elo`` and ``stop`` each match ends as soon as the SPRT accepts H0 or H1;
    with ``stop=False`` all games are played and the SPRT's stopping point is reported.
    """
    games = games + games % 2
    opening_list = openings(runner.game, games // 2, seed)
    matches = [Match(player, opp, sprt_elo, alpha, beta) for opp in opponents]
    if sprt_elo is not None and stop:
        return [play_sequential(runner, m, i, games, opening_list, seed)
                for i, m in enumerate(matches)]
    return play_all(runner, matches, games, opening_list, seed)


def round_robin(players: list[str], settings: EvalSettings, games: int, seed: int, runner):
    """Every pair plays ``games`` games (same openings for all pairs); returns (matches, elo)."""
    games = games + games % 2
    opening_list = openings(runner.game, games // 2, seed)
    n = len(players)
    pairs = list(itertools.combinations(range(n), 2))
    matches = [Match(players[i], players[j]) for i, j in pairs]
    results = play_all(runner, matches, games, opening_list, seed)
    score, played = np.zeros((n, n)), np.zeros((n, n))
    for (i, j), res in zip(pairs, results, strict=True):
        score[i, j], score[j, i] = res.wins + res.draws / 2, res.losses + res.draws / 2
        played[i, j] = played[j, i] = res.games
    matches = results
    return matches, fit_elo(score, played), score, played


# --- command line -----------------------------------------------------------------------------


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m evolve.evaluate",
                                description="Play colour-swapped pairs and report Elo with 95% CI.")
    p.add_argument("weights", nargs="?", help="weights file or run directory (the player)")
    p.add_argument("--vs", nargs="+", default=[], metavar="OPP", help="opponent specs or files")
    p.add_argument("--games", type=int, default=200,
                   help="games per opponent (whole colour-swapped pairs: odd rounds up)")
    search = p.add_mutually_exclusive_group()
    search.add_argument("--depth", type=int, default=None, help="search depth (default 4)")
    search.add_argument("--time", type=float, default=None,
                        help="seconds per move instead of a depth")
    p.add_argument("--epsilon", type=float, default=0.0, help="random-move probability, both sides")
    p.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"))
    p.add_argument("--sprt-full", action="store_true",
                   help="play all --games games and report when the SPRT would have stopped")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.add_argument("--round-robin", nargs="+", default=None, metavar="PLAYER")
    p.add_argument("--game", default=None,
                   help="game name (python -m engine.games; default: the champion files' game)")
    p.add_argument("--game-settings", default=None, metavar="JSON",
                   help="the game's settings as a JSON object, e.g. '{\"size\": 2}'")
    from engine.core.registry import selectors

    for option, values in selectors().items():  # games' own selectors (--variant ...)
        p.add_argument("--" + option.replace("_", "-"), dest=f"select_{option}", default=None,
                       choices=list(values), help="picks the game: "
                       + ", ".join(f"{v} = --game {g}" for v, g in values.items()))
    p.add_argument("--endgame-empties", type=int, default=8)
    p.add_argument("--json", default=None, metavar="OUT", help="also write the results as JSON")
    p.add_argument("--backend", choices=("serial", "ray"), default="ray",
                   help="ray (default: a local Ray, like training) or serial (in-process)")
    p.add_argument("--workers", type=int, default=None,
                   help="Ray actors (default: one per CPU of the local Ray or the cluster)")
    p.add_argument("--ray-address", default=None,
                   help="join a Ray cluster: auto, host:port or ray://host:port (like ray.address)")
    p.add_argument("--seed", type=int, default=0)
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


def run(args, argv: list[str]) -> dict:
    from evolve.arena.matches import check_specs, choose_game, resolve_players

    check_args(args)
    if args.games % 2:
        print(f"note: --games {args.games} rounded up to {args.games + 1} (whole colour-swapped "
              "pairs)", file=sys.stderr)
    rr = args.round_robin
    first = [args.weights] if args.weights else []
    players = resolve_players(first + (rr if rr is not None else args.vs))
    game, warning = choose_game(requested_game(args), players)
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    depth = args.depth if args.depth is not None else (None if args.time else 4)
    settings = EvalSettings(game, depth, args.time, args.epsilon, args.endgame_empties,
                            game_settings(args.game_settings, game))
    check_specs(players, settings)
    out = {"command": " ".join(["python -m evolve.evaluate", *argv]),
           "settings": settings.as_dict(), "seed": args.seed, "games_per_match": args.games}
    backend = open_backend(args.backend, args.workers, args.ray_address, game,
                           settings.game_settings)
    try:
        runner = Runner(settings, backend)
        if rr is not None:
            matches, elo, score, played = round_robin(players, settings, args.games, args.seed,
                                                      runner)
            out["round_robin"] = {"players": players, "elo": elo.tolist(),
                                  "anchor": "mean 0", "score": score.tolist(),
                                  "games": played.tolist()}
            print(format_elo_table(players, elo, score, played))
        else:
            matches = evaluate(players[0], players[1:], settings, args.games, args.seed, runner,
                               tuple(args.sprt) if args.sprt else None, args.alpha, args.beta,
                               stop=not args.sprt_full)
    finally:
        backend.close()
    out["matches"] = [m.as_dict() for m in matches]
    print(format_table(matches))
    for m in matches:
        if m.sprt:
            verdict = {"H1": f"H1 accepted (Elo >= {m.sprt['elo1']:g} more likely)",
                       "H0": f"H0 accepted (Elo <= {m.sprt['elo0']:g} more likely)",
                       "continue": "no decision within the game limit"}[m.sprt["decision"]]
            print(f"SPRT vs {m.opponent}: {verdict} after {m.sprt['games']} games")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    try:
        run(args, argv)
    except (ValueError, OSError, ConfigError) as err:
        print(f"error: {str(err).splitlines()[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
