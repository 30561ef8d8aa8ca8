"""Strength of the Pentago Twist champion (issue 10), committed with the commands that made it.

    python -m experiments.strength_pentago --games 200 --time 0.5            # existing run
    python -m experiments.strength_pentago --train --games 200 --time 0.5    # study first
    python -m experiments.strength_pentago --champion \
        experiments/results/champions/pentago_twist_es.json --name pentago_twist_es \
        --vs mcts --games 400 --time 0.5 --goal 0.85               # a committed champion file

Steps: (1) with ``--train``, the default study ``python -m evolve +experiment=pentago_twist``
into ``experiments/runs/pentago_twist``; (2) its champion exported to
``experiments/results/champions/pentago_twist.json`` (skipped with ``--champion FILE``);
(3) ``python -m evolve.evaluate`` of the champion against random, greedy and MCTS (the seed's
UCT) at equal time per move, colour-swapped pairs from seeded random openings; (4) the time each
side really used per move, measured on a few games; (5) the first-player advantage of random vs
random over ``--random-games`` games (the numba kernel). Writes
``experiments/results/strength_<--name>.md`` and ``.json`` (default name ``pentago_twist``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from experiments.common import ROOT, evaluate, export, rel, train
from experiments.stamp import Stamp, write_json, write_markdown

RESULTS = ROOT / "experiments" / "results"
RUN_DIR = ROOT / "experiments" / "runs" / "pentago_twist"
CHAMPION = RESULTS / "champions" / "pentago_twist.json"
NAME = "pentago_twist"  # the report is strength_<NAME>.md / .json
GOAL_VS_MCTS = 0.70


def first_player_advantage(games: int, seed: int) -> dict:
    """Random vs random from the empty board; white's score with a 95% normal CI."""
    import numpy as np

    from engine.kernels.rng import new_state as new_rng_state
    from engine.pentago import bitboard as bb

    start = time.perf_counter()
    white, black, draws = (int(c) for c in bb.random_games(games, new_rng_state(
        np.random.default_rng(seed))))
    seconds = time.perf_counter() - start
    score = (white + 0.5 * draws) / games
    second_moment = (white + 0.25 * draws) / games
    half = 1.96 * math.sqrt(max(second_moment - score**2, 0.0) / games)
    return {"games": games, "seed": seed, "white_wins": white, "black_wins": black,
            "draws": draws, "white_score": score, "white_score_ci95": [score - half, score + half],
            "white_elo_advantage": elo(score), "seconds": seconds}


def elo(score: float) -> float | None:
    return None if score in (0.0, 1.0) else -400.0 * math.log10(1.0 / score - 1.0)


def time_per_move(champion: Path, seconds: float, endgame: int, games: int) -> dict:
    """Mean wall time per move of each side in a few champion-vs-MCTS games."""
    from engine.core import SearchSettings, get_game

    game = get_game("pentago_twist")
    search = SearchSettings(depth=2, endgame_empties=endgame, time_limit=seconds)
    used = {"champion": [], "mcts": []}
    for spec in (str(champion), "mcts"):  # compile / load the kernels outside the timing
        game.make_panel_agent(spec, search, 0).select_move(game.initial_state())
    for i, opening in enumerate(game.random_openings(games, 99, 2, 2)):
        players = {"champion": game.make_panel_agent(str(champion), search, i),
                   "mcts": game.make_panel_agent("mcts", search, i)}
        order = ("champion", "mcts") if i % 2 == 0 else ("mcts", "champion")
        state = game.initial_state()
        for move in opening:
            state = game.apply(state, move)
        while not game.is_terminal(state):
            who = order[game.to_move(state)]
            start = time.perf_counter()
            move = players[who].select_move(state)
            used[who].append(time.perf_counter() - start)
            state = game.apply(state, move)
    return {who: {"moves": len(t), "mean_seconds": sum(t) / len(t), "max_seconds": max(t)}
            for who, t in used.items() if t}


