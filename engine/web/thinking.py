"""Where agents think: a worker thread, or a worker process.

The engines' numba search holds the GIL while a kernel runs, so an agent thinking in a thread
still stalls the server's other requests for up to seconds (measured in docs/web.md). In a
worker process it cannot: the event loop only waits on a future. The process keeps each
session's agents between moves (built from the same spec, search and seed as the session's
own, so a game plays the same in either mode); one worker runs one search at a time.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from starlette.concurrency import run_in_threadpool

from engine.core import SearchSettings, get_game, specs
from engine.core.match import replay
from engine.web.errors import ApiError

MAX_WORKER_AGENTS = 64  # agents a worker keeps (least recently used dropped)


def think(game, agent, state) -> tuple[int, dict]:
    """The agent's move and what it reports (a forced move is played without asking, as the
    match runner does)."""
    legal = game.legal_moves(state)
    if len(legal) == 1:
        return int(legal[0]), {"forced": True}
    start = time.perf_counter()
    move = int(agent.select_move(state))
    info = getattr(agent, "last_info", None)
    info = dict(info) if isinstance(info, dict) else {}
    return move, dict(info, seconds=round(time.perf_counter() - start, 3))


class ThreadThinker:
    """Agents think in the server's thread pool (simple; tests can inject any agent)."""

    async def move(self, session, player: int) -> tuple[int, dict]:
        return await run_in_threadpool(think, session.game, session.agents[player], session.state)

    def close(self) -> None:
        pass


class ProcessThinker:
    """Agents think in ``workers`` spawned processes."""

    def __init__(self, workers: int = 1):
        self.workers = workers
        self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))

    async def move(self, session, player: int) -> tuple[int, dict]:
        choice = session.players[player]
        job = (session.id, player, session.game.name, session.game.settings(), choice.source,
               session.search, session.seeds[player], list(session.moves))
        try:
            return await asyncio.wrap_future(self.pool.submit(_think_in_worker, *job))
        except BrokenProcessPool:  # a worker died (killed, out of memory): start new ones
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = self._new_pool()
            raise ApiError(503, "the agents' worker process stopped; ask for the move again "
                                "(a new worker starts)") from None

    def close(self) -> None:
        """Stop the workers now, a search in progress included (there is no public way to
        interrupt one; left alone, an idle worker can outlive the server)."""
        workers = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.join(timeout=10)
        self.pool.shutdown(wait=True)  # the pool's own thread and queues, now that none works


_worker_agents: OrderedDict = OrderedDict()


def _think_in_worker(session_id: str, player: int, game_name: str, settings: dict,
                     source: str, search: SearchSettings, seed, moves: list[int]):
    game = get_game(game_name, settings)
    key = (session_id, player)
    agent = _worker_agents.get(key)
    if agent is None:
        agent = specs.make_agent(game, source, search, seed)
        _worker_agents[key] = agent
        while len(_worker_agents) > MAX_WORKER_AGENTS:
            _worker_agents.popitem(last=False)
    _worker_agents.move_to_end(key)
    move, info = think(game, agent, replay(game, moves))
    return move, dict(info, worker=os.getpid())
