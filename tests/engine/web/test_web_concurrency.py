"""An agent's move runs off the event loop: while one agent thinks, the server still answers
other requests, and a second move request for the same game is refused instead of racing it;
in worker processes agents play exactly as in threads."""

from __future__ import annotations

import os
import signal
import threading
import warnings

import httpx

from engine.core import game_names
from engine.web import app as web_app
from engine.web.app import create_app
from engine.web.thinking import ProcessThinker
from tests.engine.web.server import serve

warnings.filterwarnings("ignore", message=".*httpx2.*")
from starlette.testclient import TestClient  # noqa: E402  (after the deprecation filter)

GAME = game_names()[0]


class BlockingAgent:
    """Thinks until the test lets it move (then plays its first legal move)."""

    name = "blocking"

    def __init__(self, game):
        self.game, self.thinking, self.release = game, threading.Event(), threading.Event()

    def select_move(self, state) -> int:
        self.thinking.set()
        assert self.release.wait(timeout=30), "the test never released the agent"
        self.last_info = {"eval": 0.25}
        return self.game.legal_moves(state)[0]

    def reset(self, seed=None) -> None:
        pass


def test_the_server_answers_while_an_agent_thinks(monkeypatch):
    agents = []

    def blocking_agents(game, choices, search, seeds):
        agents.extend(BlockingAgent(game) for _ in choices)
        return tuple(agents)

    monkeypatch.setattr(web_app, "_build_agents", blocking_agents)
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


def watch_moves(client, plies: int) -> tuple[str, list[str], list[dict]]:
    session = client.post("/api/sessions", json={
        "game": GAME, "mode": "watch", "seed": 11,
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
