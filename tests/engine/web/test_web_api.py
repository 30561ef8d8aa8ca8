"""The web app's JSON API through Starlette's test client: whole games of every registered game,
undo, illegal moves, champions and replays from run directories, and 4xx for bad requests."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from engine.core import game_names, get_game, parse_moves
from engine.core.match import replay
from engine.web.app import create_app
from engine.web.recorded import parse_recorded_moves
from engine.web.sessions import SessionStore
from tests.engine.web.runs import make_run_dir, play_random_games, winner_name

warnings.filterwarnings("ignore", message=".*httpx2.*")
from starlette.testclient import TestClient  # noqa: E402  (after the deprecation filter)

GAMES = game_names()


def fast_agent(game_name: str) -> str:
    return "random" if "random" in get_game(game_name).agent_specs() else "greedy"


@pytest.fixture(scope="module")
def runs_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    for name in GAMES:
        make_run_dir(root / name, name)
    return root


@pytest.fixture(scope="module")
def client(runs_root):
    return TestClient(create_app([runs_root]))


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


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("human", [0, 1])
def test_a_person_plays_a_whole_game_and_the_result_matches_the_contract(client, game_name, human):
    rng = np.random.default_rng(7)
    session = agent_replies(client, new_play(client, game_name, human))
    while not session["terminal"]:
        assert session["to_move"] == human and session["legal"]
        move = session["legal"][int(rng.integers(len(session["legal"])))]["id"]
        response = client.post(f"/api/sessions/{session['id']}/move", json={"move": move})
        assert response.status_code == 200, response.text
        session = agent_replies(client, response.json())
    game = get_game(game_name)
    moves = parse_moves(game, ",".join(session["moves"]))
    final = replay(game, moves)
    assert session["view"] == json.loads(json.dumps(game.state_view(final), default=int))
    outcome = game.outcome(final, moves)
    assert session["result"]["winner"] == (None if outcome.winner < 0 else outcome.winner)
    assert session["legal"] == [] and session["to_move"] is None
    late = client.post(f"/api/sessions/{session['id']}/move", json={"move": moves[-1]})
    assert late.status_code == 409 and late.json()["error"] == "the game is over"


@pytest.mark.parametrize("game_name", GAMES)
def test_an_illegal_move_is_refused_with_the_games_reason_and_changes_nothing(client, game_name):
    game = get_game(game_name)
    session = new_play(client, game_name)
    legal = {m["id"] for m in session["legal"]}
    illegal = next(m for m in range(100_000) if m not in legal)
    try:
        game.apply(game.initial_state(), illegal)
        pytest.fail(f"the game accepted move {illegal}, which it did not list as legal")
    except ValueError as err:
        reason = str(err)
    response = client.post(f"/api/sessions/{session['id']}/move", json={"move": illegal})
    assert response.status_code == 400
    assert reason in response.json()["error"]
    assert client.get(f"/api/sessions/{session['id']}").json()["plies"] == 0


@pytest.mark.parametrize("game_name", GAMES)
def test_undo_takes_back_the_persons_move_and_the_agents_reply(client, game_name):
    session = new_play(client, game_name)
    start = session["view"]
    move = session["legal"][0]["id"]
    session = agent_replies(client, client.post(f"/api/sessions/{session['id']}/move",
                                                json={"move": move}).json())
    assert session["plies"] >= 1
    undone = client.post(f"/api/sessions/{session['id']}/undo").json()
    assert undone["plies"] == 0 and undone["view"] == start and undone["human_to_move"]
    again = client.post(f"/api/sessions/{session['id']}/undo")
    assert again.status_code == 409 and "no move to take back" in again.json()["error"]


def test_moving_out_of_turn_is_a_conflict_not_a_move(client):
    session = new_play(client, GAMES[0], human=1)
    response = client.post(f"/api/sessions/{session['id']}/move",
                           json={"move": session["legal"][0]["id"]})
    assert response.status_code == 409 and "not your move" in response.json()["error"]


def test_sessions_in_different_tabs_do_not_share_state(client):
    first, second = new_play(client, GAMES[0]), new_play(client, GAMES[0])
    client.post(f"/api/sessions/{first['id']}/move", json={"move": first["legal"][0]["id"]})
    assert client.get(f"/api/sessions/{first['id']}").json()["plies"] == 1
    assert client.get(f"/api/sessions/{second['id']}").json()["plies"] == 0


@pytest.mark.parametrize("game_name", GAMES)
def test_two_agents_watched_move_by_move_finish_the_game(client, game_name):
    spec = fast_agent(game_name)
    session = client.post("/api/sessions", json={
        "game": game_name, "mode": "watch", "seed": 3,
        "players": [{"type": "agent", "spec": spec}, {"type": "agent", "spec": spec}]}).json()
    while not session["terminal"]:
        session = client.post(f"/api/sessions/{session['id']}/agent-move").json()
        assert session["last_move"]["info"] is not None
    assert session["result"]["text"]
    after = client.post(f"/api/sessions/{session['id']}/agent-move")
    assert after.status_code == 409 and "over" in after.json()["error"]


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


def test_the_session_store_drops_the_least_recently_used_game(client):
    store = SessionStore(limit=2)
    small = TestClient(create_app([], store=store))
    ids = [new_play(small, GAMES[0])["id"] for _ in range(3)]
    assert small.get(f"/api/sessions/{ids[0]}").status_code == 404
    assert small.get(f"/api/sessions/{ids[2]}").status_code == 200


@pytest.mark.parametrize("game_name", GAMES)
def test_a_view_labels_every_move_for_people_and_keeps_the_text_for_files(client, game_name):
    game, rng = get_game(game_name), np.random.default_rng(2)
    session = new_play(client, game_name)
    for _ in range(4):
        if session["terminal"]:
            break
        if session["human_to_move"]:
            move = session["legal"][int(rng.integers(len(session["legal"])))]["id"]
            session = client.post(f"/api/sessions/{session['id']}/move", json={"move": move}).json()
        session = agent_replies(client, session)
    moves = parse_moves(game, ",".join(session["moves"]))
    states = [replay(game, moves[:i]) for i in range(len(moves) + 1)]
    before = states[:-1]  # each move's label is read in the position it was played from
    assert session["labels"] == [game.move_label(m, s) for m, s in zip(moves, before, strict=True)]
    assert session["moves"] == [game.move_text(m) for m in moves]
    assert session["last_move"]["label"] == game.move_label(moves[-1], states[-2])
    assert [m["label"] for m in session["legal"]] == [
        game.move_label(m["id"], states[-1]) for m in session["legal"]]


@pytest.mark.parametrize("game_name", GAMES)
def test_the_games_list_says_which_specs_search_and_the_default_settings(client, game_name):
    listed = next(g for g in client.get("/api/games").json()["games"] if g["name"] == game_name)
    game = get_game(game_name)
    plain = [s for s in game.agent_specs() if "<" not in s]
    assert listed["searching_specs"] == [s for s in plain if game.spec_searches(s)]
    assert listed["settings"] == game.settings()
    for spec in plain:
        answer = client.get(f"/api/spec?game={game_name}&spec={spec}")
        try:
            game.check_spec(spec)
        except ValueError as err:  # listed, but not on this board (Hexifence's perfect agent)
            assert answer.status_code == 400 and str(err) in answer.json()["error"]
            continue
        assert answer.json() == {"spec": spec, "searches": game.spec_searches(spec)}
    refused = client.get(f"/api/spec?game={game_name}&spec=../x.json")
    assert refused.status_code == 400 and "names no file" in refused.json()["error"]


def test_champions_carry_their_study_and_whether_they_search(client, runs_root):
    for champion in client.get("/api/champions").json()["champions"]:
        assert champion["study"] == runs_root.name and champion["name"] == champion["game"]
        path = runs_root / champion["id"].split("/", 1)[1]
        assert champion["searches"] == get_game(champion["game"]).spec_searches(str(path))


def test_a_game_the_store_drops_or_closes_has_its_search_cancelled(client):
    class Thinking:
        cancelled = False

        def cancel(self):
            self.cancelled = True

    store = SessionStore(limit=1)
    small = TestClient(create_app([], store=store))
    first = new_play(small, GAMES[0])["id"]
    store.get(first).thinking = dropped = Thinking()
    second = new_play(small, GAMES[0])["id"]  # the store keeps one game: the first goes
    assert dropped.cancelled
    store.get(second).thinking = closed = Thinking()
    assert small.delete(f"/api/sessions/{second}").json() == {"closed": second}
    assert closed.cancelled and small.get(f"/api/sessions/{second}").status_code == 404
