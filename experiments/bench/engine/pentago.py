"""Pentago Twist's own kernels on one core: random games/s (and the first player's edge),
MCTS play-outs/s, and what a search node pays to evaluate a successor, with numba's first-call
cost made visible. What every game shares (agents, nodes/s, TD) is
``experiments.bench.engine.contract``.

    python -m experiments.bench.engine.pentago --out experiments/results/bench_pentago.md

First-call times are measured in fresh subprocesses: once with an empty numba cache (a real
compile of every kernel the random-game loop needs) and once with the cache filled (what every
later run pays). Warm timings are the best of ``--repeats`` runs in this process.

Per successor (every distinct successor of every position of ``--positions-games`` random
games, as the search's horizon scores them): the rules' checks every static value pays
(``result`` + ``can_win_now``), the feature evaluation, the network recomputed from the
bitboards (``evaluate_bits``, what the search does), and the network updated from its parent's
indices (the placed cell and the twisted quadrant's changed cells through ``set_cell``: Edax's
way, written here only to measure whether it would pay).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.core import get_game
from engine.kernels import ntuple as nt
from engine.kernels.bits import lowest_bit_index, popcount
from engine.kernels.ntuple.evaluation import bit_state
from engine.pentago.genome.evaluation import evaluate
from engine.pentago.rules import bitboard as bb
from experiments.common import arguments, best_of, first_call_seconds, random_game
from experiments.stamp import Stamp, write_result

SETUP = ("import numpy as np; from engine.pentago.rules import bitboard as bb; "
         "from engine.kernels.rng import new_state")
CALL = "bb.random_games(1, new_state(np.random.default_rng(0)))"
LAYOUTS = ("straight5", "straight5+corner3", "lines+square2")


def random_game_rows(games: int, repeats: int, data: dict) -> list[str]:
    from engine.kernels.rng import new_state as new_rng_state

    state = new_rng_state(np.random.default_rng(0))
    bb.random_games(1, state)
    seconds, counts = best_of(lambda: bb.random_games(games, state), repeats)
    white = (int(counts[0]) + 0.5 * int(counts[2])) / games  # the first player's score
    data["random_games"] = {"games": games, "seconds": seconds, "games_per_second":
                            games / seconds, "white_black_draw": [int(c) for c in counts]}
    return [f"- random games (numba kernel, whole games from the empty board): {games:,} in "
            f"{seconds:.3f} s = **{games / seconds:,.0f} games/s**; white/black/draw in the "
            f"last run {counts[0]}/{counts[1]}/{counts[2]}: the first player scores "
            f"{white:.1%} at random"]


def positions(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    game = get_game("pentago_twist")
    boards = [state.boards() for _ in range(games) for state in random_game(game, rng)]
    return np.array([b[0] for b in boards], np.uint64), np.array([b[1] for b in boards], np.uint64)


@njit(cache=True)
def _rules(P, O, c_P, c_O, c_m, dedup):
    total = 0
    for k in range(P.shape[0]):
        for i in range(bb.distinct_children_into(P[k], O[k], c_P, c_O, c_m, dedup)):
            total += bb.result(c_P[i], c_O[i]) + bb.can_win_now(c_P[i], c_O[i])
    return total


@njit(cache=True)
def _features(P, O, c_P, c_O, c_m, dedup, weights, phases):
    total = 0.0
    for k in range(P.shape[0]):
        for i in range(bb.distinct_children_into(P[k], O[k], c_P, c_O, c_m, dedup)):
            total += evaluate(c_P[i], c_O[i], weights, phases)
    return total


@njit(cache=True)
def _full(P, O, c_P, c_O, c_m, dedup, t, net, phases):
    total = 0.0
    for k in range(P.shape[0]):
        for i in range(bb.distinct_children_into(P[k], O[k], c_P, c_O, c_m, dedup)):
            total += nt.evaluate_bits(c_P[i], c_O[i], t, net[phases[popcount(c_P[i] | c_O[i])]])
    return total


@njit(cache=True)
def _incremental(P, O, c_P, c_O, c_m, dedup, t, swapped, phases, parent, child):
    """Indices in the parent's frame (its mover = state 1); a child's changed cells moved
    through ``set_cell``; its value from its mover's (state 2's) side: the swapped weights."""
    total = 0.0
    for k in range(P.shape[0]):
        nt.indices_bits(P[k], O[k], t, parent)
        for i in range(bb.distinct_children_into(P[k], O[k], c_P, c_O, c_m, dedup)):
            child[:] = parent
            mover, other = c_O[i], c_P[i]  # after the move, in the parent's frame
            changed = (P[k] ^ mover) | (O[k] ^ other)
            while changed:
                c = lowest_bit_index(changed)
                changed &= changed - np.uint64(1)
                old = bit_state(P[k], O[k], c)
                new = bit_state(mover, other, c)
                nt.set_cell(child, t, c, old, new)
            stones = popcount(mover | other)
            total += nt.evaluate_indices(child, t, swapped[phases[stones]])
    return total


def best_rate(fn, args, count, repeats) -> float:
    return count / best_of(lambda: fn(*args), repeats, warm_up=True)[0]


def evaluation_rows(args) -> list[str]:
    P, O = positions(args.positions_games, 1)
    scratch = (np.empty(bb.MOVES, np.uint64), np.empty(bb.MOVES, np.uint64),
               np.empty(bb.MOVES, np.int64), np.empty(bb.DEDUP_SLOTS, np.int64))
    count = sum(bb.distinct_children(p, o, *scratch[:3]) for p, o in zip(P, O, strict=True))
    features = get_game("pentago_twist")
    weights, phases = features.evaluation_arrays(features.reference_genome("reference"))
    rules = best_rate(_rules, (P, O, *scratch), count, args.repeats)
    feats = best_rate(_features, (P, O, *scratch, weights, phases), count, args.repeats)
    rows = ["", f"Successors of {len(P):,} positions ({count:,} distinct), millions per second:",
            "", "| what | M/s |", "|---|---:|",
            f"| rules' checks (result + can_win_now) | {rules / 1e6:.2f} |",
            f"| feature evaluation | {feats / 1e6:.2f} |"]
    for layout in LAYOUTS:
        game = get_game("pentago_twist", {"genome": {"kind": "ntuple", "layout": layout}})
        net, _ = game.network.split(np.random.default_rng(0).normal(
            0, 0.1, game.genome_spec().size))
        t = game.network.tables
        swapped = nt.colour_swapped(net, game.network.layout)
        buffers = (np.empty(len(t.offset), np.int64), np.empty(len(t.offset), np.int64))
        full = best_rate(_full, (P, O, *scratch, t, net, phases), count, args.repeats)
        inc = best_rate(_incremental, (P, O, *scratch, t, swapped, phases, *buffers), count,
                        args.repeats)
        rows.append(f"| network `{layout}`, recomputed / incremental | {full / 1e6:.2f} / "
                    f"{inc / 1e6:.2f} |")
    return rows


def mcts_rows(data: dict) -> list[str]:
    from engine.pentago.agents.mcts import MCTSAgent
    from engine.pentago.rules.state import State

    agent = MCTSAgent(time_limit=1.0, seed=0)
    agent.select_move(State())  # warm
    agent.select_move(State())
    data["mcts_playouts_per_second"] = agent.last_playouts
    return ["", f"- MCTS (seed UCT, random play-outs), empty board, 1 s: "
                f"{agent.last_playouts:,} play-outs/s"]


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--positions-games", type=int, default=200,
                        help="random games whose positions' successors are evaluated")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    stamp = Stamp.begin()
    first = first_call_seconds(SETUP, CALL)
    (import_s, cold), (_, cached) = first["compile"], first["cached"]
    data = {"first_call": {"import": import_s, "compile": cold, "cached": cached}}
    lines = ["Single thread; every number scales with the share of a core the job gets (see "
             "the load average above).", "",
             f"- import of the engine modules: {import_s:.2f} s",
             f"- first random-game call, empty numba cache (compile): {cold:.2f} s",
             f"- first random-game call, numba cache filled (every later run): {cached:.3f} s"]
    lines += random_game_rows(args.games, args.repeats, data)
    lines += mcts_rows(data)
    lines += evaluation_rows(args)
    write_result(args.out, "# Pentago Twist benchmark", lines, stamp, data)


if __name__ == "__main__":
    main()
