"""The session endpoints: start a game or a replay, show a position, a person's move, an agent's
move, undo, close.

An agent's move runs as a task of its session: closing the session cancels it, and so does the
client going away before the answer (the page moved on, the tab closed); with worker processes
the search itself stops (``engine.web.thinking``).
"""

from __future__ import annotations

import asyncio
import time

import numpy as np
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.routing import Route

from engine.core import SearchSettings, child_seeds, get_game
from engine.core.matches.clock import Clock
from engine.web.errors import ApiError, NumpyJSONResponse, field_int, field_str, json_body
from engine.web.games import load_game
from engine.web.limits import SEARCH_FIELDS
from engine.web.players import (
    PlayerChoice,
    assign_searches,
    build_agent,
    configured_game,
    parse_player,
    recorded,
    study_config,
)
from engine.web.recorded import parse_recorded_moves, recorded_row
from engine.web.sessions import GameSession

MODES = {"play": 1, "watch": 0}  # mode -> how many people play
MODE_PEOPLE = {"play": "one person and one agent", "watch": "two agents"}


class SessionRoutes:
    def __init__(self, catalogue, store, thinker):
        self.catalogue, self.store, self.thinker = catalogue, store, thinker
        self.limits = thinker.limits

    def routes(self) -> list[Route]:
        return [Route("/api/sessions", self.new_session, methods=["POST"]),
                Route("/api/replays", self.new_replay, methods=["POST"]),
                Route("/api/sessions/{id}", self.show, methods=["GET"]),
                Route("/api/sessions/{id}", self.close, methods=["DELETE"]),
                Route("/api/sessions/{id}/move", self.human_move, methods=["POST"]),
                Route("/api/sessions/{id}/agent-move", self.agent_move, methods=["POST"]),
                Route("/api/sessions/{id}/undo", self.undo, methods=["POST"]),
                Route("/api/champion-search", self.champion_search, methods=["GET"])]

    async def champion_search(self, request: Request):
        """The search a champion records (what the page fills its search fields with)."""
        champion = self.catalogue.champion(request.query_params.get("id"))
        choice = PlayerChoice("champion", champion.to_json()["label"], str(champion.path),
                              config=study_config(self.catalogue, champion))
        found = await run_in_threadpool(recorded, choice, SearchSettings())
        return NumpyJSONResponse({"id": champion.id, "label": choice.label,
                                  "search": found.to_json()})

    async def new_session(self, request: Request):
        body = await json_body(request)
        game = load_game(body.get("game"))
        mode = field_str(body, "mode", "play")
        if mode not in MODES:
            raise ApiError(400, f"mode: expected one of {', '.join(MODES)}, got {mode!r}")
        players = body.get("players")
        if not isinstance(players, list) or len(players) != 2:
            raise ApiError(400, "players: expected a list of two players (player 0 moves first)")
        search = self.limits.search(body.get("search"), game)
        control = self.limits.clock(body.get("clock"))
        if control is not None:
            search = self.limits.clocked(search)
        choices = tuple(parse_player(game, self.catalogue, p, i, self.limits, search)
                        for i, p in enumerate(players))
        if sum(c.type == "human" for c in choices) != MODES[mode]:
            raise ApiError(400, f"players: {mode} mode needs {MODE_PEOPLE[mode]}")
        game = _with_requested_settings(game, body.get("settings")) or \
            configured_game(game, choices)
        choices = assign_searches(game, choices, search, _explicit(body.get("search"), search),
                                  self.limits, control is not None)
        seed = field_int(body, "seed", 0, 2**63 - 1, int(np.random.SeedSequence().entropy) % 2**63)
        seeds = tuple(child_seeds(seed, 2))
        agents = await run_in_threadpool(_build_agents, game, choices, search, seeds)
        session = GameSession(self.store.new_id(), game, mode, choices, agents,
                              states=[game.initial_state()], search=search, seeds=seeds,
                              clocks=None if control is None else (Clock(control),
                                                                   Clock(control)))
        self.store.add(session)
        return NumpyJSONResponse(session.view(), status_code=201)

    async def new_replay(self, request: Request):
        body = await json_body(request)
        run = self.catalogue.run(body.get("run"))
        table = field_str(body, "table", "games")
        row = await run_in_threadpool(recorded_row, run, table, field_int(body, "row", 0, 10**9))
        game = load_game(run.game)
        try:
            game = get_game(run.game, run.settings) if run.settings else game
            moves = parse_recorded_moves(game, row["moves"])
        except ValueError as err:
            raise ApiError(422, f"row {body['row']} of {table}.csv of run {run.id!r}: {err}") \
                from None
        choices = tuple(PlayerChoice("recorded", str(label)) for label in row["players"])
        session = GameSession(self.store.new_id(), game, "replay", choices, (None, None),
                              states=[game.initial_state()],
                              source={"run": run.id, "table": table, "row": body["row"]})
        for move in moves:
            session.push(move)
        self.store.add(session)
        return NumpyJSONResponse(session.view(0), status_code=201)

    async def show(self, request: Request):
        session = self.store.get(request.path_params["id"])
        ply = request.query_params.get("ply")
        if ply is not None and not ply.lstrip("-").isdigit():
            raise ApiError(400, f"ply: expected an integer, got {ply!r}")
        # no lock: sessions change only on the event loop thread, never inside a worker
        return NumpyJSONResponse(session.view(None if ply is None else int(ply)))

    async def close(self, request: Request):
        self.store.close(request.path_params["id"])
        return NumpyJSONResponse({"closed": request.path_params["id"]})

    async def human_move(self, request: Request):
        session = self.store.get(request.path_params["id"])
        body = await json_body(request)
        if not session.lock.acquire(blocking=False):
            raise ApiError(409, "the agent is still thinking")
        try:
            session.check_open()
            if session.mode != "play" or session.agent_to_move() is not None:
                raise ApiError(409, "it is not your move")
            session.push_person(_requested_move(session, body))
            return NumpyJSONResponse(session.view())
        finally:
            session.lock.release()

    async def agent_move(self, request: Request):
        session = self.store.get(request.path_params["id"])
        await request.body()  # read, so that the next message is the client leaving
        if not session.lock.acquire(blocking=False):
            raise ApiError(409, "the agent is already thinking")
        try:
            session.check_open()
            if session.agent_to_move() is None:
                raise ApiError(409, "a person is to move, not an agent")
            player = session.game.to_move(session.state)
            budget = session.budget()
            if budget is not None:
                budget = min(budget, self.limits.max_seconds)
            started = time.monotonic()
            session.thinking = asyncio.ensure_future(self.thinker.move(session, player, budget))
            move, info = await _unless_client_leaves(request, session.thinking)
            if budget is not None:  # the search's own time (not the wait for a worker)
                seconds = info.get("seconds", round(time.monotonic() - started, 3))
                info = dict(info, budget=round(budget, 3), seconds=seconds)
                if session.charge(player, seconds):
                    session.push(move, info)
            else:
                session.push(move, info)
            return NumpyJSONResponse(session.view())
        finally:
            session.thinking = None
            session.lock.release()

    async def undo(self, request: Request):
        session = self.store.get(request.path_params["id"])
        if not session.lock.acquire(blocking=False):
            raise ApiError(409, "the agent is still thinking")
        try:
            session.undo()
            return NumpyJSONResponse(session.view())
        finally:
            session.lock.release()


