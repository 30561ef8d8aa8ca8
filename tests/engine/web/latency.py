"""How long a trivial request waits while an agent searches, with agents thinking in the
server's threads and in a worker process:

    python -m tests.engine.web.latency [--seconds 3] [--moves 3]

For each registered game, a watch session of the game's search agent against itself asks for
``--moves`` moves at ``--seconds`` per move while another thread polls ``GET /api/health`` every
50 ms; prints the median and worst wait in a Markdown table."""

from __future__ import annotations

import argparse
import sys
import threading
import time

import httpx

from engine.core import game_names, get_game
from engine.web.app import create_app
from engine.web.thinking import ProcessThinker
from tests.engine.web.server import serve

SEARCH_SPECS = ("course", "alphabeta")  # the first a game offers is its alpha-beta agent


def health_waits(url: str, game: str, spec: str, seconds: float, moves: int) -> list[float]:
    with httpx.Client(base_url=url, timeout=600) as client:
        session = client.post("/api/sessions", json={
            "game": game, "mode": "watch", "search": {"depth": 12, "time_limit": seconds},
            "players": [{"type": "agent", "spec": spec}] * 2}).json()
        client.post(f"/api/sessions/{session['id']}/agent-move")  # compile / load numba first
        thinking = threading.Thread(target=lambda: [
            client.post(f"/api/sessions/{session['id']}/agent-move") for _ in range(moves)])
        thinking.start()
        waits = []
        while thinking.is_alive():
            start = time.perf_counter()
            httpx.get(f"{url}/api/health", timeout=600)
            waits.append(time.perf_counter() - start)
            time.sleep(0.05)
        return sorted(waits)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="search time per move")
    parser.add_argument("--moves", type=int, default=3, help="moves timed per game")
    args = parser.parse_args(argv)
    print("| agent | in a server thread: median, worst | in a worker process: median, worst |")
    print("| --- | --- | --- |")
    thinker = ProcessThinker(1)
    try:
        with serve(create_app([])) as threads, serve(create_app([], thinker=thinker)) as process:
            for game in game_names():
                spec = next(s for s in SEARCH_SPECS if s in get_game(game).agent_specs())
                cells = []
                for url in (threads, process):
                    waits = health_waits(url, game, spec, args.seconds, args.moves)
                    cells.append(f"{waits[len(waits) // 2]:.2f} s, {waits[-1]:.2f} s")
                print(f"| {game} `{spec}` | {cells[0]} | {cells[1]} |", flush=True)
    finally:
        thinker.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
