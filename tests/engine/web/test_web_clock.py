"""A game on a clock (``"clock": "60+1"``): a bad clock is a 400 naming it; each agent
move gets the budget ``engine.core.matches.clock.Clock`` gives (recomputed here move by move from
the views) and its clock is charged what it searched; a person's clock runs on their turn, and a
person out of time loses (the view says so, a late move is not played); undo is off; a real timed
alpha-beta in a worker process keeps its moves within their budgets."""

from __future__ import annotations

import time
import warnings

import httpx
import pytest

from engine.core import get_game
from engine.core.matches.clock import Clock, TimeControl
from engine.web import play as web_play
from engine.web.app import create_app
from engine.web.limits import Limits
from engine.web.thinking import ProcessThinker, ThreadThinker
from tests.engine.web.server import serve

warnings.filterwarnings("ignore", message=".*httpx2.*")
from starlette.testclient import TestClient  # noqa: E402  (after the deprecation filter)

GAME = "othello"
HUMAN = {"type": "human"}
AGENT = {"type": "agent", "spec": "random"}


class TimedRecorder:
    """A timed agent (it has a ``time_limit``) that records the limit of each move it makes and
    plays its first legal move at once."""

    name = "recorder"

    def __init__(self, game, time_limit: float):
        self.game, self.time_limit, self.limits = game, time_limit, []

    def select_move(self, state) -> int:
        self.limits.append(self.time_limit)
        self.last_info = {"eval": 0.0}
        return self.game.legal_moves(state)[0]

    def reset(self, seed=None) -> None:
        pass


def new_session(client, body: dict):
    return client.post("/api/sessions", json={"game": GAME, "mode": "watch",
                                              "players": [AGENT, AGENT], **body})


@pytest.mark.parametrize(("clock", "message"), [
    ("fast", "clock: time control 'fast': expected <seconds>[+<increment>]"),
    ("0+1", "clock: time control '0+1': expected"),
    (60, "clock: expected a string such as \"60+1\", got 60"),
    ("7200", "clock: '7200': seconds in 1..3600 and an increment of at most 10"),
    ("60+11", "clock: '60+11': seconds in 1..3600"),
])
def test_a_bad_clock_is_a_400_naming_it(clock, message):
    client = TestClient(create_app([], limits=Limits()))
    response = new_session(client, {"clock": clock})
    assert response.status_code == 400 and message in response.json()["error"], response.text


def test_without_a_clock_the_view_has_none_and_the_search_is_unchanged():
    client = TestClient(create_app([]))
    response = new_session(client, {"search": {"depth": 2}})
    assert response.status_code == 201 and response.json()["clocks"] is None


def test_each_agent_move_gets_the_clocks_budget_and_is_charged_its_search(monkeypatch):
    recorders = []

    def timed_agents(game, choices, search, seeds):
        assert search.time_limit == Limits().max_seconds  # built timed: the clock sets each move
        recorders.extend(TimedRecorder(game, search.time_limit) for _ in choices)
        return tuple(recorders[-2:])

    monkeypatch.setattr(web_play, "_build_agents", timed_agents)
    client = TestClient(create_app([], thinker=ThreadThinker(Limits())))
    control = TimeControl.parse("20+0.5")
    view = new_session(client, {"clock": str(control)}).json()
    game, state = get_game(GAME), get_game(GAME).initial_state()
    clocks = [Clock(control), Clock(control)]  # the independent bookkeeping
    assert [c["remaining"] for c in view["clocks"]] == [20.0, 20.0]
    expected_limits: list[list[float]] = [[], []]
    for _ in range(30):
        player = game.to_move(state)
        legal = game.legal_moves(state)
        budget = clocks[player].budget(game.moves_left(state), game.progress(state), len(legal))
        view = client.post(f"/api/sessions/{view['id']}/agent-move").json()
        info = view["last_move"]["info"]
        assert view["last_move"]["player"] == player
        assert info["budget"] == pytest.approx(budget, abs=1e-3)
        if len(legal) > 1:
            expected_limits[player].append(budget)
        clocks[player].charge(info["seconds"])
        assert view["clocks"][player]["remaining"] == pytest.approx(clocks[player].remaining,
                                                                     abs=0.02)
        assert not any(c["running"] for c in view["clocks"])  # agents' clocks run while searching
        state = game.apply(state, legal[0])
    for recorder, limits in zip(recorders, expected_limits, strict=True):
        assert recorder.limits == pytest.approx(limits, abs=1e-12)


