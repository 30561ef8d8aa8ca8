"""The Ray actors that play games: one per CPU of the cluster (at most ``ray.workers``), each
warm (engine imported, numba kernels compiled) before it gets work.

The pool follows the cluster: an actor lost with its node is not replaced while the cluster has
no CPU for it (a replacement would wait forever for a CPU that no longer exists), and actors
are added when nodes join. Every change is logged in one line.
"""

from __future__ import annotations

import itertools
import logging
import os

from evolve.execution.cluster import cluster_cpus

log = logging.getLogger("evolve.execution")


class GameWorker:
    """Ray actor body: one per CPU, reused across batches."""

    def __init__(self, warm_up=None, crash_flag: str | None = None):
        self.crash_flag = crash_flag  # tests only: a file whose presence kills this process once
        if warm_up is not None:
            warm_up()

    def play(self, context, tasks: list) -> list:
        if self.crash_flag:
            try:  # removing the flag claims the crash: one worker dies, however many race
                os.remove(self.crash_flag)
            except FileNotFoundError:
                pass
            else:
                os._exit(1)  # simulate a worker killed mid-batch
        return context.play(tasks)

    def ping(self) -> bool:
        return True


def lost_errors(ray) -> tuple:
    """What ``ray.get`` raises when an actor or the node holding a result is gone."""
    e = ray.exceptions
    return (e.RayActorError, e.WorkerCrashedError, e.ObjectLostError, e.NodeDiedError)


class WorkerPool:
    """Warm actors by id: ``idle`` ones take work; ``starting`` ones are warming up (their ping
    reference resolves when they are ready, or raises if they died first)."""

    def __init__(self, ray, limit: int | None, warm_up=None, crash_flag: str | None = None):
        self.ray, self.limit = ray, limit
        self._actor_cls = ray.remote(num_cpus=1, max_restarts=0)(GameWorker)
        self._warm_up, self._crash_flag = warm_up, crash_flag
        self._ids = itertools.count()
        self.actors: dict[int, object] = {}  # warm actors, idle or playing
        self.idle: list[int] = []
        self.starting: dict = {}  # ping reference -> (id, actor)
        self.cpus: int | None = None  # the cluster's CPUs when last looked at
        self.warm = False  # the first actors are in: later arrivals are logged

    def size(self) -> int:
        return len(self.actors)

    def target(self, cpus: int) -> int:
        return cpus if self.limit is None else min(self.limit, cpus)

    def resize(self) -> None:
        """Start an actor for every CPU the cluster has beyond the pool; stop waiting for
        starting actors the cluster no longer has CPUs for."""
        cpus = cluster_cpus(self.ray)
        if self.cpus is not None and cpus != self.cpus:
            log.warning("ray: the cluster now has %d CPUs (was %d); %d workers playing",
                        cpus, self.cpus, self.size())
        self.cpus = cpus
        missing = self.target(cpus) - self.size() - len(self.starting)
        for _ in range(missing):
            actor = self._actor_cls.remote(self._warm_up, self._crash_flag)
            self.starting[actor.ping.remote()] = (next(self._ids), actor)
        for ref in list(self.starting)[: max(0, -missing)]:
            self._kill(self.starting.pop(ref)[1])

    def on_ready(self, ref) -> None:
        """A starting actor's ping came back: it joins the pool, unless it died warming up."""
        aid, actor = self.starting.pop(ref)
        try:
            self.ray.get(ref)
        except lost_errors(self.ray) as exc:
            log.warning("ray: a starting worker was lost (%s)", type(exc).__name__)
            self._kill(actor)
            return
        self.actors[aid] = actor
        self.idle.append(aid)
        if self.warm:
            log.warning("ray: a worker joined; %d workers playing", self.size())

    def wait_warm(self, timeout: float) -> None:
        """Block until every starting actor is warm (or ``timeout`` seconds have passed)."""
        pending = list(self.starting)
        ready, _ = self.ray.wait(pending, num_returns=len(pending), timeout=timeout)
        for ref in ready:
            self.on_ready(ref)
        self.warm = True

    def take(self) -> tuple[int, object]:
        aid = self.idle.pop()
        return aid, self.actors[aid]

    def release(self, aid: int) -> None:
        self.idle.append(aid)

    def lose(self, aid: int) -> None:
        """Forget a dead actor (killing it, in case it only lost a result) and fill the gap
        if the cluster still has a CPU for it."""
        self._kill(self.actors.pop(aid))
        self._crash_flag = None  # tests: only the first actors carry the crash
        self.resize()

    def _kill(self, actor) -> None:
        try:
            self.ray.kill(actor)
        except Exception:  # noqa: BLE001 - already gone with its node: nothing to stop
            pass

    def close(self) -> None:
        for actor in [*self.actors.values(), *(a for _, a in self.starting.values())]:
            self._kill(actor)
        self.actors, self.idle, self.starting = {}, [], {}
