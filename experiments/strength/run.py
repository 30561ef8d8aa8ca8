"""Measure strength goals (``experiments/strength/goals.py``): each goal's champion against its
opponents through ``python -m evolve.evaluate``, the target met or not, written to
``<results>/<goal>.md`` and ``.json`` with the stamp.

    python -m experiments.strength.run --list
    python -m experiments.strength.run --goal strength_hexifence
    python -m experiments.strength.run --all --results /tmp/strength

It only measures: the champions are files the catalogue's ``champion_*`` jobs export (or a TD
run wrote). Goals played at a time per move also say how long each side really thought, from a
few games through the game contract.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from engine.core.commands.helptext import summary
from experiments.common import ROOT, evaluate
from experiments.stamp import Stamp, write_json, write_markdown
from experiments.strength.goals import GOALS, Goal, Target, by_name

RESULTS = ROOT / "experiments" / "results"


def short(spec: str) -> str:
    """An opponent's short name: a spec, a champion file's stem, or a run's folder name."""
    if not spec.endswith(".json"):
        return spec
    path = Path(spec)
    return path.parent.name if path.name == "champion.json" else path.stem


def verdict(target: Target | None, m: dict) -> tuple[bool | None, str]:
    """Whether match ``m`` reaches ``target``, and the target said with how far off."""
    if target is None:
        return None, "none (for comparison)"
    score = m["score"]
    if target.kind == "score":
        met = score >= target.value
        return met, (f"score >= {target.value:.0%} vs `{target.opponent}` "
                     f"({abs(score - target.value):.1%} {'over' if met else 'short'})")
    if target.kind == "elo":
        met = m["elo"] is not None and m["elo"] >= target.value
        off = "" if m["elo"] is None else f" ({abs(m['elo'] - target.value):.0f} " \
            f"{'over' if met else 'short'})"
        return met, f">= {target.value:+.0f} Elo vs `{target.opponent}`{off}"
    return m["score_ci95"][0] > 0.5, f"beats `{target.opponent}`: the 95% interval above 50%"


def time_used(goal: Goal, games: int = 4) -> dict:
    """Mean and longest wall time per move of the champion and the first opponent over
    ``games`` games at the goal's time per move (both sides' kernels loaded first)."""
    from engine.core import SearchSettings, get_game
    from engine.core.matches import specs

    words = goal.search.split()
    search = SearchSettings(time_limit=float(words[words.index("--time") + 1]),
                            endgame_empties=int(words[words.index("--endgame-empties") + 1]))
    game, sides = get_game(goal.game), (goal.champion, goal.opponents[0])
    players = {spec: specs.resolve_player(game, spec) for spec in sides}  # files read once
    for spec in sides:
        specs.make_agent(game, players[spec], search, 0).select_move(game.initial_state())
    used: dict[str, list[float]] = {spec: [] for spec in sides}
    for i, opening in enumerate(game.random_openings(games, 99, 2, 2)):
        order = sides if i % 2 == 0 else sides[::-1]
        agents = [specs.make_agent(game, players[spec], search, i) for spec in order]
        state = game.initial_state()
        for move in opening:
            state = game.apply(state, move)
        while not game.is_terminal(state):
            side = game.to_move(state)
            start = time.perf_counter()
            move = agents[side].select_move(state)
            used[order[side]].append(time.perf_counter() - start)
            state = game.apply(state, move)
    return {short(spec): {"moves": len(t), "mean_seconds": sum(t) / len(t),
                          "max_seconds": max(t)} for spec, t in used.items() if t}


def measure(goal: Goal, results: Path, games: int | None = None) -> None:
    stamp = Stamp.begin()
    out = results / f"{goal.name}.json"
    done = evaluate([goal.champion, "--vs", *goal.opponents, "--game", goal.game,
                     *goal.search.split(), "--games", games or goal.games, "--seed", goal.seed,
                     "--backend", goal.backend, *goal.options, "--no-progress"], out, echo=True)
    first = done.data["matches"][0] if goal.target is None else next(
        m for m in done.data["matches"] if short(m["opponent"]) == goal.target.opponent)
    met, target = verdict(goal.target, first)
    data = {"goal": {"name": goal.name, "game": goal.game, "what": goal.what,
                     "champion": goal.champion, "target": target, "met": met,
                     "opponent": first["opponent"]}, **done.data}
    lines = [goal.what + ".", "", "```", done.command, "```", "", "```", done.output.rstrip(),
             "```", "", f"Goal: {target}: " + ("-" if met is None else
                                                 "**met**" if met else "**not met**") + "."]
    if "--time" in goal.search:
        data["time_per_move"] = time_used(goal)
        lines += ["", "Time really used per move (a few games, wall clock): " + "; ".join(
            f"{who} {t['mean_seconds']:.3f} s on average, {t['max_seconds']:.3f} s at most over "
            f"{t['moves']} moves" for who, t in data["time_per_move"].items()) + "."]
    write_json(out, data, stamp)
    write_markdown(out.with_suffix(".md"), f"# Strength: {goal.name}", lines, stamp)
    print("\n".join(lines[-1:]), flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.strength.run",
                                description=summary(__doc__))
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--goal", nargs="+", choices=list(by_name()), metavar="NAME")
    which.add_argument("--all", action="store_true", help="every goal of the table")
    which.add_argument("--list", action="store_true", help="show the goals and exit")
    p.add_argument("--games", type=int, default=None, help="instead of the goal's (a look)")
    p.add_argument("--results", type=Path, default=RESULTS, help="where results go")
    args = p.parse_args(argv)
    goals = GOALS if args.all or args.list else [by_name()[n] for n in args.goal]
    for goal in goals:
        if args.list:
            print(f"{goal.name}: {goal.what}\n    {goal.champion} vs {' '.join(goal.opponents)}"
                  f" {goal.search}, {goal.games} games")
            continue
        args.results.mkdir(parents=True, exist_ok=True)
        measure(goal, args.results, args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
