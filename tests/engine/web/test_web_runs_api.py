"""The web app's JSON API for what runs hold: champions listed and played, recorded games
listed, filtered and replayed ply by ply, a run's game settings, and 4xx for bad run configs."""

from __future__ import annotations

import json

import pytest

from engine.core import get_game
from engine.core.matches.runner import replay
from engine.web.app import create_app
from engine.web.recorded import parse_recorded_moves
from tests.engine.web.api_client import GAMES, TestClient, agent_replies, fast_agent
from tests.engine.web.runs import make_run_dir, play_random_games, winner_name


@pytest.mark.parametrize("game_name", GAMES)
def test_every_champion_of_a_run_is_listed_and_playable(client, game_name):
    champions = client.get(f"/api/champions?game={game_name}").json()["champions"]
    assert {c["game"] for c in champions} == {game_name}
    assert sorted(c["generation"] for c in champions if c["generation"] is not None) == [0, 1]
    final = next(c for c in champions if c["generation"] is None)
    response = client.post("/api/sessions", json={
        "game": game_name, "mode": "watch", "search": {"depth": 1},
        "players": [{"type": "champion", "id": final["id"]}, {"type": "agent", "spec": "random"}]})
    assert response.status_code == 201, response.text
    moved = client.post(f"/api/sessions/{response.json()['id']}/agent-move")
    assert moved.status_code == 200 and moved.json()["plies"] == 1


@pytest.mark.parametrize("game_name", GAMES)
def test_a_champion_with_seconds_per_move_reports_its_evaluation(client, game_name):
    final = next(c for c in client.get(f"/api/champions?game={game_name}").json()["champions"]
                 if c["generation"] is None)
    session = client.post("/api/sessions", json={
        "game": game_name, "mode": "play", "search": {"time_limit": 0.05, "depth": 12},
        "players": [{"type": "human"}, {"type": "champion", "id": final["id"]}]}).json()
    move = session["legal"][0]["id"]
    session = client.post(f"/api/sessions/{session['id']}/move", json={"move": move}).json()
    reply = agent_replies(client, session)["last_move"]
    assert reply["player"] == 1
    assert {"eval", "win_rate"} & set(reply["info"]), reply["info"]


