"""The Starlette app: game list, champions, recorded games, limits, and the sessions
(``engine.web.play``).

Everything about a game goes through ``engine.core`` (``get_game`` and the ``Game`` contract);
the only per-game knowledge here is which board renderer (a small JS file) draws its
``state_view``. Agents think off the event loop (``engine.web.thinking``: worker processes from
the command line, threads by default) within the server's ``Limits``, so one tab's search does
not hold up another tab's requests.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from engine.core import SearchSettings, get_game
from engine.web.errors import EXCEPTION_HANDLERS, NumpyJSONResponse
from engine.web.games import available_games, load_game
from engine.web.hosts import LocalHostsOnly
from engine.web.limits import Limits
from engine.web.play import SessionRoutes
from engine.web.players import check_web_spec
from engine.web.recorded import list_recorded
from engine.web.runs import RunCatalogue
from engine.web.sessions import SessionStore
from engine.web.thinking import ThreadThinker

STATIC = Path(__file__).parent / "static"


def create_app(runs: list[Path] | None = None, store: SessionStore | None = None,
               local_only: bool = False, thinker=None, limits: Limits | None = None) -> Starlette:
    """The app reading the ``runs`` directories; ``local_only``: refuse requests whose ``Host``
    is not a loopback name (what ``python -m engine.web`` does when it binds to localhost);
    ``thinker``: where agents think (default: threads within ``limits``; the command line uses
    worker processes, see ``engine.web.thinking``), whose limits the requests get."""
    catalogue = RunCatalogue([Path(p) for p in runs or []])
    store = store or SessionStore()
    thinker = thinker or ThreadThinker(limits or Limits())
    sessions = SessionRoutes(catalogue, store, thinker)

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
        listed = [dict(c.to_json(), searches=get_game(c.game).spec_searches(str(c.path)))
                  for c in catalogue.champions(game)]
        return NumpyJSONResponse({"champions": listed})

    async def spec(request: Request):
        """Whether a typed agent spec is accepted here, and whether it searches."""
        game = load_game(request.query_params.get("game"))
        text = check_web_spec(game, request.query_params.get("spec"), thinker.limits,
                              SearchSettings())
        return NumpyJSONResponse({"spec": text, "searches": game.spec_searches(text)})

    async def runs_list(_request: Request):
        return NumpyJSONResponse({"runs": [r.to_json() for r in catalogue.runs()]})

    async def recorded(request: Request):
        # a large table takes a second to parse the first time: not on the event loop
        listing = await run_in_threadpool(list_recorded, catalogue, request.query_params)
        return NumpyJSONResponse(listing)

    async def limits_now(_request: Request):
        return NumpyJSONResponse(dict(thinker.limits.to_json(), **thinker.status()))

    async def health(_request: Request):
        return NumpyJSONResponse({"ok": True})

    async def favicon(_request: Request):
        return Response(status_code=204)

    routes = [
        Route("/", index), Route("/favicon.ico", favicon), Route("/api/health", health),
        Route("/api/games", games), Route("/api/champions", champions),
        Route("/api/runs", runs_list), Route("/api/recorded", recorded),
        Route("/api/limits", limits_now), Route("/api/spec", spec), *sessions.routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(LocalHostsOnly)] if local_only else []
    return Starlette(routes=routes, exception_handlers=EXCEPTION_HANDLERS, middleware=middleware,
                     lifespan=lifespan)