def test_a_person_out_of_time_loses_and_a_late_move_is_not_played():
    client = TestClient(create_app([]))
    view = client.post("/api/sessions", json={"game": GAME, "mode": "play", "clock": "1",
                                              "players": [HUMAN, AGENT]}).json()
    assert view["clocks"][0]["running"] and not view["clocks"][1]["running"]
    move = view["legal"][0]["id"]
    time.sleep(1.1)
    late = client.post(f"/api/sessions/{view['id']}/move", json={"move": move})
    assert late.status_code == 200, late.text
    over = late.json()
    assert over["plies"] == 0 and over["terminal"]
    assert over["result"]["winner"] == 1 and "ran out of time" in over["result"]["text"]
    assert over["clocks"][0]["flagged"] and over["clocks"][0]["remaining"] == 0
    again = client.post(f"/api/sessions/{view['id']}/move", json={"move": move})
    assert again.status_code == 409 and "ran out of time" in again.json()["error"]


def test_a_person_seen_past_their_time_has_lost_without_moving():
    client = TestClient(create_app([]))
    view = client.post("/api/sessions", json={"game": GAME, "mode": "play", "clock": "1",
                                              "players": [HUMAN, AGENT]}).json()
    time.sleep(1.1)
    seen = client.get(f"/api/sessions/{view['id']}").json()
    assert seen["terminal"] and seen["result"]["details"] == {"lost_on_time": 0}


def test_a_persons_clock_is_charged_their_thinking_and_undo_is_off():
    client = TestClient(create_app([]))
    view = client.post("/api/sessions", json={"game": GAME, "mode": "play", "clock": "30+2",
                                              "players": [HUMAN, AGENT]}).json()
    time.sleep(0.3)
    moved = client.post(f"/api/sessions/{view['id']}/move",
                        json={"move": view["legal"][0]["id"]}).json()
    left = moved["clocks"][0]["remaining"]
    # charged at least the 0.3 s waited (+2), and the turn's time, not the game's: the upper
    # bound on the charge leaves a busy machine seconds for the requests themselves
    assert 30 + 2 - 10.0 < left <= 30 + 2 - 0.3
    illegal = client.post(f"/api/sessions/{view['id']}/move", json={"move": -5})
    assert illegal.status_code == 409  # the agent's turn: nothing charged
    client.post(f"/api/sessions/{view['id']}/agent-move")
    undo = client.post(f"/api/sessions/{view['id']}/undo")
    assert undo.status_code == 409 and "not in a game with a clock" in undo.json()["error"]


def test_a_timed_alphabeta_in_a_worker_keeps_within_its_budgets():
    """Worker processes, the committed search: every move within its budget plus the answer's
    overhead, the clocks never flagged. The clock is real (a spawned worker takes no injected
    one), so the bounds leave a busy machine seconds: this is not a benchmark."""
    thinker = ProcessThinker(1, Limits())
    try:
        with serve(create_app([], thinker=thinker)) as url, httpx.Client(base_url=url,
                                                                          timeout=60) as client:
            body = {"game": GAME, "mode": "watch", "clock": "10+0.5",
                    "players": [{"type": "agent", "spec": "course"}] * 2}
            view = client.post("/api/sessions", json=body).json()
            for _ in range(12):
                view = client.post(f"/api/sessions/{view['id']}/agent-move").json()
                info = view["last_move"]["info"]
                if not info.get("forced"):
                    assert info["seconds"] <= info["budget"] + 2.0, info
            assert not any(c["flagged"] for c in view["clocks"])
            assert all(c["remaining"] < 10 + 6 * 0.5 for c in view["clocks"])
    finally:
        thinker.close()
