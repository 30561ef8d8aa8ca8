"""Bad requests get a 4xx JSON error naming the problem (never a 500, never a file read), real bugs
a logged JSON 500; the command line refuses bad arguments in one line."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import warnings

import httpx
import pytest

from engine.core import game_names
from engine.web import __main__ as cli
from engine.web.app import create_app
from tests.engine.web.runs import make_run_dir

warnings.filterwarnings("ignore", message=".*httpx2.*")
from starlette.testclient import TestClient  # noqa: E402  (after the deprecation filter)

GAME = game_names()[0]
HUMAN = {"type": "human"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    root = tmp_path_factory.mktemp("web") / "runs"
    make_run_dir(root / "run", GAME, games=2)
    return TestClient(create_app([root]), raise_server_exceptions=False)


@pytest.fixture(scope="module")
def session_id(client):
    body = {"game": GAME, "mode": "play", "players": [HUMAN, {"type": "agent", "spec": "random"}]}
    return client.post("/api/sessions", json=body).json()["id"]


def play(players, **extra) -> dict:
    return {"game": GAME, "mode": "play", "players": players, **extra}


BAD_SESSIONS = [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
    ({"game": "chess", "players": []}, "game: expected one of"),
    ({"game": 3}, "game: expected one of"),
    ({"game": GAME, "mode": "solve", "players": []}, "mode: expected one of"),
    ({"game": GAME, "players": "me"}, "players: expected a list of two"),
    (play([HUMAN]), "players: expected a list of two"),
    (play([HUMAN, {"type": "robot"}]), "players[1]: expected"),
    (play([HUMAN, "random"]), "players[1]: expected"),
    (play([HUMAN, HUMAN]), "play mode needs one person"),
    ({"game": GAME, "mode": "watch", "players": [HUMAN, {"type": "agent", "spec": "random"}]},
     "watch mode needs two agents"),
    (play([HUMAN, {"type": "agent"}]), "spec: expected a non-empty agent spec"),
    (play([HUMAN, {"type": "agent", "spec": "no-such-agent"}]), "spec:"),
    (play([HUMAN, {"type": "agent", "spec": "/etc/passwd"}]), "names no file"),
    (play([HUMAN, {"type": "agent", "spec": "../champion.json"}]), "names no file"),
    (play([HUMAN, {"type": "agent", "spec": "mcts:10:../../x"}]), "names no file"),
    (play([HUMAN, {"type": "agent", "spec": "pyproject.toml"}]), "names no file"),
    (play([HUMAN, {"type": "agent", "spec": "engine"}]), "names no file"),
    (play([HUMAN, {"type": "agent", "spec": "mcts:99999999999"}]), "at most 1000000"),
    (play([HUMAN, {"type": "champion"}]), "champion: expected a non-empty string id"),
    (play([HUMAN, {"type": "champion", "id": "/etc/passwd"}]), "absolute paths are not allowed"),
    (play([HUMAN, {"type": "champion", "id": "C:/x.json"}]), "absolute paths are not allowed"),
    (play([HUMAN, {"type": "champion", "id": "runs/../../x.json"}]), "'..' is not allowed"),
    (play([HUMAN, {"type": "champion", "id": "runs/run/nothing.json"}]), "unknown champion"),
    (play([HUMAN, {"type": "agent", "spec": "random"}], search=[]), "search: expected an object"),
    (play([HUMAN, {"type": "agent", "spec": "random"}], search={"depth": 0}), "search.depth"),
    (play([HUMAN, {"type": "agent", "spec": "random"}], search={"depth": "4"}), "search.depth"),
    (play([HUMAN, {"type": "agent", "spec": "random"}], search={"depth": 2.5}), "search.depth"),
    (play([HUMAN, {"type": "agent", "spec": "random"}], search={"time_limit": -1}),
     "search.time_limit"),
    (play([HUMAN, {"type": "agent", "spec": "random"}], search={"nodes": 5}),
     "unknown field 'nodes'"),
    (play([HUMAN, {"type": "agent", "spec": "random"}], settings=[2]), "settings: expected an"),
    (play([HUMAN, {"type": "agent", "spec": "random"}], settings={"genome": {"phases": 0}}),
     "settings: game.genome.phases"),
    (play([HUMAN, {"type": "agent", "spec": "random"}], settings={"nonsense": 1}),
     "settings: game.nonsense"),
    (play([HUMAN, {"type": "agent", "spec": "random"}], seed=-1), "seed: expected an integer"),
    (play([HUMAN, {"type": "agent", "spec": "random"}], seed=True), "seed: expected an integer"),
]


@pytest.mark.parametrize(("body", "message"), BAD_SESSIONS, ids=[m for _, m in BAD_SESSIONS])
def test_a_bad_new_game_request_is_a_400_naming_the_problem(client, body, message):
    if isinstance(body, str):
        response = client.post("/api/sessions", content=body.encode(),
                               headers={"content-type": "application/json"})
    else:
        response = client.post("/api/sessions", json=body)
    assert response.status_code in (400, 404), response.text
    assert message in response.json()["error"]


def test_a_body_that_is_not_sent_as_json_is_refused(client):
    body = json.dumps(play([HUMAN, {"type": "agent", "spec": "random"}]))
    for media_type in ("text/plain", "application/x-www-form-urlencoded", ""):
        response = client.post("/api/sessions", content=body.encode(),
                               headers={"content-type": media_type})
        assert response.status_code == 415
        assert "content-type: expected application/json" in response.json()["error"]


BAD_REQUESTS = [
    ("post", "/api/sessions/{id}/move", {"move": "d3"}, 400, "move: expected an integer"),
    ("post", "/api/sessions/{id}/move", {"move": 1.5}, 400, "move: expected an integer"),
    ("post", "/api/sessions/{id}/move", {"move": 10**12}, 400, "move: expected an integer"),
    ("post", "/api/sessions/{id}/move", {}, 400, "text: expected a non-empty string"),
    ("post", "/api/sessions/{id}/move", {"text": "zz99"}, 400, "text:"),
    ("post", "/api/sessions/nope/move", {"move": 0}, 404, "not found"),
    ("delete", "/api/sessions/nope", None, 404, "not found"),
    ("get", "/api/sessions/{id}?ply=abc", None, 400, "ply: expected an integer"),
    ("get", "/api/sessions/{id}?ply=99", None, 400, "ply: expected 0..0"),
    ("get", "/api/sessions/{id}?ply=-1", None, 400, "ply: expected 0..0"),
    ("post", "/api/sessions/{id}/agent-move", None, 409, "a person is to move"),
    ("post", "/api/sessions/{id}/undo", None, 409, "no move to take back"),
    ("get", "/api/champions?game=chess", None, 400, "game: expected one of"),
    ("get", "/api/recorded", None, 400, "run: expected a non-empty string"),
    ("get", "/api/recorded?run=../etc", None, 400, "'..' is not allowed"),
    ("get", "/api/recorded?run=/etc", None, 400, "absolute paths"),
    ("get", "/api/recorded?run=runs/nothing", None, 404, "unknown run"),
    ("get", "/api/recorded?run=runs/run&table=passwd", None, 400, "table:"),
    ("get", "/api/recorded?run=runs/run&offset=-3", None, 400, "offset:"),
    ("get", "/api/recorded?run=runs/run&limit=100000", None, 400, "limit:"),
    ("get", "/api/recorded?run=runs/run&generation=x", None, 400, "generation:"),
    ("post", "/api/replays", {"run": "runs/run", "table": "games", "row": 99}, 404, "row:"),
    ("post", "/api/replays", {"run": "runs/run", "table": "games", "row": "0"}, 400, "row:"),
    ("post", "/api/replays", {"run": "runs/run", "table": "../x", "row": 0}, 400, "table:"),
    ("post", "/api/replays", {"run": "runs/../x", "row": 0}, 400, "'..' is not allowed"),
    ("get", "/api/nothing-here", None, 404, "Not Found"),
    ("get", "/api/sessions", None, 405, "Method Not Allowed"),
    ("get", "/static/../app.py", None, 404, "Not Found"),
    ("get", "/static/%2e%2e/app.py", None, 404, "Not Found"),
]


@pytest.mark.parametrize(("method", "path", "body", "status", "message"), BAD_REQUESTS,
                         ids=[f"{m} {p}" for m, p, *_ in BAD_REQUESTS])
def test_a_bad_request_gets_a_json_4xx_naming_the_problem(client, session_id, method, path, body,
                                                          status, message):
    url = path.format(id=session_id)
    response = getattr(client, method)(url, **({} if body is None else {"json": body}))
    assert response.status_code == status, response.text
    assert message in response.json()["error"]


@pytest.mark.parametrize(("host", "status"), [
    ("127.0.0.1", 200), ("127.0.0.1:8000", 200), ("localhost:8000", 200), ("[::1]:8000", 200),
    ("evil.example", 400), ("evil.example:8000", 400), ("127.0.0.1.evil.example", 400), ("", 400),
])
def test_a_localhost_server_refuses_requests_for_other_host_names(host, status):
    local = TestClient(create_app([], local_only=True), base_url="http://127.0.0.1")
    response = local.get("/api/health", headers={"host": host})
    assert response.status_code == status
    if status == 400:
        assert "is not this machine" in response.json()["error"]


def test_a_real_bug_is_a_logged_json_500_not_a_crash(caplog):
    app = create_app([])

    async def broken(_request):
        raise RuntimeError("a bug")

    app.add_route("/api/broken", broken)
    response = TestClient(app, raise_server_exceptions=False).get("/api/broken")
    assert response.status_code == 500
    assert "internal error (RuntimeError)" in response.json()["error"]
    assert "a bug" in caplog.text


@pytest.mark.parametrize(("argv", "message"), [
    (["--runs", "/no/such/dir"], "--runs: /no/such/dir is not a directory"),
    (["--port", "70000"], "--port must be in 0..65535"),
    (["--agent-workers", "0"], "--agent-workers must be in 1..64, got 0 (agents think in worker "
                               "processes so that the server can stop a search"),
    (["--max-seconds", "40"], "--max-seconds (40) must be below --move-seconds (30)"),
    (["--max-depth", "0"], "--max-depth must be in 1..64, got 0"),
    (["--queue", "-2"], "--queue must be in 0..10000, got -2"),
])
def test_the_command_line_refuses_bad_arguments_in_one_line(capsys, argv, message):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {message}") and err.count("\n") == 1


@contextlib.contextmanager
def command_line_server(*argv: str):
    """``python -m engine.web --port 0 ...`` in a subprocess; yields the URL it printed."""
    process = subprocess.Popen([sys.executable, "-m", "engine.web", "--port", "0", *argv],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline().strip()
        assert line.startswith("board-evolve web: http://127.0.0.1:"), line
        yield line.split(": ", 1)[1], process.pid
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_server_prints_its_url_and_answers_only_for_this_machine():
    with command_line_server() as (url, _):
        assert httpx.get(url + "api/health", timeout=10).json() == {"ok": True}
        assert "<title>board-evolve</title>" in httpx.get(url, timeout=10).text
        rebound = httpx.get(url + "api/health", headers={"host": "evil.example"}, timeout=10)
        assert rebound.status_code == 400


@pytest.mark.slow
def test_the_command_lines_agents_think_in_a_worker_process():
    with command_line_server("--agent-workers", "1") as (url, server_pid):
        watch = httpx.post(url + "api/sessions", timeout=30, json={
            "game": GAME, "mode": "watch", "players": [{"type": "agent", "spec": "random"}] * 2})
        moved = httpx.post(f"{url}api/sessions/{watch.json()['id']}/agent-move", timeout=120)
        assert moved.json()["last_move"]["info"]["worker"] != server_pid


@pytest.mark.parametrize("spec, accepted", [
    ("random@d2", True), ("random@d+1", True), ("random@dx", False), ("random@d+999", False),
])
def test_a_spec_may_carry_the_cores_depth_modifier(client, spec, accepted):
    response = client.post("/api/sessions", json=play([HUMAN, {"type": "agent", "spec": spec}]),
                           headers={"content-type": "application/json"})
    assert (response.status_code == 201) == accepted, response.text
    if not accepted:
        assert 400 <= response.status_code < 500 and "spec" in response.json()["error"]
