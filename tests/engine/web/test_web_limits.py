"""The limits are enforced: per-request caps on depth, seconds and spec numbers (a 400 naming the
cap); a depth-12 search that asks for no time limit answers its deepest completed depth before
the server-wide time cap, which stops a move that cannot stop itself (its worker is killed and
replaced); a search stops when its client disconnects or its game is closed; and a
bounded line of searches refuses the overflow with a 429 instead of letting it pile up."""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
import warnings
from urllib.parse import urlparse

import httpx
import pytest

from engine.core import game_names, get_game
from engine.web import play as web_play
from engine.web.app import create_app
from engine.web.errors import ApiError
from engine.web.limits import Limits
from engine.web.slots import SlotQueue
from engine.web.thinking import ProcessThinker, ThreadThinker
from tests.engine.web.agents import BlockingAgent
from tests.engine.web.server import serve

warnings.filterwarnings("ignore", message=".*httpx2.*")
from starlette.testclient import TestClient  # noqa: E402  (after the deprecation filter)

GAME = game_names()[0]
HUMAN = {"type": "human"}
# Searches that run for hours at depth 12 from the empty board (Hexifence at depth 10 already
# takes over a minute, Pentago Twist at depth 7 two seconds and each ply multiplies it): what a
# page asking for depth 12 without a time limit would start.
HEAVY = [(g, "alphabeta") for g in ("hexifence", "pentago_twist") if g in game_names()]


def heavy_game() -> tuple[str, str]:
    if not HEAVY:
        pytest.skip("needs Hexifence or Pentago Twist registered")
    return HEAVY[0]


def agent(spec: str) -> dict:
    return {"type": "agent", "spec": spec}


def wait_until(condition, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.02)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


# --- per-request caps ------------------------------------------------------------------------
CAPS = Limits(max_depth=4, max_seconds=2.0, max_nodes=500, move_seconds=5.0)
OVER_THE_CAPS = [
    ({"search": {"depth": 5}}, "search.depth: expected a number in 1..4 (this server's limit)"),
    ({"search": {"time_limit": 2.5}}, "search.time_limit: expected a number in 0.01..2"),
    ({"search": {"endgame_empties": 25}}, "search.endgame_empties: expected a number in 0..24"),
    ({"spec": "mcts:501"}, "numbers in a spec may be at most 500"),
    ({"spec": "random@d5"}, "searches depth 5, above this server's limit 4"),
    ({"spec": "random@d+2", "search": {"depth": 3}}, "searches depth 5, above"),
]


@pytest.mark.parametrize(("request_", "message"), OVER_THE_CAPS,
                         ids=[m for _, m in OVER_THE_CAPS])
def test_a_request_above_the_servers_caps_is_a_400_naming_the_cap(request_, message):
    client = TestClient(create_app([], limits=CAPS))
    body = {"game": GAME, "mode": "play", "search": request_.get("search", {}),
            "players": [HUMAN, agent(request_.get("spec", "random"))]}
    response = client.post("/api/sessions", json=body)
    assert response.status_code == 400 and message in response.json()["error"], response.text


def test_requests_at_the_caps_are_accepted_and_the_page_can_read_them():
    client = TestClient(create_app([], limits=CAPS))
    body = {"game": GAME, "mode": "play", "players": [HUMAN, agent("random@d+1")],
            "search": {"depth": 3, "time_limit": 2.0, "endgame_empties": 24}}
    assert client.post("/api/sessions", json=body).status_code == 201
    limits = client.get("/api/limits").json()
    assert limits["max_depth"] == 4 and limits["move_seconds"] == 5.0
    assert limits["running"] == 0 and limits["waiting"] == 0