async def _unless_client_leaves(request: Request, task: asyncio.Task):
    """The result of ``task``; cancelled (and awaited, so its search has stopped) when the client
    disconnects first. A task cancelled from elsewhere (its session closed) is a 409."""
    left = asyncio.ensure_future(_client_left(request))
    try:
        await asyncio.wait({task, left}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:  # the server is stopping: stop the search too
        task.cancel()
        raise
    finally:
        left.cancel()
    if not task.done():
        task.cancel()
        await asyncio.wait({task})
        raise ApiError(409, "the client left before the agent moved; its search was stopped")
    if task.cancelled():
        raise ApiError(409, "the game was closed while its agent was thinking")
    return task.result()


async def _client_left(request: Request) -> None:
    """Returns once the client has disconnected (the body has been read already)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


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


def _explicit(requested, search: SearchSettings) -> dict:
    """The search fields the request sets, as checked into ``search`` (a champion's record
    gives the others)."""
    if not isinstance(requested, dict):
        return {}
    return {k: getattr(search, k) for k in SEARCH_FIELDS if requested.get(k) is not None}


def _build_agents(game, choices, search, seeds) -> tuple:
    """The agents of a session (None for a person); loading may compile or read a file."""
    return tuple(None if c.type == "human" else build_agent(game, c, search, s)
                 for c, s in zip(choices, seeds, strict=True))
