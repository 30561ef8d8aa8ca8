"""A champion file walked from the browser to the agent is read once: the catalogue's scan (a
loose file, a run without a config) or the session (a run with a config) reads it, and the
``Champion`` plays every move from there, in the server's threads and in worker processes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from engine.core import Champion, SearchSettings
from engine.core.champions.files import load_champion
from engine.web.app import create_app
from engine.web.workers import think_in_worker
from tests.engine.core.reads import count_opens
from tests.engine.web.api_client import TestClient

ROOT = Path(__file__).resolve().parents[3]
CHAMPION = ROOT / "experiments" / "results" / "champions" / "hexifence.json"
RUN = ROOT / "experiments" / "runs" / "hexifence"


def play_two_moves(client, champion_id: str) -> dict:
    body = {"game": "hexifence", "mode": "watch", "seed": 5, "search": {"depth": 1},
            "players": [{"type": "champion", "id": champion_id},
                        {"type": "agent", "spec": "chain"}]}
    response = client.post("/api/sessions", json=body)
    assert response.status_code == 201, response.text
    session = response.json()
    for _ in range(2):
        moved = client.post(f"/api/sessions/{session['id']}/agent-move")
        assert moved.status_code == 200, moved.text
    return session


def test_a_loose_champion_file_is_read_once_from_the_request_to_its_moves(tmp_path,
                                                                         monkeypatch):
    folder = tmp_path / "champions"
    folder.mkdir()
    shutil.copy(CHAMPION, folder / "hexifence.json")
    client = TestClient(create_app([folder]))
    opened = count_opens(monkeypatch, folder / "hexifence.json")
    session = play_two_moves(client, "champions/hexifence.json")
    assert len(opened) == 1, opened
    assert session["players"][0]["search"]["source"] == "champion file's play search"


def test_a_runs_champion_is_read_once_by_the_session(tmp_path, monkeypatch):
    run = tmp_path / "runs" / "hexifence"
    shutil.copytree(RUN / ".hydra", run / ".hydra")
    shutil.copy(RUN / "champion.json", run / "champion.json")
    client = TestClient(create_app([tmp_path / "runs"]))
    opened = count_opens(monkeypatch, run / "champion.json")
    play_two_moves(client, "runs/hexifence/champion.json")
    assert len(opened) == 1, opened


def test_a_run_without_a_config_is_read_once_by_the_scan_that_finds_its_game(tmp_path,
                                                                              monkeypatch):
    run = tmp_path / "runs" / "hexifence"
    run.mkdir(parents=True)
    shutil.copy(RUN / "champion.json", run / "champion.json")
    client = TestClient(create_app([tmp_path / "runs"]))
    opened = count_opens(monkeypatch, run / "champion.json")
    play_two_moves(client, "runs/hexifence/champion.json")
    assert len(opened) == 1, opened


def test_a_worker_plays_a_champion_without_its_file(tmp_path):
    path = tmp_path / "c.json"
    shutil.copy(CHAMPION, path)
    champion = load_champion(path)
    path.unlink()
    assert isinstance(champion, Champion)
    settings = json.loads(CHAMPION.read_text())["settings"]
    move, info = think_in_worker("s", 0, "hexifence", settings, champion,
                                 SearchSettings(depth=1, endgame_empties=0), 1, [])
    assert isinstance(move, int) and "worker" in info
