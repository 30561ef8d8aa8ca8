"""Two CS303 agent files play each other through the platform's interface, at equal time per move.

    python -m experiments.strength.cs303_match --time-out 0.5 --openings 40 \
        --out experiments/results/strength_cs303_numba.md

By default ``--a`` is the committed agent
(``experiments/results/champions/reversed_reversi_cs303.py``, numba search once compiled) and
``--b`` the same champion exported with ``--numba off`` (pure Python): the same evaluation and
search, so the score measures what the compiled search's depth is worth. Each agent file is
loaded as the platform loads it; every move is ``AI(8, color, time_out).go(board)`` and the LAST
element of ``candidate_list`` is played, as on the platform. A move not in the legal list, or a
``go`` over ``time_out``, is counted (the platform would forfeit the game); the game goes on so
that both are seen. Openings: ``--plies`` seeded random plies from the start, each played twice
with the colours swapped. Before the first game the agents' numba searches are compiled
(``wait_until_compiled``), so the games measure the compiled search; on the platform the first
moves of a game are pure Python while it compiles. Fewer discs win (Reversed Reversi). Games are
appended to ``--games`` as JSON lines, so a killed run resumes where it stopped (games of
other settings or of other agent files are ignored). ``--b git:REV``
plays file A against itself as committed at an earlier revision.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from evolve.arena.elo import elo_estimate
from experiments.bench.exports.cs303 import file_at, pure_twin
from experiments.common import arguments, rel
from experiments.stamp import ROOT, Stamp, write_result

AGENT = ROOT / "experiments" / "results" / "champions" / "reversed_reversi_cs303.py"
BLACK, WHITE = -1, 1


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if hasattr(module, "wait_until_compiled"):
        module.wait_until_compiled(900)
    return module


def start_board() -> np.ndarray:
    board = np.zeros((8, 8), dtype=int)
    board[3, 3] = board[4, 4] = WHITE
    board[3, 4] = board[4, 3] = BLACK
    return board


def legal(rules, board: np.ndarray, colour: int) -> list[int]:
    P, O = rules.boards_from_chessboard(board, colour)
    moves = rules.legal_moves(P, O)
    return [sq for sq in range(64) if moves >> sq & 1]


def play_move(rules, board: np.ndarray, colour: int, sq: int) -> None:
    P, O = rules.boards_from_chessboard(board, colour)
    flipped = rules.flips(P, O, sq) | 1 << sq
    for s in range(64):
        if flipped >> s & 1:
            board[s // 8, s % 8] = colour


def opening(rules, seed: int, plies: int) -> tuple[np.ndarray, int]:
    rng, board, colour = np.random.default_rng(seed), start_board(), BLACK
    for _ in range(plies):
        moves = legal(rules, board, colour)
        if moves:
            play_move(rules, board, colour, moves[int(rng.integers(len(moves)))])
        colour = -colour
    return board, colour


def game(agents: dict, a_colour: int, board: np.ndarray, colour: int, time_out: float,
         rules) -> dict:
    """One game from ``board`` with ``colour`` to move; agent ``a`` plays ``a_colour``."""
    players = {a_colour: ("a", agents["a"].AI(8, a_colour, time_out)),
               -a_colour: ("b", agents["b"].AI(8, -a_colour, time_out))}
    stats = {side: {"moves": 0, "illegal": 0, "over_time": 0, "max_seconds": 0.0, "depths": [],
                    "solved": 0, "proven_won": 0} for side in ("a", "b")}
    while legal(rules, board, colour) or legal(rules, board, -colour):
        moves = legal(rules, board, colour)
        if moves:
            side, ai = players[colour]
            start = time.perf_counter()
            ai.go(board.copy())
            seconds = time.perf_counter() - start
            s = stats[side]
            s["moves"] += 1
            s["max_seconds"] = max(s["max_seconds"], seconds)
            s["over_time"] += seconds > time_out
            told = getattr(ai, "last_search", {})  # an agent from elsewhere may not say
            s["depths"].append(told.get("depth", 0))
            solved = told.get("solved")  # the exact endgame's outcome, if it ran
            s["solved"] += solved is not None
            s["proven_won"] += solved == 1
            move = ai.candidate_list[-1] if ai.candidate_list else None
            sq = None if move is None else 8 * move[0] + move[1]
            if sq not in moves:
                s["illegal"] += 1
                sq = moves[0]
            play_move(rules, board, colour, sq)
        colour = -colour
    a_discs, b_discs = int((board == a_colour).sum()), int((board == -a_colour).sum())
    score = 0.5 if a_discs == b_discs else float(a_discs < b_discs)  # fewer discs win
    return {"a_discs": a_discs, "b_discs": b_discs, "score_a": score, "stats": stats}


class EngineOpponent:
    """An engine agent (``engine.reversi.agents.factory`` spec: a weights or network file, or a
    reference name) behind the platform's interface. Its clock is the CS303 agent's own search
    time (``time_out`` less the agent's margin), so both search for the same seconds."""

    def __init__(self, spec: str, search_seconds):
        self.spec, self.search_seconds = spec, search_seconds

    def AI(self, size: int, color: int, time_out: float):  # noqa: N802 - the platform's name
        from engine.reversi.agents.factory import make_agent

        agent = make_agent(self.spec, "reversed", time_limit=self.search_seconds(time_out))
        return _EngineAI(agent, color)


class _EngineAI:
    def __init__(self, agent, color: int):
        self.agent, self.color = agent, color
        self.candidate_list, self.last_search = [], {}

    def go(self, chessboard):
        from engine.reversi.rules.state import Position

        cells = np.asarray(chessboard).reshape(64)
        player = sum(1 << sq for sq in range(64) if cells[sq] == self.color)
        opponent = sum(1 << sq for sq in range(64) if cells[sq] == -self.color)
        sq = self.agent.select_move(Position(player, opponent, self.color == BLACK))
        self.candidate_list = [divmod(sq, 8)]
        result = self.agent.last_result  # depth: the last iteration's (partial if cut)
        self.last_search = {"depth": int(result.depth) - bool(result.partial)}
        return self.candidate_list


def opponent(spec: str | None, folder: Path, a_module, a_path: Path):
    """Agent B: a CS303 agent file, ``engine:<spec>``, ``git:<rev>`` (file A as committed at
    that git revision), or (None) the pure-Python twin."""
    if spec is not None and spec.startswith("engine:"):
        engine = EngineOpponent(spec.removeprefix("engine:"),
                                lambda t: a_module.AI(8, BLACK, t).search_seconds())
        engine.AI(8, BLACK, 1.0).go(start_board())  # numba's first call before the clock runs
        return engine
    if spec is not None and spec.startswith("git:"):
        return load(file_at(spec.removeprefix("git:"), a_path, folder), "cs303_b")
    return load(Path(spec) if spec is not None else pure_twin(folder), "cs303_b")


def digest(agent) -> str:
    """The first 16 hex digits of the SHA-256 of an agent's source file ("engine" for an
    engine opponent)."""
    path = getattr(agent, "__file__", None)
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16] if path else "engine"