def table_lines(report: dict) -> list[str]:
    lines = ["| opponent | games | W | D | L | score | Elo | 95% CI (games) | 95% CI (pairs) | "
             "first: W/D/L | second: W/D/L |",
             "|---|---:|---:|---:|---:|---:|---:|---|---|---|---|"]
    for m in report["matches"]:
        def fmt(x):
            return "+inf" if x is None else f"{x:+.0f}"

        ci, cp = m["elo_ci95"], m["elo_ci95_pairs"]
        side = {k: "{wins}/{draws}/{losses}".format(**v) for k, v in m["by_side"].items()}
        elo_text = "+inf" if m["elo"] is None and m["score"] == 1 else \
            ("-inf" if m["elo"] is None else f"{m['elo']:+.0f}")
        lines.append(f"| {m['opponent']} | {m['games']} | {m['wins']} | {m['draws']} | "
                     f"{m['losses']} | {100 * m['score']:.1f}% | {elo_text} | "
                     f"[{fmt(ci[0])}, {fmt(ci[1])}] | [{fmt(cp[0])}, {fmt(cp[1])}] | "
                     f"{side.get('first', '-')} | {side.get('second', '-')} |")
    return lines


def write_report(args, log, evaluation, fpa, timing, provenance) -> None:
    mcts = next((m for m in evaluation["matches"] if m["opponent"].startswith("mcts")), None)
    goal = "not measured" if mcts is None else (
        f"**{'met' if mcts['score'] >= args.goal else 'not met'}** "
        f"({100 * mcts['score']:.1f}% over {mcts['games']} games)")
    md = [("The matches were played by `" + args.invocation + "`; this command redid the time "
           "per move and the random games. " if args.reuse_evaluation else "")
          + "The matches' commands (from the repository root):", "", "```",
          *log, "```", "",
          f"Champion provenance: `{json.dumps(provenance)}`", "",
          f"Both sides get {args.time} s per move: MCTS (the seed's UCT, c = sqrt 2, random "
          "play-outs, root win/loss checks) runs play-outs until the time is up; the champion "
          "deepens alpha-beta iteratively and stops early when the next depth would not fit, "
          f"exact from {args.endgame_empties} empty cells. Openings: seeded random, "
          f"{args.opening_plies} plies, each played with both colours. Elo: logistic; CIs as "
          "printed by `evolve.evaluate` (normal approximation over games, and over "
          "colour-swapped pairs).", "",
          "Machine load (1/5/15-minute load averages on the 2 shared cores) when the "
          f"evaluations started: {args.load[0]}, when they ended: {args.load[1]}; time per move "
          "is wall-clock time, so a busy machine gives both sides fewer nodes / play-outs.", "",
          *table_lines(evaluation), "",
          f"Goal (>= {100 * args.goal:.0f}% against MCTS at equal time): {goal}.", "",
          "## Time really used per move", "",
          f"Measured on {args.timing_games} champion-vs-MCTS games at {args.time} s:", ""]
    for who, t in timing.items():
        md.append(f"- {who}: {t['moves']} moves, mean {t['mean_seconds']:.3f} s, "
                  f"max {t['max_seconds']:.3f} s")
    md += ["", "## First-player advantage (random vs random)", "",
           f"{fpa['games']:,} games from the empty board (numba kernel, seed {fpa['seed']}): "
           f"white (first) wins {fpa['white_wins']:,}, black wins {fpa['black_wins']:,}, draws "
           f"{fpa['draws']:,}; white's score {100 * fpa['white_score']:.2f}% (95% CI "
           f"{100 * fpa['white_score_ci95'][0]:.2f}..{100 * fpa['white_score_ci95'][1]:.2f}%),"
           f" i.e. {fpa['white_elo_advantage']:+.1f} Elo for moving first.", ""]
    write_markdown(RESULTS / f"strength_{NAME}.md",
                   f"# Strength of the `{rel(CHAMPION)}` champion", md, args.stamp)
    data = {"game": "pentago_twist", "schema_version": 1, "commands": log,
            "provenance": provenance, "evaluation": evaluation, "time_per_move": timing,
            "first_player_advantage": fpa, "goal_vs_mcts": args.goal, "load": args.load,
            "invocation": args.invocation}
    write_json(RESULTS / f"strength_{NAME}.json", data, args.stamp)


