"""Run by the CS303 course's Python (3.7, numpy 1.21, numba 0.56), not by pytest, so it keeps
to Python 3.7 and imports nothing of the project: it loads an exported agent file as the
platform does, waits for its numba compile, and prints as JSON what its searches hear and prove
on the positions it reads from stdin, and the moves ``go`` plays. ``test_cs303_course_python``
compares them with what the same file does in the project's own Python.

stdin: {"agent": path, "compile_seconds": s, "depth": plies, "positions": [[P, O], ...],
        "endgames": [[P, O], ...], "boards": [[64 cells, colour], ...], "time_out": s,
        "games": n}
"""

import importlib.util
import json
import platform
import sys

import numpy as np

START = {27: 1, 36: 1, 28: -1, 35: -1}  # d4/e5 white, e4/d5 black (row-major)


def load(path):
    spec = importlib.util.spec_from_file_location("course_agent", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def heard(search_root, P, O, depth):
    """The moves a search reports as best, in order, to ``depth``."""
    out = []
    search_root(P, O, float("inf"), out.append, depth)
    return out


def solved(ai, P, O):
    """The compiled solver's (outcome, move) from (P, O), with no first move to try."""
    fast = ai.compiled_search()
    fast.solver_table[:, :2] = 0
    stats = np.zeros(3, np.int64)
    outcome, move = ai._COMPILED["solve_root"](np.uint64(P), np.uint64(O), -1,
                                               fast.solver_table, stats, float("inf"))
    return [int(outcome), int(move)]


def played(ai, cells, colour, time_out):
    agent = ai.AI(8, colour, time_out)
    agent.go(np.array(cells, dtype=int).reshape(8, 8))
    return {"candidates": [list(m) for m in agent.candidate_list],
            "numba": agent.last_search["numba"], "depth": agent.last_search["depth"]}


def game(ai, time_out):
    """A whole game of the agent against itself through ``go``: its moves (row, col) or None
    for a pass, and whether each was searched with numba."""
    board = np.zeros((8, 8), dtype=int)
    for sq, colour in START.items():
        board[sq // 8, sq % 8] = colour
    players = {-1: ai.AI(8, -1, time_out), 1: ai.AI(8, 1, time_out)}
    colour, passes, moves = -1, 0, []
    while passes < 2:
        agent = players[colour]
        agent.go(board.copy())
        if not agent.candidate_list:
            moves.append(None)
            passes += 1
        else:
            passes = 0
            r, c = agent.candidate_list[-1]
            moves.append([r, c, agent.last_search["numba"]])
            P, O = ai.boards_from_chessboard(board, colour)
            sq = 8 * r + c
            flipped = ai.flips(P, O, sq) | 1 << sq
            for s in range(64):
                if flipped >> s & 1:
                    board[s // 8, s % 8] = colour
        colour = -colour
    return moves


def main():
    job = json.load(sys.stdin)
    ai = load(job["agent"])
    compiled = ai.wait_until_compiled(job["compile_seconds"])
    numba = sys.modules.get("numba")
    report = {"python": platform.python_version(), "numpy": np.__version__,
              "numba": numba.__version__ if numba else None, "compiled": compiled,
              "error": ai._COMPILED["error"]}
    positions, depth = job["positions"], job["depth"]
    report["pure_heard"] = [heard(ai.search_root, P, O, depth) for P, O in positions]
    if compiled:
        fast = ai.compiled_search()
        report["numba_heard"] = [heard(fast.search_root, P, O, depth) for P, O in positions]
        report["numba_solved"] = [solved(ai, P, O) for P, O in job["endgames"]]
        report["played"] = [played(ai, cells, colour, job["time_out"])
                            for cells, colour in job["boards"]]
        report["games"] = [game(ai, job["time_out"]) for _ in range(job["games"])]
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