def main(argv: list[str] | None = None) -> int:
    p = arguments(__doc__)
    p.add_argument("--a", type=Path, default=AGENT, help="agent file A (default: the committed)")
    p.add_argument("--b", default=None,
                   help="agent file B, engine:SPEC for an engine agent at the same search "
                        "time (e.g. engine:experiments/results/champions/"
                        "reversed_reversi_ntuple.json), or git:REV for file A as committed at "
                        "git revision REV; default: the committed champion with --numba off")
    p.add_argument("--time-out", type=float, default=0.5, help="seconds per move, both agents")
    p.add_argument("--openings", type=int, default=40, help="each played with both colours")
    p.add_argument("--plies", type=int, default=6, help="random plies of each opening")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=Path, default=ROOT / "outputs" / "cs303_match.jsonl",
                   help="finished games, one JSON line each (a rerun resumes from them)")
    args = p.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    with tempfile.TemporaryDirectory() as tmp:
        a_module = load(args.a, "cs303_a")
        agents = {"a": a_module, "b": opponent(args.b, Path(tmp), a_module, args.a)}
        rules = agents["a"]
        args.games.parent.mkdir(parents=True, exist_ok=True)
        done = [json.loads(line) for line in args.games.read_text().splitlines()] \
            if args.games.exists() else []
        key = {"time_out": args.time_out, "plies": args.plies, "seed": args.seed,
               "a": rel(args.a), "b": "pure twin" if args.b is None else args.b,
               "sources": [digest(m) for m in agents.values()]}  # a changed file starts anew
        done = [g for g in done if g["key"] == key]
        total, first = 2 * args.openings, len(done)
        started = time.perf_counter()
        for i in range(first, total):
            board, colour = opening(rules, args.seed * 100_003 + i // 2, args.plies)
            result = game(agents, BLACK if i % 2 == 0 else WHITE, board, colour, args.time_out,
                          rules)
            result.update(key=key, index=i)
            done.append(result)
            with args.games.open("a") as f:
                f.write(json.dumps(result) + "\n")
            per_game = (time.perf_counter() - started) / (i + 1 - first)
            points = sum(g["score_a"] for g in done)
            print(f"game {i + 1}/{total}: A {points:g}/{len(done)}, "
                  f"ETA {per_game * (total - i - 1) / 60:.0f} min", flush=True)
    wins = sum(g["score_a"] == 1.0 for g in done)
    draws = sum(g["score_a"] == 0.5 for g in done)
    losses = len(done) - wins - draws
    est = elo_estimate(wins, draws, losses)
    sides = {}
    for side in ("a", "b"):
        s = [g["stats"][side] for g in done]
        depths = [d for x in s for d in x["depths"]]
        sides[side] = {"moves": sum(x["moves"] for x in s),
                       "illegal": sum(x["illegal"] for x in s),
                       "over_time": sum(x["over_time"] for x in s),
                       "max_seconds": max(x["max_seconds"] for x in s),
                       "mean_depth": float(np.mean(depths)) if depths else 0.0,
                       "solved": sum(x.get("solved", 0) for x in s),
                       "proven_won": sum(x.get("proven_won", 0) for x in s)}
    data = {"key": key, "games": len(done), "wins": wins, "draws": draws, "losses": losses,
            **est.as_dict(), "sides": sides}
    low, high = est.elo_low, est.elo_high
    lines = [f"A `{key['a']}` against B ({key['b']}), {args.time_out:g} s a move each, "
             f"{args.openings} openings of {args.plies} random plies (seed {args.seed}), each "
             "with both colours; the agents' numba searches compiled before the first game.", "",
             f"**A scores {est.score:.3f}** ({wins} wins, {draws} draws, {losses} losses of "
             f"{len(done)}): Elo {est.elo:+.0f}, 95% CI [{low:+.0f}, {high:+.0f}].", "",
             "| agent | moves | mean depth completed | moves solved (won) | illegal | "
             "over time_out | slowest go (s) |", "|---|---:|---:|---:|---:|---:|---:|"]
    for side, s in sides.items():
        lines.append(f"| {side.upper()} | {s['moves']} | {s['mean_depth']:.2f} | {s['solved']} "
                     f"({s['proven_won']}) | {s['illegal']} | {s['over_time']} | "
                     f"{s['max_seconds']:.3f} |")
    write_result(args.out, "# CS303 agents, head to head at equal time", lines, stamp, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
