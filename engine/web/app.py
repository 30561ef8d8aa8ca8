"""The Starlette app: game list, champions, recorded games, and play/watch/replay sessions.

Everything about a game goes through ``engine.core`` (``get_game`` and the ``Game`` contract);
the only per-game knowledge here is which board renderer (a small JS file) draws its
``state_view``. Agents think off the event loop (``engine.web.thinking``: a worker process from
the command line, the thread pool by default) and are built in the thread pool, so one tab's
search does not hold up another tab's requests.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import numpy as np
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from engine.core import child_seeds, game_names, get_game
from engine.web.errors import (
    EXCEPTION_HANDLERS,
    ApiError,
    NumpyJSONResponse,
    field_int,
    field_str,
    json_body,
    log,
)
from engine.web.hosts import LocalHostsOnly
from engine.web.players import (
    PlayerChoice,
    build_agent,
    configured_game,
    parse_player,
    parse_search,
)
from engine.web.recorded import list_recorded, parse_recorded_moves, recorded_row
from engine.web.runs import RunCatalogue
from engine.web.sessions import GameSession, SessionStore
from engine.web.thinking import ThreadThinker

STATIC = Path(__file__).parent / "static"
# game name -> renderer in static/renderers/<renderer>.js (others get the generic renderer)
RENDERERS = {"othello": "reversi", "reversed_reversi": "reversi",
             "pentago_twist": "pentago", "hexifence": "hexifence"}
MODES = {"play": 1, "watch": 0}  # mode -> how many people play
MODE_PEOPLE = {"play": "one person and one agent", "watch": "two agents"}


def load_game(name):
    if not isinstance(name, str) or name not in game_names():
        raise ApiError(400, f"game: expected one of {', '.join(game_names())}, got {name!r}")
    try:
        return get_game(name)
    except ImportError as err:  # registered but its package is not there yet
        raise ApiError(503, f"game: {name} cannot be loaded ({err})") from None


def available_games() -> list[dict]:
    games = []
    for name in game_names():
        try:
            game = get_game(name)
        except ImportError as err:
            log.warning("game %s is registered but cannot be loaded: %s", name, err)
            continue
        games.append({"name": name, "description": game.description,
                      "players": list(game.players), "margin_unit": game.margin_unit,
                      "renderer": RENDERERS.get(name, "generic"),
                      "agent_specs": list(game.agent_specs())})
    return games


def create_app(runs: list[Path] | None = None, store: SessionStore | None = None,
               local_only: bool = False, thinker=None) -> Starlette:
    """The app reading the ``runs`` directories; ``local_only``: refuse requests whose ``Host``
    is not a loopback name (what ``python -m engine.web`` does when it binds to localhost);
    ``thinker``: where agents think (default: the thread pool; the command line uses worker
    processes, see ``engine.web.thinking``)."""
    catalogue = RunCatalogue([Path(p) for p in runs or []])
    store = store or SessionStore()
    thinker = thinker or ThreadThinker()

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        yield
        thinker.close()

    async def index(_request: Request):
        return FileResponse(STATIC / "index.html")

    async def games(_request: Request):
        return NumpyJSONResponse({"games": available_games()})

    async def champions(request: Request):
        game = request.query_params.get("game")
        if game is not None:
            load_game(game)
        return NumpyJSONResponse({"champions": [c.to_json() for c in catalogue.champions(game)]})

    async def runs_list(_request: Request):
        return NumpyJSONResponse({"runs": [r.to_json() for r in catalogue.runs()]})

    async def recorded(request: Request):
        # a large table takes a second to parse the first time: not on the event loop
        listing = await run_in_threadpool(list_recorded, catalogue, request.query_params)
        return NumpyJSONResponse(listing)

    async def new_session(request: Request):
        body = await json_body(request)
        game = load_game(body.get("game"))
        mode = field_str(body, "mode", "play")
        if mode not in MODES:
            raise ApiError(400, f"mode: expected one of {', '.join(MODES)}, got {mode!r}")
        players = body.get("players")
        if not isinstance(players, list) or len(players) != 2:
            raise ApiError(400, "players: expected a list of two players (player 0 moves first)")
        choices = tuple(parse_player(game, catalogue, p, i) for i, p in enumerate(players))
        people = sum(c.type == "human" for c in choices)
        if people != MODES[mode]:
            raise ApiError(400, f"players: {mode} mode needs {MODE_PEOPLE[mode]}")
        game = _with_requested_settings(game, body.get("settings")) or \
            configured_game(game, choices)
        search = parse_search(body.get("search"))
        seed = field_int(body, "seed", 0, 2**63 - 1, int(np.random.SeedSequence().entropy) % 2**63)
        seeds = tuple(child_seeds(seed, 2))
        agents = await run_in_threadpool(_build_agents, game, choices, search, seeds)
        session = GameSession(store.new_id(), game, mode, choices, agents,
                              states=[game.initial_state()], search=search, seeds=seeds)
        store.add(session)
        return NumpyJSONResponse(session.view(), status_code=201)

    async def new_replay(request: Request):
        body = await json_body(request)
        run = catalogue.run(body.get("run"))
        table = field_str(body, "table", "games")
        row = await run_in_threadpool(recorded_row, run, table, field_int(body, "row", 0, 10**9))
        game = load_game(run.game)
        try:
            game = get_game(run.game, run.settings) if run.settings else game
            moves = parse_recorded_moves(game, row["moves"])
        except ValueError as err:
            raise ApiError(422, f"row {body['row']} of {table}.csv of run {run.id!r}: {err}") \
                from None
        labels = row["players"]
        choices = tuple(PlayerChoice("recorded", str(label)) for label in labels)
        session = GameSession(store.new_id(), game, "replay", choices, (None, None),
                              states=[game.initial_state()],
                              source={"run": run.id, "table": table, "row": body["row"]})
        for move in moves:
            session.push(move)
        store.add(session)
        return NumpyJSONResponse(session.view(0), status_code=201)

    async def show(request: Request):
        session = store.get(request.path_params["id"])
        ply = request.query_params.get("ply")
        if ply is not None and not ply.lstrip("-").isdigit():
            raise ApiError(400, f"ply: expected an integer, got {ply!r}")
        # no lock: sessions change only on the event loop thread, never inside a worker
        return NumpyJSONResponse(session.view(None if ply is None else int(ply)))

    async def human_move(request: Request):
        session = store.get(request.path_params["id"])
        body = await json_body(request)
        if not session.lock.acquire(blocking=False):
            raise ApiError(409, "the agent is still thinking")
        try:
            session.check_open()
            if session.mode != "play" or session.agent_to_move() is not None:
                raise ApiError(409, "it is not your move")
            session.push(_requested_move(session, body))
            return NumpyJSONResponse(session.view())
        finally:
            session.lock.release()

    async def agent_move(request: Request):
        session = store.get(request.path_params["id"])
        if not session.lock.acquire(blocking=False):
            raise ApiError(409, "the agent is already thinking")
        try:
            session.check_open()
            if session.agent_to_move() is None:
                raise ApiError(409, "a person is to move, not an agent")
            move, info = await thinker.move(session, session.game.to_move(session.state))
            session.push(move, info)
            return NumpyJSONResponse(session.view())
        finally:
            session.lock.release()

    async def undo(request: Request):
        session = store.get(request.path_params["id"])
        if not session.lock.acquire(blocking=False):
            raise ApiError(409, "the agent is still thinking")
        try:
            session.undo()
            return NumpyJSONResponse(session.view())
        finally:
            session.lock.release()

    async def health(_request: Request):
        return NumpyJSONResponse({"ok": True})

    async def favicon(_request: Request):
        return Response(status_code=204)

    routes = [
        Route("/", index), Route("/favicon.ico", favicon), Route("/api/health", health),
        Route("/api/games", games), Route("/api/champions", champions),
        Route("/api/runs", runs_list), Route("/api/recorded", recorded),
        Route("/api/sessions", new_session, methods=["POST"]),
        Route("/api/replays", new_replay, methods=["POST"]),
        Route("/api/sessions/{id}", show),
        Route("/api/sessions/{id}/move", human_move, methods=["POST"]),
        Route("/api/sessions/{id}/agent-move", agent_move, methods=["POST"]),
        Route("/api/sessions/{id}/undo", undo, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(LocalHostsOnly)] if local_only else []
    return Starlette(routes=routes, exception_handlers=EXCEPTION_HANDLERS, middleware=middleware,
                     lifespan=lifespan)


def _requested_move(session: GameSession, body: dict) -> int:
    """``{"move": id}`` or ``{"text": "d3"}`` from the page."""
    if "move" in body:
        return field_int(body, "move", -(2**31), 2**31)
    text = field_str(body, "text", max_len=50)
    try:
        return int(session.game.parse_move(text, session.state))
    except ValueError as err:
        raise ApiError(400, f"text: {err}") from None


def _with_requested_settings(game, settings):
    """The game configured with the request's ``settings`` object (None when it has none)."""
    if settings is None or settings == {}:
        return None
    if not isinstance(settings, dict):
        raise ApiError(400, f"settings: expected an object of game settings, got {settings!r}")
    try:
        return get_game(game.name, settings)
    except ValueError as err:  # GameSettingsError names the key
        raise ApiError(400, f"settings: {err}") from None


def _build_agents(game, choices, search, seeds) -> tuple:
    """The agents of a session (None for a person); loading may compile or read a file."""
    return tuple(None if c.type == "human" else build_agent(game, c, search, s)
                 for c, s in zip(choices, seeds, strict=True))
