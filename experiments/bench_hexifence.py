"""Hexifence speed: numba's first call, play-outs, agents' time per move, the exact solver.

    python -m experiments.bench_hexifence                 # prints markdown
    python -m experiments.bench_hexifence --out experiments/results/bench_hexifence.md
    python -m experiments.bench_hexifence --write   # the same as that --out

The exact solves: the empty N=2 board (the issue's goal: a few minutes on one core), and N=3
positions with 20 and 26 undrawn edges reached by two chain-aware agents (seeded games).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from engine.core import SearchSettings
from engine.hexifence.chain_agent import ChainAgent
from engine.hexifence.game import GAME
from engine.hexifence.searcher import Searcher
from engine.hexifence.state import initial_state
from engine.hexifence.structure import N_FEATURES
from experiments.common import arguments
from experiments.stamp import ROOT, Stamp, write_json, write_markdown

RESULT = ROOT / "experiments" / "results" / "bench_hexifence.md"


def first_call() -> float:
    start = time.perf_counter()
    Searcher(np.zeros((1, N_FEATURES)), 1, tt_bits=8, shared=False).solve(initial_state(1))
    GAME.with_settings({"size": 1}).make_panel_agent("chain", SearchSettings()).select_move(
        initial_state(1))
    return time.perf_counter() - start


def playouts(size: int, games: int) -> float:
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(games):
        state = initial_state(size)
        while not state.is_terminal():
            legal = state.legal_moves()
            state = state.play(legal[int(rng.integers(len(legal)))])
    return games / (time.perf_counter() - start)


def move_times(size: int, specs: list[str], games: int) -> dict[str, float]:
    game = GAME.with_settings({"size": size})
    out = {}
    for spec in specs:
        search = SearchSettings(depth=int(spec[-1]) if spec[-1].isdigit() else 2,
                                endgame_empties=20)
        agent = game.make_panel_agent(spec.split("@")[0], search, 1)
        moves, spent = 0, 0.0
        for g in range(games):
            state, other = game.initial_state(), ChainAgent(g)
            agent.reset(g)
            while not state.is_terminal():
                if state.to_move == g % 2:
                    t0 = time.perf_counter()
                    move = agent.select_move(state)
                    spent += time.perf_counter() - t0
                    moves += 1
                else:
                    move = other.select_move(state)
                state = state.play(move)
        out[spec] = 1000 * spent / moves
    return out


def chain_position(size: int, empties: int, seed: int):
    agent, state = ChainAgent(seed), initial_state(size)
    while state.empty_edges > empties:
        state = state.play(agent.select_move(state))
    return state


def solve_time(state, tt_bits: int = 22) -> tuple[float, int, float]:
    searcher = Searcher(np.zeros((1, N_FEATURES)), state.size, tt_bits, shared=False)
    start = time.perf_counter()
    result = searcher.solve(state)
    return result.value, result.nodes, time.perf_counter() - start


def main(argv=None) -> int:
    parser = arguments(__doc__)
    parser.add_argument("--write", action="store_true", help=f"--out {RESULT.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    out = args.out or (RESULT if args.write else None)
    data = {"first_call": first_call(), "playouts": {}, "move_ms": {}, "solves": []}
    lines = ["One core; on a shared machine the times are upper bounds.", "",
             f"- numba first call (compile or cache load): {data['first_call']:.2f} s"]
    for size in (2, 3):
        data["playouts"][size] = playouts(size, 200)
        lines.append(f"- random play-outs through `State.play`, N={size}: "
                     f"{data['playouts'][size]:.0f} games/s")
    lines += ["", "## Time per move at N=3 against the chain-aware agent (4 games)", "",
              "| agent | ms per move |", "|---|---|"]
    specs = ["random", "greedy", "safe", "chain", "reference@d2", "reference@d3"]
    data["move_ms"] = move_times(3, specs, 4)
    for spec, ms in data["move_ms"].items():
        lines.append(f"| {spec} (exact from 20 undrawn edges) | {ms:.1f} |"
                     if "@" in spec else f"| {spec} | {ms:.2f} |")
    lines += ["", "## Exact solver (one core, 2^22-entry table)", "",
              "| position | undrawn edges | value (side to move) | nodes | seconds |",
              "|---|---|---|---|---|"]
    value, nodes, seconds = solve_time(initial_state(2))
    data["solves"].append({"position": "empty N=2", "undrawn": 30, "value": value,
                           "nodes": nodes, "seconds": seconds})
    lines.append(f"| empty N=2 board (blue to move) | 30 | {value:+.0f} | {nodes} | "
                 f"{seconds:.1f} |")
    for empties in (20, 26):
        for seed in range(3):
            state = chain_position(3, empties, seed)
            value, nodes, seconds = solve_time(state)
            data["solves"].append({"position": f"N=3 chain game seed {seed}",
                                   "undrawn": empties, "value": value, "nodes": nodes,
                                   "seconds": seconds})
            lines.append(f"| N=3, chain vs chain game seed {seed} | {empties} | {value:+.0f} | "
                         f"{nodes} | {seconds:.2f} |")
    print("\n".join(lines))
    if out:
        write_markdown(out, "# Hexifence benchmark", lines, stamp)
        write_json(out.with_suffix(".json"), data, stamp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