def test_a_champion_of_another_game_is_refused(client):
    if len(GAMES) < 2:
        pytest.skip("needs two registered games")
    other = client.get(f"/api/champions?game={GAMES[1]}").json()["champions"][0]
    response = client.post("/api/sessions", json={
        "game": GAMES[0], "mode": "play",
        "players": [{"type": "human"}, {"type": "champion", "id": other["id"]}]})
    assert response.status_code == 400 and f"not {GAMES[0]}" in response.json()["error"]


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("table", ["games", "yardstick_games"])
def test_a_recorded_game_replays_ply_by_ply_to_the_recorded_result(client, game_name, table):
    listing = client.get(f"/api/recorded?run={client_run(client, game_name)}&table={table}").json()
    assert listing["replayable"] and listing["total"] >= 2
    row = listing["rows"][1]
    session = client.post("/api/replays", json={"run": listing["run"], "table": table,
                                                "row": row["row"]}).json()
    game = get_game(game_name)
    moves = parse_recorded_moves(game, row["moves"])
    assert session["ply"] == 0 and session["plies"] == len(moves)
    for ply in (1, len(moves) // 2, len(moves)):
        view = client.get(f"/api/sessions/{session['id']}?ply={ply}").json()
        expected = replay(game, moves[:ply])
        assert view["view"] == json.loads(json.dumps(game.state_view(expected), default=int))
    assert view["terminal"]
    assert winner_name(game, game.outcome(expected, moves).winner) == row["winner"]
    for action, body in (("move", {"move": moves[0]}), ("agent-move", None), ("undo", None)):
        refused = client.post(f"/api/sessions/{session['id']}/{action}", json=body)
        assert refused.status_code == 409, action


@pytest.mark.parametrize("game_name", GAMES)
def test_recorded_moves_parse_joined_by_commas_and_by_spaces_alone(game_name):
    """Commas (what ``moves_text`` writes for move texts holding spaces) and, for tables written
    before that, spaces alone: both give back the moves that were played."""
    game = get_game(game_name)
    moves = play_random_games(game, 1, seed=4)[0].moves
    texts = [game.move_text(m) for m in moves]
    assert parse_recorded_moves(game, ",".join(texts)) == tuple(moves)
    assert parse_recorded_moves(game, " ".join(texts)) == tuple(moves)
    with pytest.raises(ValueError):
        parse_recorded_moves(game, " ".join(texts[:-1] + ["nonsense"]))


def client_run(client, game_name: str) -> str:
    return next(r["id"] for r in client.get("/api/runs").json()["runs"]
                if r["game"] == game_name)


def test_recorded_games_filter_by_generation_player_and_result(client):
    run = client_run(client, GAMES[0])
    everything = client.get(f"/api/recorded?run={run}").json()
    by_generation = client.get(f"/api/recorded?run={run}&generation=1").json()
    assert by_generation["total"] == sum(r["generation"] == "1" for r in everything["rows"]) > 0
    player = everything["rows"][0][everything["player_columns"][0]]
    by_player = client.get(f"/api/recorded?run={run}&player={player}").json()
    assert by_player["total"] >= 1 and all(
        player in (r[c] for c in everything["player_columns"]) for r in by_player["rows"])
    winner = everything["filters"]["winner"][0]
    by_winner = client.get(f"/api/recorded?run={run}&winner={winner}").json()
    assert by_winner["total"] == sum(r["winner"] == winner for r in everything["rows"])


def test_a_table_recorded_without_moves_lists_but_does_not_replay(tmp_path):
    run = tmp_path / "old_run"
    make_run_dir(run, GAMES[0], games=2)
    lines = (run / "games.csv").read_text().splitlines()
    (run / "games.csv").write_text("\n".join(line.rsplit(",", 1)[0] for line in lines) + "\n")
    client = TestClient(create_app([run]))
    listing = client.get("/api/recorded?run=old_run").json()
    assert listing["total"] == 2 and not listing["replayable"]
    response = client.post("/api/replays", json={"run": "old_run", "table": "games", "row": 0})
    assert response.status_code == 422 and "no moves column" in response.json()["error"]


def test_a_runs_game_settings_configure_its_replays_and_its_champions_games(tmp_path):
    settings = {"genome": {"phases": 2}}
    make_run_dir(tmp_path / "two_phases", GAMES[0], games=2, settings=settings)
    expected = get_game(GAMES[0], settings).settings()
    assert expected != get_game(GAMES[0]).settings()
    client = TestClient(create_app([tmp_path / "two_phases"]))
    replayed = client.post("/api/replays", json={"run": "two_phases", "table": "games", "row": 0})
    assert replayed.status_code == 201 and replayed.json()["settings"] == expected
    champion = client.get("/api/champions").json()["champions"][0]
    played = client.post("/api/sessions", json={
        "game": GAMES[0], "mode": "play", "search": {"depth": 1},
        "players": [{"type": "human"}, {"type": "champion", "id": champion["id"]}]})
    assert played.status_code == 201 and played.json()["settings"] == expected


def test_game_settings_asked_for_configure_the_sessions_game(client):
    settings = {"genome": {"phases": 2}}
    response = client.post("/api/sessions", json={
        "game": GAMES[0], "mode": "play", "settings": settings,
        "players": [{"type": "human"}, {"type": "agent", "spec": fast_agent(GAMES[0])}]})
    assert response.status_code == 201
    assert response.json()["settings"] == get_game(GAMES[0], settings).settings()


def test_bad_game_settings_in_a_run_config_are_a_4xx_naming_the_key(tmp_path):
    make_run_dir(tmp_path / "bad", GAMES[0], games=2)
    (tmp_path / "bad" / ".hydra" / "config.yaml").write_text(
        f"game:\n  name: {GAMES[0]}\n  genome: {{phases: 0}}\n")
    client = TestClient(create_app([tmp_path / "bad"]))
    replayed = client.post("/api/replays", json={"run": "bad", "table": "games", "row": 0})
    assert replayed.status_code == 422 and "phases" in replayed.json()["error"]
    champion = client.get("/api/champions").json()["champions"][0]
    played = client.post("/api/sessions", json={
        "game": GAMES[0], "mode": "play",
        "players": [{"type": "human"}, {"type": "champion", "id": champion["id"]}]})
    assert played.status_code == 400 and "phases" in played.json()["error"]


def strip_moves(run) -> None:
    """``run``'s tables as the GA wrote them before it recorded moves."""
    for table in ("games.csv", "yardstick_games.csv"):
        lines = (run / table).read_text().splitlines()
        (run / table).write_text("\n".join(line.rsplit(",", 1)[0] for line in lines) + "\n")


def test_legacy_runs_are_marked_and_listed_after_the_current_ones(tmp_path):
    """The committed runs' case: ``runs/legacy/othello`` (no moves recorded) was listed first and
    read the same as ``runs/othello``; ``pentago_twist · final`` showed twice."""
    game = GAMES[0]
    root = tmp_path / "runs"
    for run in (root / "legacy" / game, root / "legacy" / "old", root / game, root / "zeta"):
        make_run_dir(run, game, games=2)
    strip_moves(root / "legacy" / game)
    strip_moves(root / "zeta")
    client = TestClient(create_app([root]))
    runs = [(r["id"], r["name"], r["replayable"], r["legacy"])
            for r in client.get("/api/runs").json()["runs"]]
    assert runs == [(f"runs/{game}", game, True, False),
                    ("runs/legacy/old", "old (legacy)", True, True),
                    ("runs/zeta", "zeta (cannot be replayed)", False, False),
                    (f"runs/legacy/{game}", f"{game} (legacy, cannot be replayed)", False, True)]
    finals = [(c["run"], c["name"], c["legacy"]) for c in
              client.get(f"/api/champions?game={game}").json()["champions"]
              if c["generation"] is None]
    assert set(finals) == {(f"runs/{game}", game, False),
                           (f"runs/legacy/{game}", f"{game} (legacy)", True),
                           ("runs/legacy/old", "old (legacy)", True), ("runs/zeta", "zeta", False)}


def test_runs_that_would_read_the_same_are_named_by_their_ids(tmp_path):
    game = GAMES[0]
    for root in ("a", "b"):
        make_run_dir(tmp_path / root / "runs" / game, game, games=2)
    client = TestClient(create_app([tmp_path / "a" / "runs", tmp_path / "b" / "runs"]))
    names = sorted(r["name"] for r in client.get("/api/runs").json()["runs"])
    assert names == [f"runs-2/{game}", f"runs/{game}"]
    finals = {c["name"] for c in client.get(f"/api/champions?game={game}").json()["champions"]}
    assert finals == {f"runs-2/{game}", f"runs/{game}"}
