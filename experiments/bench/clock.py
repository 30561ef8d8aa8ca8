"""Play to the clock: how much of its time a timed alpha-beta uses, how deep
it gets, and what the anytime driver is worth against the deepening before it at equal time.

    python -m experiments.bench.clock [--games othello ...] [--limits 0.1 0.5]
        [--time-games 2] [--match-games 400] [--match-limit 0.1]
        [--out experiments/results/bench_clock.md]

For each game, its committed feature champion (``experiments/results/champions/<game>.json``)
with the exact endgame it was evolved with (``metadata.search``), every move under a per-move
``time_limit``:

- **time used**: ``--time-games`` whole self-play games from seeded openings per limit; per
  move with a choice the wall time / limit, the depth of the search (its last
  completed iteration, or the one the clock stopped: ``partial``) and how it ended: ``clock``
  (the time ran out), ``proven`` (a forced result or the last depth ended it early), ``exact``
  (the exact endgame solved it). The goal (mean >= 85%, none over 110%) is over the
  ``clock`` moves; every move with a choice is shown too.
- **strength at equal time**: the anytime driver against ``deepening = "predictive"`` (the
  driver before the anytime one: a depth predicted not to fit is not started, an aborted one thrown
  away), the same champion on both sides, ``--match-games`` games from seeded openings, colours
  swapped, at ``--match-limit`` seconds per move; the score with its 95% Wilson interval.
  Finished games are kept in ``--work`` (one JSON per game and limit), so an interrupted run
  goes on where it stopped.

Wall-clock measurements: run it on a quiet machine (the load is in the stamp). The first call
of each searcher (numba's cache) is made before anything is timed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from engine.core import SearchSettings, registry
from engine.core.commands.helptext import summary as help_summary
from experiments.stamp import ROOT, Stamp, write_result

GAMES = ("othello", "reversed_reversi", "pentago_twist", "hexifence")
CHAMPIONS = ROOT / "experiments" / "results" / "champions"
OPENING_PLIES = 4


def champion(game: str) -> tuple[str, SearchSettings]:
    path = CHAMPIONS / f"{game}.json"
    search = json.loads(path.read_text()).get("metadata", {}).get("search", {})
    return str(path), SearchSettings(depth=int(search.get("depth", 2)),
                                     endgame_empties=int(search.get("endgame_empties", 0)))


def timed_agent(game, spec: str, search: SearchSettings, limit: float, deepening: str):
    agent = game.make_panel_agent(spec, SearchSettings(search.depth, search.endgame_empties,
                                                       limit))
    agent.searcher.deepening = deepening
    return agent


def watch(agent) -> list:
    """The result of every search and exact solve the agent's searcher makes, appended as it
    goes (a solve called from a search comes before it)."""
    seen: list = []
    for name in ("search", "solve"):
        method = getattr(agent.searcher, name, None)
        if method is not None:
            setattr(agent.searcher, name, spied(method, seen))
    return seen


def spied(method, seen: list):
    def spy(*args, **kwargs):
        result = method(*args, **kwargs)
        seen.append(result)
        return result
    return spy


def ended(result, limit: float, seconds: float) -> str:
    if getattr(result, "exact", False) and not getattr(result, "partial", False):
        return "exact"
    return "clock" if seconds >= 0.5 * limit or getattr(result, "partial", False) else "proven"


def time_used(game_name: str, limit: float, games: int, seed: int) -> list[dict]:
    """Whole self-play games of the champion from seeded openings, both sides anytime (one
    searcher: its table carries over as in a real game); every move with a choice timed."""
    game = registry.get_game(game_name)
    spec, search = champion(game_name)
    warm_up(game, spec, search)
    rows: list[dict] = []
    for opening in game.random_openings(games, seed, OPENING_PLIES, OPENING_PLIES):
        agent = timed_agent(game, spec, search, limit, "anytime")
        seen = watch(agent)
        state = game.initial_state()
        for move in opening:
            state = game.apply(state, move)
        while not game.is_terminal(state):
            legal = game.legal_moves(state)
            if len(legal) > 1:
                del seen[:]
                t0 = time.perf_counter()
                move = agent.select_move(state)
                seconds = time.perf_counter() - t0
                result = seen[-1] if seen else None
                rows.append({"share": seconds / limit, "depth": getattr(result, "depth", 0),
                             "partial": bool(getattr(result, "partial", False)),
                             "ended": ended(result, limit, seconds)})
            else:
                move = legal[0]
            state = game.apply(state, move)
    return rows


def warm_up(game, spec: str, search: SearchSettings) -> None:
    """One untimed game at 0.01 s a move: every kernel the timed games call (the midgame
    search, the exact endgame) is loaded from numba's cache before anything is timed."""
    agent = timed_agent(game, spec, search, 0.01, "anytime")
    state = game.initial_state()
    while not game.is_terminal(state):
        state = game.apply(state, agent.select_move(state))


