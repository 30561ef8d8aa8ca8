"""Latency of the browser board's server, two measurements (run them on a quiet machine; the
numbers in experiments/notes/web.md come from these commands):

    python -m tests.engine.web.latency health [--seconds 3] [--moves 3]
    python -m tests.engine.web.latency sessions [--sessions 20] [--moves 10] [--workers 1]

``health``: for each registered game, a watch session of the game's search agent against itself
asks for ``--moves`` moves at ``--seconds`` per move while another thread polls
``GET /api/health`` every 50 ms, with agents thinking in the server's threads and in a worker
process; prints the median and worst wait.

``sessions``: for each registered game, ``--sessions`` watch sessions of its search agent at
depth ``--depth`` make ``--moves`` moves each at the same time through ``--workers`` worker
processes (the command line's setup, its default limits); a 429 (line full) is asked again after
``--retry`` seconds. Prints the percentiles of an agent move's latency as a page sees it (429s
and their retries included), how many 429s there were, and the percentiles of
``GET /api/health`` meanwhile."""

from __future__ import annotations

import argparse
import sys
import threading
import time

import httpx
import numpy as np

from engine.core import game_names, get_game
from engine.web.app import create_app
from engine.web.limits import Limits
from engine.web.thinking import ProcessThinker
from tests.engine.web.server import serve

SEARCH_SPECS = ("course", "alphabeta")  # the first a game offers is its alpha-beta agent
PERCENTILES = (50, 90, 99, 100)


def search_spec(game: str) -> str:
    return next(s for s in SEARCH_SPECS if s in get_game(game).agent_specs())


def health_waits(url: str, game: str, spec: str, seconds: float, moves: int) -> list[float]:
    with httpx.Client(base_url=url, timeout=600) as client:
        session = client.post("/api/sessions", json={
            "game": game, "mode": "watch", "search": {"depth": 12, "time_limit": seconds},
            "players": [{"type": "agent", "spec": spec}] * 2}).json()
        client.post(f"/api/sessions/{session['id']}/agent-move")  # compile / load numba first
        thinking = threading.Thread(target=lambda: [
            client.post(f"/api/sessions/{session['id']}/agent-move") for _ in range(moves)])
        thinking.start()
        return poll_health(url, thinking)


def poll_health(url: str, busy: threading.Thread) -> list[float]:
    """Seconds each ``GET /api/health`` took, every 50 ms while ``busy`` runs."""
    waits = []
    while busy.is_alive():
        start = time.perf_counter()
        httpx.get(f"{url}/api/health", timeout=600)
        waits.append(time.perf_counter() - start)
        time.sleep(0.05)
    return sorted(waits)


def health_table(args) -> None:
    print("| agent | in a server thread: median, worst | in a worker process: median, worst |")
    print("| --- | --- | --- |")
    thinker = ProcessThinker(1, Limits(max_seconds=max(10.0, args.seconds),
                                       move_seconds=max(30.0, 3 * args.seconds)))
    try:
        with serve(create_app([], limits=thinker.limits)) as threads, \
                serve(create_app([], thinker=thinker)) as process:
            for game in game_names():
                spec, cells = search_spec(game), []
                for url in (threads, process):
                    waits = health_waits(url, game, spec, args.seconds, args.moves)
                    cells.append(f"{waits[len(waits) // 2]:.2f} s, {waits[-1]:.2f} s")
                print(f"| {game} `{spec}` | {cells[0]} | {cells[1]} |", flush=True)
    finally:
        thinker.close()


def session_moves(url: str, game: str, spec: str, args, seed: int,
                  latencies: list[float], refused: list[int]) -> None:
    """One tab: a watch session making ``args.moves`` moves, each timed until it is played."""
    with httpx.Client(base_url=url, timeout=600) as client:
        session = client.post("/api/sessions", json={
            "game": game, "mode": "watch", "seed": seed, "search": {"depth": args.depth},
            "players": [{"type": "agent", "spec": spec}] * 2}).json()
        for _ in range(args.moves):
            start = time.perf_counter()
            while (reply := client.post(f"/api/sessions/{session['id']}/agent-move")) \
                    .status_code == 429:
                refused.append(1)
                time.sleep(args.retry)
            latencies.append(time.perf_counter() - start)
            if reply.json()["terminal"]:
                break


def sessions_table(args) -> None:
    print(f"{args.sessions} sessions x {args.moves} moves at depth {args.depth}, "
          f"{args.workers} worker(s), default limits\n")
    print("| agent | agent move p50, p90, p99, max | 429s | health p50, p90, p99, max |")
    print("| --- | --- | --- | --- |")
    thinker = ProcessThinker(args.workers, Limits())
    try:
        with serve(create_app([], thinker=thinker)) as url:
            for game in game_names():
                spec = search_spec(game)
                warm = [], []
                session_moves(url, game, spec, argparse.Namespace(**{**vars(args), "moves": 1}),
                              0, *warm)  # numba loaded in the worker(s) before timing
                latencies, refused = [], []
                tabs = [threading.Thread(target=session_moves, args=(
                    url, game, spec, args, seed, latencies, refused))
                    for seed in range(1, args.sessions + 1)]
                for tab in tabs:
                    tab.start()
                everyone = threading.Thread(target=_join_all, args=(tabs,))
                everyone.start()
                health = poll_health(url, everyone)
                print(f"| {game} `{spec}` | {_percentiles(latencies)} | {len(refused)} | "
                      f"{_percentiles(health)} |", flush=True)
    finally:
        thinker.close()


def _join_all(threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.join()


def _percentiles(values: list[float]) -> str:
    return ", ".join(f"{np.percentile(values, p):.2f}" for p in PERCENTILES) + " s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    health = sub.add_parser("health", help="GET /api/health while an agent searches")
    health.add_argument("--seconds", type=float, default=3.0, help="search time per move")
    health.add_argument("--moves", type=int, default=3, help="moves timed per game")
    sessions = sub.add_parser("sessions", help="many sessions moving at once")
    sessions.add_argument("--sessions", type=int, default=20)
    sessions.add_argument("--moves", type=int, default=10, help="moves per session")
    sessions.add_argument("--depth", type=int, default=3, help="the agents' search depth")
    sessions.add_argument("--workers", type=int, default=1, help="agent worker processes")
    sessions.add_argument("--retry", type=float, default=0.2, help="seconds before a 429 retry")
    args = parser.parse_args(argv)
    (health_table if args.what == "health" else sessions_table)(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
