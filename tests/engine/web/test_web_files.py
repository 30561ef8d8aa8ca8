"""Every file the app serves or loads resolves inside the ``--runs`` directories: a symlink that
leads out (a table, a champion, the champions folder, the Hydra config) is never listed, served,
read or played, while a link that stays inside a root works like the file it names."""

from __future__ import annotations

import shutil
import warnings

import pytest

from engine.core import game_names
from engine.web.app import create_app
from tests.engine.web.runs import make_run_dir

warnings.filterwarnings("ignore", message=".*httpx2.*")
from starlette.testclient import TestClient  # noqa: E402  (after the deprecation filter)

GAME = game_names()[0]
HUMAN = {"type": "human"}


@pytest.fixture()
def tree(tmp_path):
    """``outside/secret`` (a complete run nobody asked to serve) and ``root/run`` (a served run
    whose own files are replaced by links below)."""
    outside = make_run_dir(tmp_path / "outside" / "secret", GAME, games=2, seed=9)
    run = make_run_dir(tmp_path / "root" / "run", GAME, games=2)
    return tmp_path / "root", run, outside


def relink(path, target) -> None:
    """Replace ``path`` (a file or folder) by a symlink to ``target``."""
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink()
    path.symlink_to(target, target_is_directory=target.is_dir())


def play_champion(client, champion_id: str):
    return client.post("/api/sessions", json={
        "game": GAME, "mode": "play", "search": {"depth": 1},
        "players": [HUMAN, {"type": "champion", "id": champion_id}]})


@pytest.mark.parametrize("table", ["games", "yardstick_games"])
def test_a_table_linked_out_of_the_root_is_neither_listed_nor_served(tree, table):
    root, run, outside = tree
    relink(run / f"{table}.csv", outside / f"{table}.csv")
    client = TestClient(create_app([root]))
    listed = client.get("/api/runs").json()["runs"]
    assert [r["id"] for r in listed] == ["root/run"] and table not in listed[0]["tables"]
    served = client.get(f"/api/recorded?run=root/run&table={table}")
    assert served.status_code == 403 and "leads out of the --runs" in served.json()["error"]
    replay = client.post("/api/replays", json={"run": "root/run", "table": table, "row": 0})
    assert replay.status_code == 403


@pytest.mark.parametrize("champion", ["champion.json", "champions/gen_0001.json"])
def test_a_champion_linked_out_of_the_root_is_neither_listed_nor_played(tree, champion):
    root, run, outside = tree
    relink(run / champion, outside / champion)
    client = TestClient(create_app([root]))
    ids = [c["id"] for c in client.get("/api/champions").json()["champions"]]
    assert f"root/run/{champion}" not in ids and ids  # the run's other champions stay
    refused = play_champion(client, f"root/run/{champion}")
    assert refused.status_code == 404 and "unknown champion" in refused.json()["error"]


def test_a_champions_folder_linked_out_of_the_root_lists_none_of_its_files(tree):
    root, run, outside = tree
    relink(run / "champions", outside / "champions")
    client = TestClient(create_app([root]))
    ids = [c["id"] for c in client.get("/api/champions").json()["champions"]]
    assert ids == ["root/run/champion.json"]


def test_a_config_linked_out_of_the_root_is_not_read(tree, tmp_path):
    root, run, _ = tree
    elsewhere = tmp_path / "elsewhere.yaml"
    elsewhere.write_text(f"game:\n  name: {GAME}\n  nonsense: 1\n")  # would refuse every replay
    relink(run / ".hydra" / "config.yaml", elsewhere)
    client = TestClient(create_app([root]))
    replay = client.post("/api/replays", json={"run": "root/run", "table": "games", "row": 0})
    assert replay.status_code == 201, replay.text  # the game came from the champion files


def test_links_that_stay_inside_the_root_work_like_their_files(tree):
    root, run, _ = tree
    other = make_run_dir(root / "other", GAME, games=2, seed=5)
    relink(run / "games.csv", other / "games.csv")
    relink(run / "champion.json", other / "champion.json")
    client = TestClient(create_app([root]))
    listing = client.get("/api/recorded?run=root/run&table=games").json()
    assert listing["rows"] == client.get("/api/recorded?run=root/other&table=games").json()["rows"]
    assert play_champion(client, "root/run/champion.json").status_code == 201


def test_a_runs_folder_linked_out_of_the_root_is_never_scanned(tree):
    root, _, outside = tree
    (root / "link").symlink_to(outside.parent, target_is_directory=True)
    client = TestClient(create_app([root]))
    assert [r["id"] for r in client.get("/api/runs").json()["runs"]] == ["root/run"]
