"""Time per move of the Reversi agents (``engine/reversi/agents``), after compilation.

    python -m experiments.bench_agents --positions 80 --out experiments/results/bench_agents.md

Positions: ``--positions`` of them from seeded random games (every position of each game until
there are enough, finished games left out), the same for every agent. Each agent is asked for a
move in every position, through the ``Game`` contract the match runner uses; the first call
(numba compiling or loading its cache) is made on another position and not timed. Reported per
agent: median and mean milliseconds per move, and the slowest move. Single thread.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

from engine.core import SearchSettings, get_game
from experiments.common import arguments
from experiments.stamp import Stamp, write_result

SPECS = ["random", "greedy", "wpc1", "eps0.1:wpc1", "bfs", "mcts:200", "mcts:1000", "course"]


def positions(game, n: int, seed: int) -> list:
    """``n`` positions from seeded random games, in the order they were reached."""
    rng, out = np.random.default_rng(seed), []
    while len(out) < n:
        state = game.initial_state()
        while not game.is_terminal(state) and len(out) < n:
            out.append(state)
            moves = game.legal_moves(state)
            state = game.apply(state, moves[int(rng.integers(len(moves)))])
    return out


def time_agent(game, spec: str, sample: list, depth: int) -> dict:
    agent = game.make_panel_agent(spec, SearchSettings(depth=depth), 0)
    agent.select_move(game.initial_state())  # compile / load, untimed
    seconds = []
    for state in sample:
        start = time.perf_counter()
        agent.select_move(state)
        seconds.append(time.perf_counter() - start)
    return {"spec": spec, "moves": len(seconds), "median_ms": 1000 * statistics.median(seconds),
            "mean_ms": 1000 * statistics.fmean(seconds), "max_ms": 1000 * max(seconds)}


def main(argv: list[str] | None = None) -> int:
    p = arguments(__doc__)
    p.add_argument("--game", default="reversed_reversi")
    p.add_argument("--positions", type=int, default=80)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--depth", type=int, default=4, help="for agents that search (course)")
    p.add_argument("--specs", nargs="+", default=SPECS)
    args = p.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    game = get_game(args.game)
    sample = positions(game, args.positions, args.seed)
    rows = []
    for spec in args.specs:
        rows.append(time_agent(game, spec, sample, args.depth))
        print(rows[-1], flush=True)
    lines = [f"{args.game}, {len(sample)} positions from seeded random games (seed {args.seed}); "
             f"searching agents at depth {args.depth}; single thread, after compilation.", "",
             "| agent spec | median ms/move | mean ms/move | slowest ms |", "|---|---|---|---|"]
    lines += [f"| `{r['spec']}` | {r['median_ms']:.3f} | {r['mean_ms']:.3f} | {r['max_ms']:.1f} |"
              for r in rows]
    write_result(args.out, "# Reversi agents: time per move", lines, stamp,
                 {"game": args.game, "depth": args.depth, "rows": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
