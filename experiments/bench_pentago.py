"""Pentago Twist speed on one core: random games/s, alpha-beta nodes/s, MCTS play-outs/s,
with numba's first-call cost made visible.

    python -m experiments.bench_pentago --out experiments/results/bench_pentago.md

First-call times are measured in fresh subprocesses: once with an empty numba cache (a real
compile of every kernel the random-game loop needs) and once with the cache filled (what every
later run pays). Warm timings are the best of ``--repeats`` runs in this process.
"""

from __future__ import annotations

import time

import numpy as np

from experiments.common import arguments, best_of, first_call_seconds, random_walk
from experiments.stamp import Stamp, write_result

SETUP = ("import numpy as np; from engine.pentago import bitboard as bb; "
         "from engine.kernels.rng import new_state")
CALL = "bb.random_games(1, new_state(np.random.default_rng(0)))"


def random_game_rows(games: int, repeats: int, data: dict) -> list[str]:
    from engine.kernels.rng import new_state as new_rng_state
    from engine.pentago import bitboard as bb

    state = new_rng_state(np.random.default_rng(0))
    bb.random_games(1, state)
    seconds, counts = best_of(lambda: bb.random_games(games, state), repeats)
    data["random_games"] = {"games": games, "seconds": seconds,
                            "games_per_second": games / seconds}
    return [f"- random games (numba kernel, whole games from the empty board): {games:,} in "
            f"{seconds:.3f} s = **{games / seconds:,.0f} games/s** (white/black/draw in the "
            f"last run: {counts[0]}/{counts[1]}/{counts[2]})"]


def contract_rows(games: int, data: dict) -> list[str]:
    from engine.core import SearchSettings, get_game

    game = get_game("pentago_twist")
    settings = SearchSettings(depth=1)
    t = time.perf_counter()
    for seed in range(games):
        a, b = (game.make_panel_agent("random", settings, s) for s in (seed, seed + 1))
        game.play(a, b, (), seed)
    seconds = time.perf_counter() - t
    data["contract_games"] = {"games": games, "seconds": seconds}
    return [f"- random games through the Python `Game.play` contract (match runner, one "
            f"`State` per ply): {games} in {seconds:.2f} s = {games / seconds:,.0f} games/s"]


def search_rows(repeats: int, data: dict) -> list[str]:
    from engine.pentago.evaluation import phase_table
    from engine.pentago.game import GAME
    from engine.pentago.genome import reference_genome, weights_matrix
    from engine.pentago.search import Searcher
    from engine.pentago.state import State

    weights = weights_matrix(reference_genome("reference", 3), 3)
    rows = ["", "| position | stones | depth | nodes | seconds | nodes/s |",
            "|---|---:|---:|---:|---:|---:|"]
    rng = np.random.default_rng(1)
    positions = [("empty board", State())]
    positions += [(f"random, {plies} plies", random_walk(GAME, rng, plies)) for plies in (8, 16)]
    for label, state in positions:
        for depth in (2, 3, 4):
            searcher = Searcher(weights, phase_table(3), endgame_empties=0, shared=False)

            def run(searcher=searcher, state=state, depth=depth):
                searcher.clear()
                return searcher.search(*state.boards(), depth=depth)

            seconds, result = best_of(run, repeats)
            data["search"].append({"position": label, "stones": state.stones, "depth": depth,
                                   "nodes": result.nodes, "seconds": seconds})
            rows.append(f"| {label} | {state.stones} | {depth} | {result.nodes:,} | "
                        f"{seconds:.3f} | {result.nodes / seconds / 1e6:.2f} M |")
    return rows


def mcts_rows(data: dict) -> list[str]:
    from engine.pentago.mcts import MCTSAgent
    from engine.pentago.state import State

    agent = MCTSAgent(time_limit=1.0, seed=0)
    agent.select_move(State())  # warm
    agent.select_move(State())
    data["mcts_playouts_per_second"] = agent.last_playouts
    return ["", f"- MCTS (seed UCT, random play-outs), empty board, 1 s: "
                f"{agent.last_playouts:,} play-outs/s"]


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--contract-games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    stamp = Stamp.begin()
    first = first_call_seconds(SETUP, CALL)
    (import_s, cold), (_, cached) = first["compile"], first["cached"]
    data = {"first_call": {"import": import_s, "compile": cold, "cached": cached},
            "search": []}
    lines = ["Single thread; every number scales with the share of a core the job gets (see "
             "the load average above).", "",
             f"- import of the engine modules: {import_s:.2f} s",
             f"- first random-game call, empty numba cache (compile): {cold:.2f} s",
             f"- first random-game call, numba cache filled (every later run): {cached:.3f} s"]
    lines += random_game_rows(args.games, args.repeats, data)
    lines += contract_rows(args.contract_games, data)
    lines += mcts_rows(data)
    lines += search_rows(args.repeats, data)
    write_result(args.out, "# Pentago Twist benchmark", lines, stamp, data)


if __name__ == "__main__":
    main()
