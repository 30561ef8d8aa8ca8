"""An agent's move runs off the event loop: while one agent thinks, the server still answers
other requests, and a second move request for the same game is refused instead of racing it;
in worker processes agents play exactly as in threads, twenty sessions moving at once through
two workers each play their own game, and stopping the server stops every worker at once,
leaving no process, semaphore or traceback behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import warnings

import httpx
import pytest

from engine.core import game_names
from engine.web import app as web_app
from engine.web import play as web_play
from engine.web.app import create_app
from engine.web.limits import Limits
from engine.web.thinking import ProcessThinker
from tests.engine.web.agents import BlockingAgent
from tests.engine.web.server import serve

warnings.filterwarnings("ignore", message=".*httpx2.*")
from starlette.testclient import TestClient  # noqa: E402  (after the deprecation filter)

GAME = game_names()[0]


def test_the_server_answers_while_an_agent_thinks(monkeypatch):
    agents = []

    def blocking_agents(game, choices, search, seeds):
        agents.extend(BlockingAgent(game) for _ in choices)
        return tuple(agents)

    monkeypatch.setattr(web_play, "_build_agents", blocking_agents)
    with serve(web_app.create_app([])) as url, httpx.Client(base_url=url, timeout=10) as client:
        session = client.post("/api/sessions", json={
            "game": GAME, "mode": "watch",
            "players": [{"type": "agent", "spec": "random"}] * 2}).json()
        replies = []
        mover = threading.Thread(target=lambda: replies.append(
            httpx.post(f"{url}/api/sessions/{session['id']}/agent-move", timeout=30)))
        mover.start()
        assert agents[0].thinking.wait(timeout=10)
        assert client.get("/api/health").json() == {"ok": True}
        assert client.get(f"/api/sessions/{session['id']}").json()["plies"] == 0
        again = client.post(f"/api/sessions/{session['id']}/agent-move")
        assert again.status_code == 409 and "already thinking" in again.json()["error"]
        other = client.post("/api/sessions", json={
            "game": GAME, "mode": "play", "players": [{"type": "human"}, {"type": "agent",
                                                                          "spec": "random"}]})
        assert other.status_code == 201
        agents[0].release.set()
        mover.join(timeout=30)
        assert replies[0].status_code == 200
        assert replies[0].json()["last_move"]["info"]["eval"] == 0.25


def watch_moves(client, plies: int, seed: int = 11) -> tuple[str, list[str], list[dict]]:
    session = client.post("/api/sessions", json={
        "game": GAME, "mode": "watch", "seed": seed,
        "players": [{"type": "agent", "spec": "random"}] * 2}).json()
    infos = []
    for _ in range(plies):
        session = client.post(f"/api/sessions/{session['id']}/agent-move").json()
        infos.append(session["last_move"]["info"])
    return session["id"], session["moves"], infos


def test_agents_in_a_worker_process_play_as_in_threads_and_survive_a_killed_worker():
    with TestClient(create_app([])) as client:
        _, in_threads, _ = watch_moves(client, 12)
    with TestClient(create_app([], thinker=ProcessThinker(1))) as client:  # closed on exit
        session_id, in_process, infos = watch_moves(client, 12)
        assert in_process == in_threads
        worker = infos[0]["worker"]
        assert {info["worker"] for info in infos} == {worker} and worker != os.getpid()
        os.kill(worker, signal.SIGKILL)
        url = f"/api/sessions/{session_id}/agent-move"
        lost = client.post(url)
        assert lost.status_code == 503 and "worker process stopped" in lost.json()["error"]
        assert client.post(url).json()["last_move"]["info"]["worker"] != worker


SESSIONS, MOVES = 20, 6


def moves_retrying_when_busy(url: str, seed: int) -> tuple[list[str], int, set[int]]:
    """``MOVES`` agent moves of a new watched game (asked again after a 429): its moves, how
    many times the line was full, the workers that thought."""
    with httpx.Client(base_url=url, timeout=120) as client:
        session = client.post("/api/sessions", json={
            "game": GAME, "mode": "watch", "seed": seed,
            "players": [{"type": "agent", "spec": "random"}] * 2}).json()
        busy, workers = 0, set()
        while session["plies"] < MOVES and not session["terminal"]:
            reply = client.post(f"/api/sessions/{session['id']}/agent-move")
            if reply.status_code == 429:
                busy += 1
                time.sleep(0.05)
                continue
            assert reply.status_code == 200, reply.text
            session = reply.json()
            workers.add(session["last_move"]["info"].get("worker"))
        return session["moves"], busy, workers


def test_twenty_sessions_moving_at_once_through_two_workers_each_play_their_own_game():
    with TestClient(create_app([])) as client:
        alone = {seed: watch_moves(client, MOVES, seed)[1] for seed in range(SESSIONS)}
    thinker = ProcessThinker(2, Limits(queue=8))  # 10 in at once: the others are sent back
    results = {}
    try:
        with serve(create_app([], thinker=thinker)) as url:
            players = [threading.Thread(target=lambda s=s: results.__setitem__(
                s, moves_retrying_when_busy(url, s))) for s in range(SESSIONS)]
            for player in players:
                player.start()
            for player in players:
                player.join(timeout=600)
    finally:
        thinker.close()
    assert sorted(results) == list(range(SESSIONS))
    assert {seed: moves for seed, (moves, _, _) in results.items()} == alone
    assert len(set().union(*(workers for _, _, workers in results.values()))) <= 2


def test_stopping_the_server_mid_search_stops_every_worker_and_leaves_nothing_behind():
    """Ctrl-C while a depth-12 search runs (hours) and after a worker was replaced: the server
    exits at once with 0; its stderr reaches end-of-file (so no worker nor the resource tracker
    outlives it) holding no traceback and no leaked-semaphore warning."""
    game = next((g for g in ("hexifence", "pentago_twist") if g in game_names()), None)
    if game is None:
        pytest.skip("needs a game whose depth-12 search runs for long")
    process = subprocess.Popen([sys.executable, "-m", "engine.web", "--port", "0",
                                "--agent-workers", "2"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    stderr = []
    reader = threading.Thread(target=lambda: stderr.append(process.stderr.read()))
    reader.start()
    try:
        url = process.stdout.readline().split(": ", 1)[1].strip()
        with httpx.Client(base_url=url, timeout=120) as client:
            session = client.post("/api/sessions", json={
                "game": game, "mode": "watch", "search": {"depth": 1},
                "players": [{"type": "agent", "spec": "alphabeta"}] * 2}).json()
            move = f"/api/sessions/{session['id']}/agent-move"
            os.kill(client.post(move).json()["last_move"]["info"]["worker"], signal.SIGKILL)
            statuses = [client.post(move).status_code for _ in range(3)]
            assert 503 in statuses  # the killed worker, when its turn came, then replaced
            heavy = client.post("/api/sessions", json={
                "game": game, "mode": "watch", "search": {"depth": 12},
                "players": [{"type": "agent", "spec": "alphabeta"}] * 2}).json()
            replies = []
            mover = threading.Thread(target=lambda: replies.append(
                httpx.post(f"{url}api/sessions/{heavy['id']}/agent-move", timeout=120)))
            mover.start()
            time.sleep(1)  # the search is under way (if not, the 503 below still holds)
            process.send_signal(signal.SIGINT)
            mover.join(timeout=60)
        assert replies and replies[0].status_code == 503, replies
        assert "the server is stopping" in replies[0].json()["error"]
        assert process.wait(timeout=60) == 0
        reader.join(timeout=60)
        assert not reader.is_alive(), "a process that inherited the server's stderr lives on"
    finally:
        process.kill()
        process.wait()
    assert "Traceback" not in stderr[0] and "leaked" not in stderr[0], stderr[0]
