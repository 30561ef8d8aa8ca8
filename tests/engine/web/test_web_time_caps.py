"""The server's time caps, measured on the wall clock: a move is answered within its
cap plus a tolerance, whichever cap applies. The other limit tests check status codes and
messages; these would notice a cap that is honoured only in its wording (a 2 s cap answered
after 40 s still says "2 s").

The four caps, each with a heavy search far beyond it, in one warm worker process:
- ``move_seconds``: an agent that cannot stop itself (MCTS, a million play-outs) is killed at
  the cap: a 422;
- ``max_seconds`` on a game clock: a move of a one-hour clock is given at most ``max_seconds``;
- a request's ``time_limit``: a timed search answers at its limit;
- ``Limits.deadline``: a depth-12 search without a time limit plays its deepest completed depth.

Checked by hand: ``timeout=self.limits.move_seconds * 20`` in
``engine.web.thinking.ProcessThinker.move`` fails the first test (the client gives up after the
cap plus the tolerance), ``min(budget, self.limits.max_seconds * 20)`` in
``engine.web.play`` the second.
"""

from __future__ import annotations

import time
import warnings

import httpx
import pytest

from engine.core import game_names
from engine.web.app import create_app
from engine.web.limits import Limits
from engine.web.thinking import ProcessThinker
from tests.engine.web.server import serve

warnings.filterwarnings("ignore", message=".*httpx2.*")

# Loose: the machine may be busy (the worker runs at the test's niceness); a cap multiplied by
# anything from 5 up still fails by far.
TOLERANCE = 3.0
HEAVY = "hexifence" if "hexifence" in game_names() else "pentago_twist"


@pytest.fixture(scope="module")
def server():
    """One worker process. The requests' caps are the app's (``max_seconds`` 1); each test sets
    the worker's (``move_seconds``, hence the deadline) through ``thinker.limits``."""
    if HEAVY not in game_names() or "pentago_twist" not in game_names():
        pytest.skip("needs Hexifence or Pentago Twist, and Pentago Twist's MCTS")
    thinker = ProcessThinker(1, Limits(max_seconds=1, move_seconds=600))
    try:
        with serve(create_app([], thinker=thinker)) as url, httpx.Client(base_url=url,
                                                                          timeout=300) as client:
            yield client, thinker
    finally:
        thinker.close()


@pytest.fixture()
def site(server):
    """The server, its worker warmed on the heavy game and on Pentago Twist's MCTS (numba
    loaded before any clock starts; a worker killed at a cap is replaced by a cold one)."""
    client, thinker = server
    thinker.limits = Limits(max_seconds=1, move_seconds=600)
    for game, spec in ((HEAVY, "alphabeta"), ("pentago_twist", "mcts:50")):
        warm = new_watch(client, game, spec, {"depth": 1})
        assert client.post(f"/api/sessions/{warm}/agent-move").status_code == 200
    return client, thinker


def new_watch(client, game: str, spec: str, search: dict, clock: str | None = None) -> str:
    body = {"game": game, "mode": "watch", "search": search,
            "players": [{"type": "agent", "spec": spec}] * 2}
    if clock is not None:
        body["clock"] = clock
    response = client.post("/api/sessions", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def timed_move(client, session: str, cap: float) -> tuple[httpx.Response, float]:
    """The agent's move and the wall seconds it took; a failure once ``cap`` plus the tolerance
    has passed (the client stops waiting)."""
    start = time.monotonic()
    try:
        response = client.post(f"/api/sessions/{session}/agent-move",
                               timeout=cap + TOLERANCE + 1.0)
    except httpx.TimeoutException:
        pytest.fail(f"no answer within {cap + TOLERANCE + 1.0:g} s under a {cap:g} s cap")
    return response, time.monotonic() - start


def test_a_move_that_cannot_stop_itself_is_refused_at_move_seconds_on_the_wall_clock(site):
    client, thinker = site
    thinker.limits = Limits(max_seconds=1, move_seconds=2)
    session = new_watch(client, "pentago_twist", "mcts:1000000", {"depth": 1})
    response, seconds = timed_move(client, session, 2)
    assert response.status_code == 422, response.text
    assert 2 * 0.9 <= seconds <= 2 + TOLERANCE, seconds


def test_a_clocked_move_gets_at_most_max_seconds_on_the_wall_clock(site):
    """A one-hour clock would give the first move minutes; ``max_seconds`` (1) caps it."""
    client, thinker = site
    session = new_watch(client, HEAVY, "alphabeta", {"depth": 12}, clock="3600+0")
    response, seconds = timed_move(client, session, 1)
    assert response.status_code == 200, response.text
    info = response.json()["last_move"]["info"]
    assert info["budget"] == 1.0 and info["seconds"] <= 1 + TOLERANCE, info
    assert seconds <= 1 + TOLERANCE


def test_a_timed_search_answers_at_its_time_limit_on_the_wall_clock(site):
    client, thinker = site
    session = new_watch(client, HEAVY, "alphabeta", {"depth": 12, "time_limit": 1.0})
    response, seconds = timed_move(client, session, 1)
    assert response.status_code == 200, response.text
    assert seconds <= 1 + TOLERANCE


def test_a_fixed_depth_search_answers_at_the_deadline_on_the_wall_clock(site):
    client, thinker = site
    thinker.limits = limits = Limits(max_seconds=1, move_seconds=4)
    session = new_watch(client, HEAVY, "alphabeta", {"depth": 12})
    response, seconds = timed_move(client, session, limits.deadline)
    assert response.status_code == 200, response.text
    assert response.json()["last_move"]["info"]["cut"] is True
    assert limits.deadline * 0.9 <= seconds <= limits.deadline + TOLERANCE