def match_all(args, log: list[str]) -> dict:
    """``evolve.evaluate`` against each opponent, ``--parallel`` of them at a time (separate
    processes, serial backend: a second Ray on one machine may join the first's cluster and
    die with it); the matches merged into one report."""
    def one(opponent: str):
        out = RESULTS / f"strength_{NAME}_vs_{opponent.replace(':', '_')}.json"
        return evaluate([rel(CHAMPION), "--game", "pentago_twist", "--vs", opponent, "--games",
                         args.games, "--time", args.time, "--endgame-empties",
                         args.endgame_empties, "--backend", args.backend, "--seed", args.seed],
                        out, keep=False, echo=True)

    with ThreadPoolExecutor(args.parallel) as pool:
        done = list(pool.map(one, args.vs))
    log += [e.command for e in done]
    merged = dict(done[0].data)
    merged["matches"] = [m for e in done for m in e.data["matches"]]
    merged["commands"] = [e.data.get("command") for e in done]
    return merged


def use_results(folder: Path, champion: Path | None, name: str) -> None:
    """Write results (and the exported champion, unless ``champion`` is given) under
    ``folder``."""
    global RESULTS, CHAMPION, NAME
    RESULTS = Path(folder).resolve()
    exported = RESULTS / "champions" / "pentago_twist.json"
    CHAMPION = Path(champion).resolve() if champion else exported
    NAME = name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", action="store_true", help="run the study first")
    parser.add_argument("--games", type=int, default=200, help="games per opponent")
    parser.add_argument("--time", type=float, default=0.5, help="seconds per move, both sides")
    parser.add_argument("--endgame-empties", type=int, default=8)
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument("--vs", nargs="+", default=["mcts", "greedy", "random"])
    parser.add_argument("--timing-games", type=int, default=4)
    parser.add_argument("--random-games", type=int, default=100_000)
    parser.add_argument("--backend", default="serial")
    parser.add_argument("--parallel", type=int, default=2, help="evaluations run at once")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--results", type=Path, default=RESULTS, help="output directory")
    parser.add_argument("--champion", type=Path, default=None,
                        help="a champion file to measure instead of exporting the study's")
    parser.add_argument("--name", default="pentago_twist",
                        help="report name: strength_<name>.md / .json")
    parser.add_argument("--goal", type=float, default=GOAL_VS_MCTS,
                        help="score against MCTS that meets the goal (0.70: issue 10, 0.85: 21)")
    parser.add_argument("--reuse-evaluation", action="store_true",
                        help="keep the matches (and their commands) of the committed JSON; "
                             "redo the timing, the random games and the report")
    args = parser.parse_args()
    args.stamp = Stamp.begin()
    use_results(args.results, args.champion, args.name)
    log: list[str] = []
    args.load = [os.getloadavg()]
    args.invocation = args.stamp.command
    if args.reuse_evaluation:
        old = json.loads((RESULTS / f"strength_{NAME}.json").read_text(encoding="utf-8"))
        log, evaluation, args.load = old["commands"], old["evaluation"], old["load"]
        args.invocation = old["invocation"]
        finish(args, log, evaluation)
        return
    if args.train:
        train("pentago_twist", RUN_DIR, log)
    if args.champion is None:
        export(RUN_DIR, CHAMPION, log)
    evaluation = match_all(args, log)
    args.load.append(os.getloadavg())
    finish(args, log, evaluation)


def finish(args, log: list[str], evaluation: dict) -> None:
    """Timing, first-player advantage and the report around finished matches."""
    timing = time_per_move(CHAMPION, args.time, args.endgame_empties, args.timing_games)
    fpa = first_player_advantage(args.random_games, args.seed)
    provenance = json.loads(CHAMPION.read_text(encoding="utf-8")).get("metadata", {})
    write_report(args, log, evaluation, fpa, timing, provenance)
    print((RESULTS / f"strength_{NAME}.md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
