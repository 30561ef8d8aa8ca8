"""What an n-tuple network costs Reversi's search: recomputed vs incremental children, against
the square-table (WPC) evaluation.

    python -m experiments.bench.engine.ntuple_search --games 200 --positions 40 --depth 5 \
        --out experiments/results/bench_ntuple_search.md

1. Child evaluations per second, the unit of work of a search node one ply from the horizon
   (and of the move ordering 3+ plies from it): every child of every position of ``--games``
   random Othello games (seeded), evaluated by
   - ``wpc``: ``evaluation.evaluate`` with the literature WPC (one phase, no features);
   - ``full``: ``network_eval.network_value`` (every index from the bitboards);
   - ``incremental``: the node's indices once (``children_indices``), then each child by its
     move (``move_value``: play, sum, undo), the search's ``incremental=True``.
2. A fixed-depth search (``--depth``, exact endgame off) from ``--positions`` midgame positions
   (20 to 40 random plies, seeded): median milliseconds per search and nodes per second, for
   the WPC and each layout recomputed and incremental (their moves and node counts must agree).

Random weights, three phases, no features; rates are the best of ``--repeats`` passes of one
jitted loop. The lead publishes numbers from a quiet machine only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.core.registry import get_game
from engine.reversi.files import reference_weights
from engine.reversi.genome.evaluation import evaluate
from engine.reversi.genome.network_eval import children_indices, move_value, network_value
from engine.reversi.rules import bitboard as bb
from engine.reversi.rules.state import PASS, Position
from engine.reversi.search.searcher import Searcher
from experiments.common import arguments, best_of
from experiments.stamp import Stamp, write_result

LAYOUTS = ("straight2", "straight3", "corner3+edge2x")


def random_position(seed: int, plies: int) -> Position:
    """The position after up to ``plies`` uniformly random moves (passes included)."""
    rng = np.random.default_rng(seed)
    position = Position.start()
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(PASS if moves == [PASS] else moves[rng.integers(len(moves))])
    return position


def game_positions(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(P, O) of every position with a legal move in ``games`` random games."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(games):
        position = Position.start()
        while moves := position.legal_moves():
            if position.legal_moves_mask():
                rows.append((position.player, position.opponent))
            position = position.play(moves[rng.integers(len(moves))])
    return np.array([r[0] for r in rows], np.uint64), np.array([r[1] for r in rows], np.uint64)


@njit(cache=True)
def wpc_children(Ps, Os, phase_of_discs, positional, features):
    total, count = 0.0, 0
    for k in range(Ps.shape[0]):
        P, O = Ps[k], Os[k]
        x = bb.legal_moves(P, O)
        while x:
            sq = bb.lowest_bit_index(x)
            x &= x - bb.ONE
            nP, nO = bb.make_move(P, O, sq, bb.flips(P, O, sq))
            total += evaluate(nP, nO, phase_of_discs, positional, features, False)
            count += 1
    return total, count


@njit(cache=True)
def network_children(Ps, Os, phase_of_discs, t, weights, features, incremental):
    indices = np.empty(t.offset.shape[0], np.int64)
    total, count = 0.0, 0
    for k in range(Ps.shape[0]):
        P, O = Ps[k], Os[k]
        if incremental:
            children_indices(P, O, t, indices)
        x = bb.legal_moves(P, O)
        while x:
            sq = bb.lowest_bit_index(x)
            x &= x - bb.ONE
            f = bb.flips(P, O, sq)
            nP, nO = bb.make_move(P, O, sq, f)
            if incremental:
                total += move_value(indices, sq, f, nP, nO, phase_of_discs, t, weights,
                                    features, False, True)
            else:
                total += network_value(nP, nO, phase_of_discs, t, weights, features, False)
            count += 1
    return total, count


def best_rate(run, repeats: int) -> tuple[float, float]:
    """(children per second of the fastest pass, the pass's checksum), after one untimed
    pass (numba compiles or loads its cache)."""
    seconds, (checksum, count) = best_of(run, repeats, warm_up=True)
    return count / seconds, checksum


def network(layout: str, seed: int):
    game = get_game("othello", {"genome": {"kind": "ntuple", "layout": layout, "phases": 3,
                                           "features": []}})
    low, high = game.genome_spec().default_bounds()
    return game.weights(np.random.default_rng(seed).uniform(low, high), layout)


def evaluation_rates(args, positions) -> list[tuple[str, float, float]]:
    """(label, recomputed or WPC M children/s, incremental M/s)."""
    wpc = reference_weights("wpc").numba_arrays()
    rows = [("wpc (square table)", best_rate(lambda: wpc_children(*positions, *wpc),
                                             args.repeats)[0], float("nan"))]
    for layout in args.layouts:
        arrays = network(layout, args.seed).numba_arrays()
        full, a = best_rate(lambda a=arrays: network_children(*positions, *a, False),
                            args.repeats)
        inc, b = best_rate(lambda a=arrays: network_children(*positions, *a, True), args.repeats)
        assert a == b, (layout, a, b)  # the same sums, to the bit
        rows.append((layout, full, inc))
    return rows


def timed_searches(searcher: Searcher, positions, depth: int):
    """(median ms per search, nodes per second, moves) over the positions."""
    searcher.search(positions[0], depth=1)  # compile or load before timing
    times, nodes, moves = [], 0, []
    for p in positions:
        searcher.clear()
        r = searcher.search(p, depth=depth)
        times.append(r.seconds)
        nodes += r.nodes
        moves.append((r.move, r.nodes))
    return 1000 * float(np.median(times)), nodes / sum(times), moves


def search_rows(args) -> list[tuple[str, float, float]]:
    positions = [random_position(args.seed + s, 20 + s % 21) for s in range(args.positions)]
    positions = [p for p in positions if p.legal_moves_mask()]
    wpc = Searcher(reference_weights("wpc"), "othello", endgame_empties=0)
    ms, rate, _ = timed_searches(wpc, positions, args.depth)
    rows = [("wpc (square table)", ms, rate)]
    for layout in args.layouts:
        w = network(layout, args.seed)
        measured = {}
        for incremental in (False, True):
            searcher = Searcher(w, "othello", endgame_empties=0, incremental=incremental)
            measured[incremental] = timed_searches(searcher, positions, args.depth)
        assert measured[False][2] == measured[True][2], layout  # same moves and nodes
        for incremental, label in ((False, "recomputed"), (True, "incremental")):
            ms, rate, _ = measured[incremental]
            rows.append((f"{layout}, {label}", ms, rate))
    return rows


def report(args, n_positions: int, rates, searches) -> list[str]:
    return [
        f"Child evaluations over {n_positions:,} positions of {args.games} random games "
        f"(best of {args.repeats}), millions per second:", "",
        "| evaluation | recomputed (or WPC) M/s | incremental M/s |", "|---|---:|---:|",
        *[f"| {label} | {full / 1e6:.2f} | {'' if inc != inc else f'{inc / 1e6:.2f}'} |"
          for label, full, inc in rates], "",
        f"Depth-{args.depth} searches from {args.positions} midgame positions (exact endgame "
        "off, a cleared table each):", "",
        "| evaluation | median ms per search | M nodes/s |", "|---|---:|---:|",
        *[f"| {label} | {ms:.2f} | {rate / 1e6:.2f} |" for label, ms, rate in searches],
    ]


def main(argv=None) -> None:
    parser = arguments(__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--layouts", nargs="+", default=list(LAYOUTS))
    args = parser.parse_args(argv)
    if min(args.games, args.positions, args.depth, args.repeats) < 1:
        parser.error("--games, --positions, --depth and --repeats must be >= 1")
    stamp = Stamp.begin()
    positions = game_positions(args.games, args.seed)
    rates, searches = evaluation_rates(args, positions), search_rows(args)
    write_result(args.out, "# N-tuple networks in Reversi's search",
                 report(args, len(positions[0]), rates, searches), stamp.finish(), {
                     "children_per_second": {label: {"recomputed": full, "incremental": inc}
                                             for label, full, inc in rates},
                     "searches": {label: {"median_ms": ms, "nodes_per_second": rate}
                                  for label, ms, rate in searches}})


if __name__ == "__main__":
    main()
