"""What every game's speed is, measured through the game contract alone (``engine.core.Game``):
the agents' time per move, random games through ``Game.play``, alpha-beta nodes per second at
fixed depths by genome kind (depth 1 is the cost of evaluating every successor) and TD
self-play games per second for the genomes that learn by TD.

    python -m experiments.bench.engine.contract --game pentago_twist \
        --out experiments/results/bench_contract_pentago_twist.md

A game is a row of ``PLANS``: the agents to time, their search, the genomes (game settings) to
search with and to learn. What only one game has (Reversi's perft and FFO solver, Hexifence's
exact solver, Pentago Twist's play-out and n-tuple kernels) is measured by that game's own
script beside this one. Single thread; publish numbers from a quiet machine only.
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time
from dataclasses import dataclass

import numpy as np

from engine.core import SearchSettings, get_game
from experiments.common import arguments, best_of, random_game, random_walk
from experiments.stamp import Stamp, write_result


@dataclass(frozen=True)
class Plan:
    agents: tuple[str, ...]   # panel specs whose time per move is measured
    depth: int                # their search (the searching ones)
    endgame_empties: int
    genomes: dict             # label -> game settings: searched at ``depths``, learnt by TD
    depths: tuple[int, ...]
    plies: tuple[int, ...]    # the search positions: after this many random moves


NT = {"kind": "ntuple", "phases": 1}
PLANS = {
    "reversed_reversi": Plan(
        ("random", "greedy", "wpc1", "eps0.1:wpc1", "bfs", "mcts:200", "mcts:1000", "course"),
        4, 8, {"features": {}, "ntuple square2 + mobility, stability": {"genome": {
            **NT, "layout": "square2", "features": ["mobility", "stability"]}}},
        (1, 3, 5), (10, 20, 30)),
    "pentago_twist": Plan(
        ("random", "greedy", "reference", "mcts:1000"), 2, 8,
        {"features": {}, **{f"ntuple {layout}": {"genome": {**NT, "layout": layout}}
                            for layout in ("straight5", "straight5+corner3", "lines+square2")}},
        (1, 2, 3), (4, 10, 16)),
    "hexifence": Plan(
        ("random", "greedy", "safe", "chain", "reference", "margin"), 2, 20,
        {"features": {}, "ntuple cell+pair": {"genome": NT},
         "ntuple cell+pair + features": {"genome": {**NT, "features": True}},
         "N=2 ntuple cell+pair": {"size": 2, "genome": NT}},
        (1, 2, 3), (10, 25, 40)),
}


def agent_rows(game, plan: Plan, args) -> tuple[list[str], list[dict]]:
    """Each agent's time per move on the same positions of seeded random games (its first
    call, numba compiling or loading its cache, on the initial state and untimed)."""
    rng, sample = np.random.default_rng(args.seed), []
    while len(sample) < args.positions:
        sample += itertools.islice(random_game(game, rng), args.positions - len(sample))
    search = SearchSettings(depth=plan.depth, endgame_empties=plan.endgame_empties)
    rows = []
    for spec in plan.agents:
        agent = game.make_panel_agent(spec, search, 0)
        agent.select_move(game.initial_state())
        seconds = []
        for state in sample:
            start = time.perf_counter()
            agent.select_move(state)
            seconds.append(time.perf_counter() - start)
        rows.append({"spec": spec, "moves": len(seconds),
                     "median_ms": 1000 * statistics.median(seconds),
                     "mean_ms": 1000 * statistics.fmean(seconds), "max_ms": 1000 * max(seconds)})
    random = game.make_panel_agent("random", search, 0)
    played, _ = best_of(lambda: [game.play(random, random, (), s) for s in range(args.games)], 1)
    lines = [f"{len(sample)} positions from seeded random games (seed {args.seed}); searching "
             f"agents at depth {plan.depth}, exact from {plan.endgame_empties} empties.", "",
             "| agent spec | median ms/move | mean ms/move | slowest ms |", "|---|---:|---:|---:|",
             *(f"| `{r['spec']}` | {r['median_ms']:.3f} | {r['mean_ms']:.3f} | "
               f"{r['max_ms']:.1f} |" for r in rows), "",
             f"Random games through `Game.play` (the match runner's path): {args.games} in "
             f"{played:.2f} s = {args.games / played:,.0f} games/s."]
    rows.append({"spec": "Game.play random games", "games": args.games, "seconds": played})
    return lines, rows


def search_rate(game, genome, states, depth: int) -> tuple[int, float]:
    """Nodes and seconds of fixed-depth searches from ``states``, each with a fresh table
    (the agent's searcher is asked through ``select_move``; its results count the nodes)."""
    agent = game.make_agent(genome, SearchSettings(depth=depth, endgame_empties=0))
    searcher, results = agent.searcher, []
    search = searcher.search
    searcher.search = lambda *a, **k: results.append(search(*a, **k)) or results[-1]
    agent.select_move(states[0])  # compile or load
    nodes, seconds = 0, 0.0
    for state in states:
        searcher.clear()
        results.clear()
        start = time.perf_counter()
        agent.select_move(state)
        seconds += time.perf_counter() - start
        nodes += sum(r.nodes for r in results)
    return nodes, seconds


def genome_rows(base, plan: Plan, args) -> tuple[list[str], list[dict]]:
    lines = ["", "## Search and TD by genome", "",
             f"Alpha-beta from positions after {', '.join(map(str, plan.plies))} random moves, "
             "no exact endgame, a fresh table each; TD self-play (`Game.td_learn`, alpha 0.1, "
             f"epsilon 0.1) for {args.td_games:,} games from the seed weights after a warm-up "
             "game.", "", "| genome | " + " | ".join(f"depth {d}: k nodes/s" for d in plan.depths)
             + " | TD games/s |", "|---|" + "---:|" * (len(plan.depths) + 1)]
    rows = []
    for label, settings in plan.genomes.items():
        game = base.with_settings(settings)
        genome = game.reference_genome(game.reference_names()[0])
        rng = np.random.default_rng(2)
        states = [s for s in (random_walk(game, rng, p) for p in plan.plies) if s is not None]
        row = {"genome": label, "settings": settings, "search": [], "td_games_per_second": None}
        for depth in plan.depths:
            nodes, seconds = search_rate(game, genome, states, depth)
            row["search"].append({"depth": depth, "nodes": nodes, "seconds": seconds})
        if getattr(game, "learns_by_td", lambda: False)():
            game.td_learn(genome.copy(), 1, 0, 0.1, 0.1)
            seconds = best_of(lambda g=game, w=genome: g.td_learn(w.copy(), args.td_games, 1,
                                                                  0.1, 0.1), 1)[0]
            row["td_games_per_second"] = args.td_games / seconds
        rows.append(row)
        td = row["td_games_per_second"]
        lines.append(f"| {label} | " + " | ".join(f"{s['nodes'] / s['seconds'] / 1e3:,.0f}"
                                                  for s in row["search"])
                     + f" | {'-' if td is None else f'{td:,.0f}'} |")
    return lines, rows


def main(argv: list[str] | None = None) -> int:
    p = arguments(__doc__)
    p.add_argument("--game", choices=tuple(PLANS), required=True)
    p.add_argument("--positions", type=int, default=80, help="positions per agent")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--games", type=int, default=200, help="random games through Game.play")
    p.add_argument("--td-games", type=int, default=2000)
    args = p.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    game, plan = get_game(args.game), PLANS[args.game]
    lines, agents = agent_rows(game, plan, args)
    more, genomes = genome_rows(game, plan, args)
    write_result(args.out, f"# {args.game}: speed through the game contract", lines + more,
                 stamp, {"game": args.game, "agents": agents, "genomes": genomes})
    return 0


if __name__ == "__main__":
    sys.exit(main())
