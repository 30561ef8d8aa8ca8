"""Shared by the web API tests: a few requests they all make (their ``client`` fixture, a test
client over run directories of every registered game, is in ``conftest.py``)."""

from __future__ import annotations

import warnings

from engine.core import game_names, get_game

warnings.filterwarnings("ignore", message=".*httpx2.*")
from starlette.testclient import TestClient  # noqa: E402  (after the deprecation filter)

__all__ = ["GAMES", "TestClient", "agent_replies", "fast_agent", "new_play"]

GAMES = game_names()


def fast_agent(game_name: str) -> str:
    return "random" if "random" in get_game(game_name).agent_specs() else "greedy"


def new_play(client, game: str, human: int = 0, seed: int = 1) -> dict:
    players = [{"type": "agent", "spec": fast_agent(game)}] * 2
    players[human] = {"type": "human"}
    response = client.post("/api/sessions", json={"game": game, "mode": "play", "players": players,
                                                  "search": {"depth": 1}, "seed": seed})
    assert response.status_code == 201, response.text
    return response.json()


def agent_replies(client, session: dict) -> dict:
    while not session["terminal"] and not session["human_to_move"]:
        response = client.post(f"/api/sessions/{session['id']}/agent-move")
        assert response.status_code == 200, response.text
        session = response.json()
    return session