@pytest.mark.parametrize(("limits", "message"), [
    (Limits(max_seconds=30, move_seconds=30), "--max-seconds (30) must be below --move-seconds"),
    (Limits(max_depth=0), "--max-depth must be in 1..64"),
    (Limits(queue=-1), "--queue must be in 0..10000"),
])
def test_limits_that_cannot_work_are_refused_naming_the_option(limits, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        limits.check()


# --- the server-wide time cap, disconnects, closed games (worker processes) -----------------
@pytest.fixture()
def heavy_site():
    """The app with one worker process, warmed on the heavy game (numba loaded), a time cap of
    ``move_seconds`` set per test through ``thinker.limits``."""
    name, spec = heavy_game()
    thinker = ProcessThinker(1, Limits(max_seconds=1, move_seconds=600))
    try:
        with serve(create_app([], thinker=thinker)) as url, httpx.Client(base_url=url,
                                                                          timeout=120) as client:
            warm = new_watch(client, name, spec, depth=1)
            moved = client.post(f"/api/sessions/{warm}/agent-move").json()
            yield url, client, thinker, moved["last_move"]["info"]["worker"]
    finally:
        thinker.close()


def new_watch(client, name: str, spec: str, depth: int) -> str:
    response = client.post("/api/sessions", json={
        "game": name, "mode": "watch", "search": {"depth": depth}, "players": [agent(spec)] * 2})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def test_a_depth_12_search_without_a_time_limit_answers_its_deepest_depth_within_the_cap(
        heavy_site):
    """The fixed-depth search plays its deepest completed depth at the deadline
    (``Limits.deadline``), says so, and answers within the cap + 1 s, its worker kept."""
    url, client, thinker, pid = heavy_site
    name, spec = heavy_game()
    thinker.limits = Limits(max_seconds=1, move_seconds=3)
    heavy = new_watch(client, name, spec, depth=12)
    start = time.monotonic()
    moved = client.post(f"/api/sessions/{heavy}/agent-move")
    seconds = time.monotonic() - start
    assert moved.status_code == 200, moved.text
    info = moved.json()["last_move"]["info"]
    assert info["cut"] is True and 1 <= info["depth"] < 12 and info["depth_asked"] == 12
    assert seconds < 3 + 1
    assert info["worker"] == pid and not gone(pid)


def test_a_move_that_cannot_stop_itself_is_stopped_at_the_servers_cap(heavy_site):
    """An agent with no deadline of its own (MCTS with a play-out budget far beyond the cap)
    is stopped: its worker killed and replaced, a 422, the game where it was."""
    url, client, thinker, pid = heavy_site
    if "pentago_twist" not in game_names():
        pytest.skip("needs Pentago Twist's MCTS")
    name = "pentago_twist"  # a million play-outs: far beyond the 2 s cap
    thinker.limits = Limits(max_seconds=1, move_seconds=2)
    heavy = new_watch(client, name, "mcts:1000000", depth=1)
    stopped = client.post(f"/api/sessions/{heavy}/agent-move")
    assert stopped.status_code == 422, stopped.text
    assert "did not move within this server's limit of 2 s per move" in stopped.json()["error"]
    wait_until(lambda: gone(pid), "the worker of the stopped search exits")
    assert client.get(f"/api/sessions/{heavy}").json()["plies"] == 0
    light = new_watch(client, name, "alphabeta", depth=1)
    # the new worker is a fresh process that first loads numba and the game's kernels: seconds
    # on a busy machine, which the 2 s cap of the stopped search was not meant to measure
    thinker.limits = Limits(max_seconds=1, move_seconds=120)
    answer = client.post(f"/api/sessions/{light}/agent-move")
    assert answer.status_code == 200, answer.text
    moved = answer.json()
    assert moved["plies"] == 1 and moved["last_move"]["info"]["worker"] != pid


def raw_agent_move(url: str, session_id: str) -> socket.socket:
    """An agent-move request sent on a socket the test can close mid-search."""
    address = urlparse(url)
    sock = socket.create_connection((address.hostname, address.port))
    sock.sendall(f"POST /api/sessions/{session_id}/agent-move HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 "Content-Length: 0\r\n\r\n".encode())
    return sock


def test_a_client_that_disconnects_mid_search_stops_the_search(heavy_site):
    url, client, thinker, pid = heavy_site
    heavy = new_watch(client, *heavy_game(), depth=12)  # hours, with no cap in sight (600 s)
    sock = raw_agent_move(url, heavy)
    wait_until(lambda: heavy in thinker.busy.values(), "the heavy search starts")
    sock.close()
    wait_until(lambda: gone(pid), "the worker of the abandoned search exits")
    wait_until(lambda: not thinker.busy, "the worker slot is free again")
    assert client.get(f"/api/sessions/{heavy}").json()["plies"] == 0
    assert client.get("/api/limits").json()["running"] == 0


def test_closing_a_game_mid_search_stops_the_search_and_answers_409(heavy_site):
    url, client, thinker, pid = heavy_site
    heavy = new_watch(client, *heavy_game(), depth=12)
    replies = []
    mover = threading.Thread(target=lambda: replies.append(
        httpx.post(f"{url}/api/sessions/{heavy}/agent-move", timeout=120)))
    mover.start()
    wait_until(lambda: heavy in thinker.busy.values(), "the heavy search starts")
    assert client.delete(f"/api/sessions/{heavy}").json() == {"closed": heavy}
    mover.join(timeout=120)
    assert replies[0].status_code == 409
    assert "closed while its agent was thinking" in replies[0].json()["error"]
    assert gone(pid)
    assert client.get(f"/api/sessions/{heavy}").status_code == 404


# --- the bounded line -----------------------------------------------------------------------
def test_twenty_tabs_asking_at_once_get_the_free_slots_the_line_or_a_429(monkeypatch):
    """2 threads and a line of 3: of 20 requests made while every agent is held, 5 are taken
    and 15 refused at once; released, the 5 all move."""
    agents = []

    def blocking_agents(game, choices, search, seeds):
        made = tuple(BlockingAgent(game) for _ in choices)
        agents.extend(made)
        return made

    monkeypatch.setattr(web_play, "_build_agents", blocking_agents)
    thinker = ThreadThinker(Limits(queue=3), threads=2)
    with serve(create_app([], thinker=thinker)) as url, httpx.Client(base_url=url,
                                                                      timeout=30) as client:
        ids = [client.post("/api/sessions", json={"game": GAME, "mode": "watch", "players": [
            agent("random")] * 2}).json()["id"] for _ in range(20)]
        replies = {}
        threads = [threading.Thread(target=lambda i=i: replies.__setitem__(i, httpx.post(
            f"{url}/api/sessions/{i}/agent-move", timeout=30))) for i in ids]
        for thread in threads:
            thread.start()
        wait_until(lambda: len(replies) == 15, "the overflow is refused")
        status = client.get("/api/limits").json()
        assert (status["running"], status["waiting"]) == (2, 3)
        assert all(r.status_code == 429 and "the server is busy: 2 searches running and 3 "
                   "waiting" in r.json()["error"] for r in replies.values())
        for blocked in agents:
            blocked.release.set()
        for thread in threads:
            thread.join(timeout=30)
    thinker.close()
    moved = [r for r in replies.values() if r.status_code == 200]
    assert len(moved) == 5 and all(r.json()["plies"] == 1 for r in moved)


def run_async(scenario) -> None:
    """``asyncio.run(scenario())`` in a thread of its own (Playwright's sync API, once started
    by another test module, keeps an event loop in this one)."""
    failures = []

    def guarded():
        try:
            asyncio.run(scenario())
        except BaseException as err:  # noqa: BLE001 (re-raised in the test's thread)
            failures.append(err)

    thread = threading.Thread(target=guarded)
    thread.start()
    thread.join(timeout=60)
    if failures:
        raise failures[0]


def test_the_line_is_first_come_first_served_and_a_cancelled_wait_leaves_it():
    async def scenario():
        line = SlotQueue(["slot"], waiting=3)
        first = await line.take()
        order = []

        async def wait(name):
            slot = await line.take()
            order.append(name)
            line.give(slot)

        a, b, c = (asyncio.ensure_future(wait(n)) for n in "abc")
        await asyncio.sleep(0)
        assert line.waiting == 3
        with pytest.raises(ApiError, match="at most 3"):
            await line.take()
        b.cancel()
        await asyncio.sleep(0)
        assert line.waiting == 2
        line.give(first)
        await asyncio.gather(a, c)
        assert order == ["a", "c"] and line.running == 0

    run_async(scenario)


def test_a_request_cancelled_just_as_it_is_served_hands_its_slot_on():
    async def scenario():
        line = SlotQueue(["slot"], waiting=2)
        first = await line.take()
        late, next_ = asyncio.ensure_future(line.take()), asyncio.ensure_future(line.take())
        await asyncio.sleep(0)
        line.give(first)  # served to ``late`` ...
        late.cancel()  # ... which is cancelled before it runs again
        assert await next_ == "slot"

    run_async(scenario)


def test_a_heavy_game_exists_for_the_cap_tests():
    """The cap tests rely on a depth-12 search taking far longer than they wait."""
    name, spec = heavy_game()
    assert spec in get_game(name).agent_specs() and get_game(name).spec_searches(spec)
