"""Batches of indexed games on warm Ray actors, local or on a cluster, surviving node loss.

Each batch's context is shipped once with ``ray.put``; its tasks are cut into guided chunks,
queued behind earlier batches, one outstanding chunk per actor. A chunk whose actor (or node)
is lost goes back to the front of the queue and is replayed whole on a surviving or new actor;
results are stored by position in their batch, so a game is never lost nor counted twice and
the results are those of an uninterrupted run. When no actor is left and the cluster has no
CPU for a new one, the wait is bounded: ``ClusterLostError`` after ``ray.no_worker_timeout``.
"""

from __future__ import annotations

import logging
import time
from collections import deque

from evolve.errors import ConfigError
from evolve.execution.batches import Future, chunks
from evolve.execution.cluster import ClusterLostError, cluster_cpus, init_ray
from evolve.execution.pool import WorkerPool, lost_errors
from evolve.execution.warmup import talking_warm_up

log = logging.getLogger("evolve.execution")
POLL_SECONDS = 1.0  # how often a waiting driver looks for joined nodes and lost workers


class RayBackend:
    name = "ray"

    def __init__(self, ray_cfg, warm_up=None, crash_flag: str | None = None):
        import ray

        self.ray = ray
        self.owns_ray = not ray.is_initialized()
        if self.owns_ray:
            init_ray(ray, ray_cfg)
        cpus = cluster_cpus(ray)
        if ray_cfg.workers is not None and ray_cfg.workers > cpus:  # one CPU per actor
            self._shutdown()
            raise ConfigError(f"ray.workers={ray_cfg.workers} must satisfy workers <= the"
                              f" Ray cluster's CPUs ({cpus})")
        self.chunks_per_worker = ray_cfg.chunks_per_worker
        self.max_retries = ray_cfg.max_retries
        self.no_worker_timeout = ray_cfg.no_worker_timeout
        self.pool = WorkerPool(ray, ray_cfg.workers, warm_up, crash_flag)
        self._stalled_since: float | None = None  # since when the cluster has had no CPU
        self._looked_at = time.monotonic()  # when the pool last followed the cluster
        # (batch id, (chunk id, first position), context ref, chunk), FIFO
        self._pending: deque = deque()
        self._running: dict = {}  # object ref -> (actor id, entry)
        self._results: dict[int, dict] = {}  # batch id -> {position in the batch: result}
        self._attempts: dict[tuple[int, int], int] = {}
        self._next = 0
        try:
            self.pool.resize()
            who = f"{len(self.pool.starting)} Ray workers"
            log.info("%s: warming up (each loads the game's compiled kernels)", who)
            with talking_warm_up(log, who):
                while self.pool.starting:  # the first actors warm before the first batch
                    self._step()
            self.pool.warm = True  # from now on, a new actor is a node that joined: logged
        except BaseException:
            self.close()
            raise

    @property
    def workers(self) -> int:
        return max(1, self.pool.size())

    def submit(self, context, tasks: list):
        """Queue the batch's chunks behind earlier batches and start what idle actors can take."""
        self._next += 1
        batch_id, ctx_ref = self._next, self.ray.put(context)  # shipped once, shared by actors
        self._results[batch_id] = {}
        start = 0
        for cid, chunk in enumerate(chunks(tasks, self.workers, self.chunks_per_worker)):
            self._pending.append((batch_id, (cid, start), ctx_ref, chunk))
            start += len(chunk)
        self._dispatch()
        return Future(self, batch_id, list(tasks))

    def play(self, context, tasks: list) -> list:
        return self.submit(context, tasks).result()

    def _dispatch(self) -> None:
        while self._pending and self.pool.idle:
            (aid, actor), entry = self.pool.take(), self._pending.popleft()
            self._running[actor.play.remote(entry[2], entry[3])] = (aid, entry)

    def poll(self) -> None:
        """Collect the chunks that have finished and start queued ones, without waiting: a
        driver busy with its own work calls it now and then so that idle actors get work."""
        if self._running:
            refs = list(self._running)
            for ref in self.ray.wait(refs, num_returns=len(refs), timeout=0)[0]:
                self._collect(ref)
        self._dispatch()

    def wait(self, future) -> list:
        """Play queued chunks (of any batch, in order) until ``future``'s games are all in."""
        done = self._results[future.batch_id]
        while len(done) < len(future.tasks):
            self._dispatch()
            if not (self._pending or self._running):
                raise RuntimeError(f"games missing after execution: batch {future.batch_id}")
            self._step()
        del self._results[future.batch_id]
        return [done[i] for i in range(len(future.tasks))]

    def _step(self) -> None:
        """Handle one finished chunk or warmed-up actor; every ``POLL_SECONDS`` follow the
        cluster (nodes joined or lost), and bound the wait when it has no CPU left."""
        refs = [*self._running, *self.pool.starting]
        ready = self.ray.wait(refs, num_returns=1, timeout=POLL_SECONDS)[0] if refs else []
        if not refs:
            time.sleep(POLL_SECONDS)
        for ref in ready:
            if ref in self._running:
                self._collect(ref)
            else:
                self.pool.on_ready(ref)
        if not ready or time.monotonic() - self._looked_at > POLL_SECONDS:
            self.pool.resize()  # a busy run looks too: nodes may join while every actor plays
            self._looked_at = time.monotonic()
        if self.pool.size() or self.pool.cpus:  # starting actors wait for warm-up or a CPU
            self._stalled_since = None
        elif self._stalled_since is None:
            self._stalled_since = time.monotonic()
            log.warning("ray: no worker left and no CPU in the cluster; waiting up to %g s for a"
                        " node to join", self.no_worker_timeout)
        elif time.monotonic() - self._stalled_since > self.no_worker_timeout:
            raise ClusterLostError(
                f"ray: the cluster has had no CPU for {self.no_worker_timeout:g} s (every node "
                f"that could play was lost; ray.no_worker_timeout={self.no_worker_timeout:g})")

    def _collect(self, ref) -> None:
        aid, entry = self._running.pop(ref)
        batch_id, (cid, start), _, chunk = entry
        try:
            results = self.ray.get(ref)
        except lost_errors(self.ray) as exc:
            self._replay(aid, entry, exc)
            return
        for offset, res in enumerate(results):
            self._results[batch_id].setdefault(start + offset, res)  # keyed: never twice
        self.pool.release(aid)

    def _replay(self, aid: int, entry: tuple, exc: Exception) -> None:
        """Put a lost chunk back at the front of the queue for the next free actor."""
        batch_id, (cid, _), _, chunk = entry
        key = (batch_id, cid)
        self._attempts[key] = self._attempts.get(key, 0) + 1
        if self._attempts[key] > self.max_retries:
            raise RuntimeError(f"chunk {cid} failed {self._attempts[key]} times: {exc}") from exc
        self.pool.lose(aid)
        self._pending.appendleft(entry)
        log.warning("ray: lost a worker (%s); replaying its %d games; %d workers left, "
                    "%d starting, the cluster has %d CPUs", type(exc).__name__, len(chunk),
                    self.pool.size(), len(self.pool.starting), self.pool.cpus)

    def close(self) -> None:
        if hasattr(self, "pool"):
            self.pool.close()
        self._shutdown()

    def _shutdown(self) -> None:
        if self.owns_ray:
            self.ray.shutdown()
