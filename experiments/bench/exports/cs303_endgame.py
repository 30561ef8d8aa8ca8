"""The CS303 agent's exact endgame, for ``experiments.bench.exports.cs303``: seconds and nodes
to prove the outcome (win, draw or loss: ``Solver.root``) of endgame positions, pure Python and
numba, beside the engine's own solver (``engine.reversi.endgame.solver``, which finds the exact
disc difference, a harder question) on the same positions."""

from __future__ import annotations

import statistics
import time
from functools import partial

import numpy as np

from engine.reversi.endgame import solver as engine_solver
from engine.reversi.endgame import table as engine_table

BLACK = -1
PURE_EMPTIES = (10, 12, 14)  # pure Python takes seconds beyond these
NUMBA_EMPTIES = (10, 12, 14, 16, 18)


def endgame_positions(ai, boards, per_empties: int, empties: tuple[int, ...],
                      seed: int) -> dict[int, list[tuple[int, int]]]:
    """``per_empties`` positions (P, O) per number of empties, each a random continuation of
    one of ``boards`` (midgame, black to move) where the side to move has a move."""
    rng, out = np.random.default_rng(seed), {}
    for e in empties:
        found = []
        while len(found) < per_empties:
            P, O = ai.boards_from_chessboard(boards[int(rng.integers(len(boards)))], BLACK)
            while 64 - ai._popcount(P | O) > e:
                moves = ai.legal_moves(P, O)
                if not moves:
                    if not ai.legal_moves(O, P):
                        break
                    P, O = O, P
                    continue
                squares = [s for s in range(64) if moves >> s & 1]
                sq = squares[int(rng.integers(len(squares)))]
                f = ai.flips(P, O, sq)
                P, O = O ^ f, P ^ f ^ (1 << sq)
            if 64 - ai._popcount(P | O) == e and ai.legal_moves(P, O):
                found.append((P, O))
        out[e] = found
    return out


def pure_solve(ai, P: int, O: int) -> int:
    """Nodes of the pure-Python solve."""
    solver = ai.Solver(float("inf"))
    solver.root(P, O)
    return solver.nodes


def numba_solve(ai, P: int, O: int) -> int:
    """Nodes of the compiled solve (a fresh table, as in a move)."""
    search = ai.compiled_search()
    search.solver_table[:, :2] = 0
    stats = np.zeros(2, np.int64)
    ai._COMPILED["solve_root"](np.uint64(P), np.uint64(O), -1, search.solver_table, stats,
                               float("inf"))
    return int(stats[0])


class EngineSolver:
    """The engine's exact solve, a new table generation (as if empty) per position."""

    def __init__(self):
        self.table, self.generation = engine_table.new_table(20), 1

    def __call__(self, P: int, O: int) -> int:
        self.generation += 1
        return engine_solver.solve_exact(P, O, True, self.table, self.generation)[2]


def timed(solve, positions) -> dict:
    seconds, nodes = [], []
    for P, O in positions:
        start = time.perf_counter()
        nodes.append(solve(P, O))
        seconds.append(time.perf_counter() - start)
    return {"mean_seconds": statistics.mean(seconds), "max_seconds": max(seconds),
            "median_nodes": statistics.median(nodes)}


def measure(pure_ai, numba_ai, boards, per_empties: int, seed: int) -> dict:
    """Per number of empties: each solver's mean and max seconds and median nodes."""
    positions = endgame_positions(numba_ai, boards, per_empties, NUMBA_EMPTIES, seed)
    engine = EngineSolver()
    engine(*positions[NUMBA_EMPTIES[0]][0])  # compiles
    rows = {}
    for e, found in positions.items():
        rows[e] = {"numba": timed(partial(numba_solve, numba_ai), found),
                   "engine (exact score)": timed(engine, found)}
        if e in PURE_EMPTIES:
            rows[e]["pure Python"] = timed(partial(pure_solve, pure_ai), found)
    return rows


def lines(rows: dict, per_empties: int) -> list[str]:
    out = ["", f"Proving the outcome (`Solver.root`) of {per_empties} endgame positions per "
           "number of empty squares (random continuations of the midgame positions), the "
           "engine's solver (the exact disc difference) on the same positions:", "",
           "| empties | solver | mean s | max s | median nodes |", "|---:|---|---:|---:|---:|"]
    for e, by in rows.items():
        for label, r in by.items():
            out.append(f"| {e} | {label} | {r['mean_seconds']:.4f} | {r['max_seconds']:.4f} | "
                       f"{r['median_nodes']:,.0f} |")
    return out
