"""Strength of the Hexifence champion (issue 11), committed with the commands that made it.

    python -m experiments.strength_hexifence --games 200          # the committed run's champion
    python -m experiments.strength_hexifence --train --games 200  # the study first

Steps: (1) with ``--train``, ``python -m evolve +experiment=hexifence`` into
``experiments/runs/hexifence``; (2) ``python -m evolve.export`` of its champion to
``experiments/results/champions/hexifence.json``; (3) N=3: ``python -m evolve.evaluate`` of the
champion, and of the reference weights for comparison, against random, greedy, safe and chain
(colour-swapped pairs from seeded random openings, Elo with 95% CIs); (4) N=2 (``evaluate`` has
no board-size option, so in-process with the same openings, pairing and Elo code): the champion
against the same agents and the perfect player, and the share of its moves (those with a choice)
that the exact solver rates optimal. Writes ``experiments/results/strength_hexifence.md``/``.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from experiments.common import ROOT, evaluate, export, rel, train
from experiments.stamp import Stamp, finite, write_json, write_markdown

RESULTS = ROOT / "experiments" / "results"
RUN_DIR = ROOT / "experiments" / "runs" / "hexifence"
CHAMPION = RESULTS / "champions" / "hexifence.json"
GOAL_VS_CHAIN = 0.75
OPPONENTS = ["random", "greedy", "safe", "chain"]


def use_results(folder: Path) -> None:
    """Write results (and the exported champion) under ``folder``."""
    global RESULTS, CHAMPION
    RESULTS = Path(folder).resolve()
    CHAMPION = RESULTS / "champions" / "hexifence.json"


def evaluate_n3(player: str, args, log: list[str], opponents=OPPONENTS) -> dict:
    return evaluate([player, "--game", "hexifence", "--vs", *opponents, "--games", args.games,
                     "--depth", args.depth, "--endgame-empties", args.endgame_empties,
                     "--backend", args.backend, "--seed", args.seed],
                    RESULTS / "strength_hexifence_matches.json", keep=False, log=log,
                    echo=True).data


def match_n2(game, make_player, opponent: str, openings, seed: int, solver=None) -> dict:
    """Colour-swapped pairs; with ``solver``, every champion move with a choice is checked."""
    import numpy as np

    from evolve.arena.elo import elo_estimate, pair_estimate, penta_from_pairs

    seeds = np.random.SeedSequence(seed).spawn(2 * len(openings))
    points, optimal, checked = [], 0, 0
    for i, opening in enumerate(openings):
        pair = []
        for colour in (0, 1):
            champion, rival = make_player(), game.make_panel_agent(opponent, SEARCH_N2, i)
            spied = _Spy(champion, solver) if solver is not None else champion
            agents = (spied, rival) if colour == 0 else (rival, spied)
            outcome = game.play(*agents, opening, seeds[2 * i + colour])
            pair.append(outcome.score_for(colour))
            if solver is not None:
                optimal, checked = optimal + spied.optimal, checked + spied.checked
        points.append(pair)
    flat = [p for pair in points for p in pair]
    wins, draws = flat.count(1.0), flat.count(0.5)
    games = elo_estimate(wins, draws, len(flat) - wins - draws).as_dict()
    pairs = pair_estimate(penta_from_pairs([sum(p) for p in points])).as_dict()
    out = {"opponent": opponent, "games": len(flat), "wins": wins, "draws": draws,
           "losses": len(flat) - wins - draws, "score": sum(flat) / len(flat),
           "elo": games["elo"], "elo_ci95": games["elo_ci95"], "elo_ci95_pairs": pairs["elo_ci95"],
           "as_blue": sum(p[0] for p in points) / len(points),
           "as_red": sum(p[1] for p in points) / len(points)}
    if solver is not None:
        out["moves_checked"], out["moves_optimal"] = checked, optimal
    return finite(out)


class _Spy:
    """Wraps the champion: asks the exact solver whether each chosen move is optimal."""

    def __init__(self, agent, solver):
        self.agent, self.solver, self.name = agent, solver, agent.name
        self.optimal = self.checked = 0

    def reset(self, seed=None):
        self.agent.reset(seed)

    def select_move(self, state):
        move = self.agent.select_move(state)
        values = {}
        for m in state.legal_moves():
            child = state.play(m)
            v = self.solver.solve(child).value
            values[m] = v if child.to_move == state.to_move else -v
        if len(set(values.values())) > 1:  # a move that could matter
            self.checked += 1
            self.optimal += values[move] == max(values.values())
        return move


def run_n2(args) -> dict:
    import numpy as np

    from engine.core import SearchSettings, get_game
    from engine.hexifence.searcher import Searcher
    from engine.hexifence.structure import N_FEATURES

    global SEARCH_N2
    SEARCH_N2 = SearchSettings(depth=args.depth, endgame_empties=args.n2_endgame_empties)
    game = get_game("hexifence", {"size": 2})
    champion = game.load_champion(CHAMPION)
    openings = game.random_openings(args.games // 2, args.seed, 2, 4)
    solver = Searcher(np.zeros((1, N_FEATURES)), 2, tt_bits=22)

    def make_player():
        return game.make_agent(champion.genome, SEARCH_N2, name="champion")

    matches = []
    for opponent in [*OPPONENTS, "perfect"]:
        start = time.perf_counter()
        spy = solver if opponent in ("perfect", "chain") else None
        m = match_n2(game, make_player, opponent, openings, args.seed, spy)
        m["seconds"] = round(time.perf_counter() - start, 1)
        print(json.dumps(m), flush=True)
        matches.append(m)
    return {"settings": {"size": 2, **SEARCH_N2.to_dict()}, "openings_plies": [2, 4],
            "seed": args.seed, "matches": matches}


SEARCH_N2 = None


def fmt_elo(x) -> str:
    return "inf" if x is None else f"{x:+.0f}"  # None: unbounded (all games won or lost)


def table(matches: list[dict]) -> list[str]:
    lines = ["| opponent | games | W | L | score | Elo | 95% CI (games) | 95% CI (pairs) |",
             "|---|---:|---:|---:|---:|---:|---|---|"]
    for m in matches:
        ci, cp = m["elo_ci95"], m.get("elo_ci95_pairs", [None, None])
        lines.append(f"| {m['opponent']} | {m['games']} | {m['wins']} | {m['losses']} | "
                     f"{100 * m['score']:.1f}% | {fmt_elo(m['elo'])} | [{fmt_elo(ci[0])}, "
                     f"{fmt_elo(ci[1])}] | [{fmt_elo(cp[0])}, {fmt_elo(cp[1])}] |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", action="store_true", help="run the study first")
    parser.add_argument("--games", type=int, default=200, help="games per opponent")
    parser.add_argument("--depth", type=int, default=3, help="champion's search depth (turns)")
    parser.add_argument("--endgame-empties", type=int, default=24, help="N=3 exact endgame")
    parser.add_argument("--n2-endgame-empties", type=int, default=12, help="N=2 exact endgame")
    parser.add_argument("--backend", default="ray")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--skip-reference", action="store_true")
    parser.add_argument("--also", nargs="*", default=[],
                        help="other champion files, evaluated against chain at N=3 only")
    parser.add_argument("--results", type=Path, default=RESULTS, help="output directory")
    args = parser.parse_args()
    args.stamp = Stamp.begin()
    use_results(args.results)
    log: list[str] = []
    if args.train:
        train("hexifence", RUN_DIR, log)
    export(RUN_DIR, CHAMPION, log)
    n3 = evaluate_n3(rel(CHAMPION), args, log)
    reference = None if args.skip_reference else evaluate_n3("reference", args, log)
    others = [evaluate_n3(path, args, log, ["chain"]) for path in args.also]
    start = time.perf_counter()
    n2 = run_n2(args)
    n2["seconds"] = round(time.perf_counter() - start, 1)
    write_report(args, log, n3, reference, n2, others)


def write_report(args, log, n3, reference, n2, others) -> None:
    chain = next(m for m in n3["matches"] if m["opponent"] == "chain")
    met = "met" if chain["score"] >= GOAL_VS_CHAIN else "not met"
    perfect = next(m for m in n2["matches"] if m["opponent"] == "perfect")
    checked = sum(m.get("moves_checked", 0) for m in n2["matches"])
    optimal = sum(m.get("moves_optimal", 0) for m in n2["matches"])
    md = ["It ran (from the repository root):", "", "```", *log,
          "# N=2: in-process (see the script), same pairing and Elo code", "```", "",
          f"Champion: `{rel(CHAMPION)}` (from `{rel(RUN_DIR)}`). Openings: seeded random, "
          "each played with both colours; Elo: logistic, CIs over games and over "
          "colour-swapped pairs (`evolve.arena.elo`).", "",
          f"## N=3 (champion: alpha-beta {args.depth} turns, exact from {args.endgame_empties} "
          "undrawn edges)", "", *table(n3["matches"]), "",
          f"Goal (>= {100 * GOAL_VS_CHAIN:.0f}% against the chain-aware agent at N=3): "
          f"**{met}** ({100 * chain['score']:.1f}% over {chain['games']} games).", ""]
    if reference is not None:
        md += ["For comparison, the reference weights (the GA's seed) at the same settings:", "",
               *table(reference["matches"]), ""]
    for path, other in zip(args.also, others, strict=True):
        md += [f"Also evaluated against chain at the same settings: `{path}`:", "",
               *table(other["matches"]), ""]
    md += [f"## N=2 (champion: alpha-beta {args.depth} turns, exact from "
           f"{args.n2_endgame_empties} undrawn edges)", "", *table(n2["matches"]), "",
           f"Against the perfect player (the exact solver): {100 * perfect['score']:.1f}% "
           f"(as blue {100 * perfect['as_blue']:.1f}%, as red {100 * perfect['as_red']:.1f}%). "
           "The empty N=2 board is a loss by 3 for blue under perfect play, so only openings "
           "that are won for a side can be won against it.", "",
           f"Move optimality (games against chain and perfect, moves where the choice matters "
           f"by the solver): {optimal} of {checked} = "
           f"{100 * optimal / max(1, checked):.1f}% optimal.", "",
           f"N=2 wall time: {n2['seconds']} s in one process.", ""]
    write_markdown(RESULTS / "strength_hexifence.md", "# Strength of the `hexifence` champion",
                   md, args.stamp)
    data = {"game": "hexifence", "schema_version": 1, "commands": log, "n3": n3,
            "n3_reference": reference, "n3_also": dict(zip(args.also, others, strict=True)),
            "n2": n2, "goal_vs_chain": GOAL_VS_CHAIN,
            "n2_moves_checked": checked, "n2_moves_optimal": optimal}
    write_json(RESULTS / "strength_hexifence.json", data, args.stamp)
    print("\n".join(md))


if __name__ == "__main__":
    main()
