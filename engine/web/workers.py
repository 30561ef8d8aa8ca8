"""Worker processes the agents think in: one spawned process per worker, one move at a time, a
pipe each way, and ``kill`` to stop a search at once.

A numba kernel cannot be interrupted from Python, so stopping a search (the server's time cap,
a closed game, a client gone) means killing its process and starting a fresh one. A plain
process and pipe make that safe to do at any moment: no pool bookkeeping, no shared queue or
semaphore left behind (a ``ProcessPoolExecutor`` whose worker is killed leaks both). The
messages are the server's own (job tuples and results), never anything a user sends.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections import OrderedDict

from engine.core import SearchSettings, child_seeds, get_game
from engine.core.agent import set_deadline
from engine.core.matches import specs
from engine.core.matches.clock import timed_inner
from engine.core.matches.runner import replay

MAX_WORKER_AGENTS = 64  # agents a worker keeps between moves (least recently used dropped)
_CONTEXT = multiprocessing.get_context("spawn")  # no copy of the server's threads or sockets


class WorkerDied(Exception):
    """The worker process stopped before answering (killed, out of memory)."""


class Worker:
    """A spawned process answering jobs sent down its pipe; ``run`` blocks until it answers."""

    def __init__(self):
        self._lock = threading.Lock()
        self._running = self._killed = False
        self.conn, child = _CONTEXT.Pipe()
        self.process = _CONTEXT.Process(target=_serve, args=(child,), daemon=True,
                                        name="board-evolve-agent")
        self.process.start()
        child.close()  # the parent keeps one end: the worker's death is an EOF here

    @property
    def pid(self) -> int:
        return self.process.pid

    def run(self, job: tuple):
        """The job's result (raises what the job raised as ``RuntimeError``; ``WorkerDied`` if
        the process stops first)."""
        with self._lock:
            if self._killed:
                raise WorkerDied(f"agent worker {self.pid} was stopped")
            self._running = True
        try:
            self.conn.send(job)
            status, payload = self.conn.recv()
        except (EOFError, OSError):
            raise WorkerDied(f"agent worker {self.pid} stopped") from None
        finally:
            with self._lock:
                self._running = False
                if self._killed:  # kill() left the pipe to us: we were still reading it
                    self.conn.close()
        if status == "error":
            raise RuntimeError(f"in agent worker {self.pid}: {payload}")
        return payload

    def kill(self) -> None:
        """Stop the process now, whatever it is doing (a reader blocked in ``run`` gets EOF)."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=10)
        with self._lock:
            if not self._killed and not self._running:
                self.conn.close()
            self._killed = True


def _serve(conn) -> None:
    """The worker's loop: a job in, ``("ok", result)`` or ``("error", traceback)`` out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops us
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return  # the server is gone
        try:
            conn.send(("ok", think_in_worker(*job)))
        except Exception:  # noqa: BLE001 (any bug in a game: reported to the server, logged)
            conn.send(("error", traceback.format_exc(limit=-3)))


def move_seed(seed, ply: int):
    """The seed an agent is reset with before the move at ``ply``: the ``ply``-th child of the
    player's seed."""
    return child_seeds(seed, ply + 1)[ply]


def think(game, agent, state, seed, ply: int, deadline: float | None = None,
          time_limit: float | None = None) -> tuple[int, dict]:
    """The agent's move at ``ply`` and what it reports (a forced move is played without asking,
    as the match runner does). The agent is reset with ``move_seed(seed, ply)`` first, so the
    move depends only on the spec, search, seed and position: not on which worker thinks, nor
    on what the agent did before (a replaced worker, an undo, a session's moves shared by two
    workers all play the same game). ``deadline``: the seconds a fixed-depth alpha-beta may
    search before it plays its deepest completed depth (``set_deadline``). ``time_limit``: this
    move's seconds under a game clock, given to the timed search of the agent (if it has one)."""
    legal = game.legal_moves(state)
    if len(legal) == 1:
        return int(legal[0]), {"forced": True}
    agent.reset(move_seed(seed, ply))
    set_deadline(agent, deadline)
    timed = timed_inner(agent) if time_limit is not None else None
    if timed is not None:
        timed.time_limit = time_limit
    start = time.perf_counter()
    move = int(agent.select_move(state))
    info = getattr(agent, "last_info", None)
    info = dict(info) if isinstance(info, dict) else {}
    return move, dict(info, seconds=round(time.perf_counter() - start, 3))


_worker_agents: OrderedDict = OrderedDict()


def think_in_worker(session_id: str, player: int, game_name: str, settings: dict,
                    source: specs.Player,
                    search: SearchSettings, seed, moves: list[int],
                    deadline: float | None = None,
                    time_limit: float | None = None) -> tuple[int, dict]:
    """The move of ``player`` of session ``session_id`` after ``moves``: its agent is built
    from the session's spec or loaded ``Champion`` (no file is read here), search and seed (as
    the server builds it) and kept for its next moves (building may allocate tables)."""
    game = get_game(game_name, settings)
    key = (session_id, player)
    agent = _worker_agents.get(key)
    if agent is None:
        agent = specs.make_agent(game, source, search, seed)
        _worker_agents[key] = agent
        while len(_worker_agents) > MAX_WORKER_AGENTS:
            _worker_agents.popitem(last=False)
    _worker_agents.move_to_end(key)
    move, info = think(game, agent, replay(game, moves), seed, len(moves), deadline, time_limit)
    return move, dict(info, worker=os.getpid())