def summary(rows: list[dict]) -> dict:
    def stats(rs):
        shares = [r["share"] for r in rs]
        return {"moves": len(rs), "mean": float(np.mean(shares)) if rs else None,
                "max": float(np.max(shares)) if rs else None,
                "over_110": sum(s > 1.10 for s in shares)}

    clock = [r for r in rows if r["ended"] == "clock"]
    return {"all": stats(rows), "clock": stats(clock),
            "depth_mean": float(np.mean([r["depth"] for r in rows])) if rows else None,
            "depth_max": max((r["depth"] for r in rows), default=0),
            "partial": sum(r["partial"] for r in rows),
            "proven": sum(r["ended"] == "proven" for r in rows),
            "exact": sum(r["ended"] == "exact" for r in rows)}


def match(game_name: str, limit: float, games: int, seed: int, work: Path) -> dict:
    """The anytime driver against the predictive one, colours swapped per opening; each
    finished game is saved (resumable)."""
    game = registry.get_game(game_name)
    spec, search = champion(game_name)
    folder = work / game_name / f"match_{limit:g}s_seed{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    openings = game.random_openings((games + 1) // 2, seed, OPENING_PLIES, OPENING_PLIES)
    points = 0.0
    for g in range(games):
        done = folder / f"game{g:04d}.json"
        if not done.is_file():
            new_first = g % 2 == 0
            new = timed_agent(game, spec, search, limit, "anytime")
            old = timed_agent(game, spec, search, limit, "predictive")
            first, second = (new, old) if new_first else (old, new)
            outcome = game.play(first, second, openings[g // 2], seed=g)
            winner = outcome.winner if outcome.winner in (0, 1) else None
            score = 0.5 if winner is None else float((winner == 0) == new_first)
            done.write_text(json.dumps({"opening": list(openings[g // 2]),
                                        "new_first": new_first, "score": score}))
            print(f"{game_name} {limit:g}s game {g + 1}/{games}: anytime {score:g}",
                  flush=True)
        points += json.loads(done.read_text())["score"]
    from evolve.arena.intervals import wilson_interval

    low, high = wilson_interval(points / games, games)
    return {"games": games, "score": points / games, "ci95": [low, high]}


def pct(x) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def report(data: dict, limits: list[float], match_limit: float) -> list[str]:
    lines = ["Time used per move with a choice, as a share of the limit (the champion in "
             "self-play, both sides anytime); `clock` moves: those the clock ended (not an "
             "exact endgame, not a forced result found early). Goal: mean >= 85%, none over "
             "110%.", "",
             "| game | limit | moves | mean | max | clock moves | clock mean | clock max | "
             "over 110% | depth mean / max | partial | proven | exact |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for game, entry in data["games"].items():
        for limit in limits:
            s = entry["time"].get(f"{limit:g}")
            if s is None:
                continue
            a, c = s["all"], s["clock"]
            lines.append(f"| {game} | {limit:g} s | {a['moves']} | {pct(a['mean'])} | "
                         f"{pct(a['max'])} | {c['moves']} | {pct(c['mean'])} | "
                         f"{pct(c['max'])} | {a['over_110']} | {s['depth_mean']:.1f} / "
                         f"{s['depth_max']} | {s['partial']} | {s['proven']} | {s['exact']} |")
    lines += ["", *time_goals(data, limits)]
    rows = [(g, e["match"]) for g, e in data["games"].items() if e.get("match")]
    if rows:
        lines += ["", f"The anytime driver against the one before it (`deepening = "
                  f"\"predictive\"`), the same champion, {match_limit:g} s per move, seeded "
                  "openings with colours swapped. Goal: >= 60%.", "",
                  "| game | games | anytime's score | 95% interval |", "|---|---:|---:|---|"]
        for game, m in rows:
            lines.append(f"| {game} | {m['games']} | {pct(m['score'])} | "
                         f"[{100 * m['ci95'][0]:.1f}, {100 * m['ci95'][1]:.1f}] |")
        lines += ["", *match_goals(rows)]
    return lines


def time_goals(data: dict, limits: list[float]) -> list[str]:
    """Whether each game and limit meets the time goal on its ``clock`` moves, and by how much
    it misses it otherwise."""
    out = []
    for game, entry in data["games"].items():
        for limit in limits:
            s = entry["time"].get(f"{limit:g}")
            if s is None or not s["clock"]["moves"]:
                continue
            c = s["clock"]
            over = c["over_110"]
            misses = []
            if c["mean"] < 0.85:
                misses.append(f"mean {pct(c['mean'])} < 85%")
            if c["max"] > 1.10:
                misses.append(f"max {pct(c['max'])} > 110% ({over} move(s))")
            out.append(f"- {game} at {limit:g} s: " + ("met (clock moves: mean "
                       f"{pct(c['mean'])}, max {pct(c['max'])})" if not misses else
                       "missed: " + "; ".join(misses)) + f"; every move with a choice: mean "
                       f"{pct(s['all']['mean'])} ({s['exact']} solved exactly, {s['proven']} "
                       "proven early: nothing left to search)")
    return ["Time goal on the clock moves:", "", *out] if out else []


def match_goals(rows) -> list[str]:
    out = ["Strength goal (>= 60%):", ""]
    for game, m in rows:
        verdict = "met" if m["score"] >= 0.60 else \
            f"missed by {100 * (0.60 - m['score']):.1f} points"
        sure = "above 50% with 95% confidence" if m["ci95"][0] > 0.5 else "not surely above 50%"
        out.append(f"- {game}: {pct(m['score'])}, {verdict}; {sure}")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.bench.clock",
                                description=help_summary(__doc__))
    p.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    p.add_argument("--limits", type=float, nargs="+", default=[0.1, 0.5],
                   help="seconds per move for the time-used table (default: 0.1 0.5)")
    p.add_argument("--time-games", type=int, default=2,
                   help="whole self-play games timed per game and limit (default: 2)")
    p.add_argument("--match-games", type=int, default=400,
                   help="games of the anytime driver against the predictive one (0: none)")
    p.add_argument("--match-limit", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--work", type=Path, default=Path("outputs/bench_clock"),
                   help="finished match games (keep it to resume)")
    p.add_argument("--out", type=Path, help="Markdown result (and .json beside it)")
    args = p.parse_args(argv)
    stamp = Stamp.begin()
    data: dict = {"limits": args.limits, "match_limit": args.match_limit, "games": {}}
    for name in args.games:
        entry = {"time": {f"{limit:g}": summary(time_used(name, limit, args.time_games, args.seed))
                          for limit in args.limits}}
        if args.match_games:
            entry["match"] = match(name, args.match_limit, args.match_games, args.seed,
                                   args.work)
        data["games"][name] = entry
    write_result(args.out, "Play to the clock: time used and the anytime driver",
                 report(data, args.limits, args.match_limit), stamp.finish(), data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
