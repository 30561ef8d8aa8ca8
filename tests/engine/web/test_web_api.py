"""The web app's JSON API through Starlette's test client: whole games of every registered game,
undo, illegal moves, watched games, sessions and views (champions and replays from run
directories: ``test_web_runs_api.py``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.core import get_game, parse_moves
from engine.core.matches.runner import replay
from engine.web.app import create_app
from engine.web.sessions import SessionStore
from tests.engine.web.api_client import GAMES, TestClient, agent_replies, fast_agent, new_play


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
