"""Where agents think: worker processes (the command line), or threads (tests, embedding).

The engines' numba search holds the GIL while a kernel runs, so an agent thinking in a thread
still stalls the server's other requests for up to seconds (measured in docs/web.md); in a
worker process it cannot: the event loop only waits on a pipe. Both kinds take their turn in a
bounded line (``SlotQueue``). Only a process can be stopped mid-search: ``ProcessThinker`` kills
the worker of a move that passes the server's time cap, or whose request is cancelled (its game
closed, its client gone), and starts a fresh one in its place.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from engine.web.errors import ApiError
from engine.web.limits import Limits
from engine.web.slots import SlotQueue
from engine.web.workers import Worker, WorkerDied, think

STOPPING = ApiError(503, "the server is stopping")


class ThreadThinker:
    """Agents think in ``threads`` threads of the server (tests can inject any agent). A thread
    cannot be stopped: a cancelled move's slot is free only when its search ends, and the time
    cap is not enforced (a fixed-depth alpha-beta still stops itself at ``limits.deadline``)."""

    def __init__(self, limits: Limits | None = None, threads: int = 4):
        self.limits = limits = limits or Limits()
        self.queue = SlotQueue([None] * threads, limits.queue)
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="agent")

    async def move(self, session, player: int, time_limit: float | None = None
                   ) -> tuple[int, dict]:
        slot = await self.queue.take()
        search = self._pool.submit(think, session.game, session.agents[player], session.state,
                                   session.seeds[player], len(session.moves),
                                   self.limits.deadline, time_limit)
        try:
            result = await asyncio.wrap_future(search)
        except asyncio.CancelledError:
            loop = asyncio.get_running_loop()
            search.add_done_callback(lambda _: loop.call_soon_threadsafe(self.queue.give, slot))
            raise
        self.queue.give(slot)
        return result

    def status(self) -> dict:
        return {"workers": self.queue.size, "running": self.queue.running,
                "waiting": self.queue.waiting, "in": "threads"}

    def close(self) -> None:
        self.queue.close(STOPPING)
        self._pool.shutdown(wait=False, cancel_futures=True)


class ProcessThinker:
    """Agents think in ``workers`` spawned processes, one move each at a time; a move is
    stopped after ``limits.move_seconds`` or when its request is cancelled."""

    def __init__(self, workers: int = 1, limits: Limits | None = None):
        self.limits, self.closed = limits or Limits(), False
        self.queue = SlotQueue([Worker() for _ in range(workers)], self.limits.queue)
        self.busy: dict[Worker, str] = {}  # worker -> the session it thinks for
        self._readers = ThreadPoolExecutor(2 * workers, thread_name_prefix="agent-pipe")

    async def move(self, session, player: int, time_limit: float | None = None
                   ) -> tuple[int, dict]:
        """``player``'s move; ``time_limit``: its seconds under the game's clock."""
        worker = await self.queue.take()
        self.busy[worker] = session.id
        choice = session.players[player]
        job = (session.id, player, session.game.name, session.game.settings(), choice.player,
               choice.search or session.search, session.seeds[player], list(session.moves),
               self.limits.deadline, time_limit)
        running = worker
        try:
            reply = asyncio.wrap_future(self._readers.submit(running.run, job))
            return await asyncio.wait_for(reply, timeout=self.limits.move_seconds)
        except TimeoutError:
            worker = self._replace(running)
            raise ApiError(422, f"the agent did not move within this server's limit of "
                                f"{self.limits.move_seconds:g} s per move "
                                f"({_described(choice.search or session.search)})"
                                "; start a game with a lower depth, fewer moves searched "
                                "exactly, or seconds per move") from None
        except asyncio.CancelledError:  # the game was closed or its client went away
            worker = self._replace(running)
            raise
        except WorkerDied:  # killed from outside, out of memory, or the server is stopping
            worker = self._replace(running)
            if self.closed:
                raise STOPPING from None
            raise ApiError(503, "the agents' worker process stopped; ask for the move again "
                                "(a new worker starts)") from None
        finally:
            self.busy.pop(running, None)
            if worker is not None:
                self.queue.give(worker)

    def _replace(self, worker: Worker) -> Worker | None:
        """Kill ``worker`` (a search in progress included) and start a fresh one (none once
        the server is closing)."""
        worker.kill()
        return None if self.closed else Worker()

    def status(self) -> dict:
        return {"workers": self.queue.size, "running": self.queue.running,
                "waiting": self.queue.waiting, "in": "processes"}

    def close(self) -> None:
        """Stop every worker now, searches in progress included (their requests get a 503, as
        do those waiting in line). Call it on the event loop while the server runs."""
        if self.closed:
            return
        self.closed = True
        self.queue.close(STOPPING)
        for worker in [*self.busy, *self.queue.slots()]:
            worker.kill()
        self._readers.shutdown(wait=True)


def _described(search) -> str:
    if search is None:
        return "its search settings"
    budget = (f"{search.time_limit:g} s per move" if search.time_limit is not None
              else f"depth {search.depth}, no time limit")
    return f"{budget}, exact endgame at {search.endgame_empties} moves left"
