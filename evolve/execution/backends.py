"""The one execution layer: play batches of indexed games, in-process or on Ray, for training
(``evolve.ga``) and evaluation (``evolve.arena``) alike.

A batch is a *context* (anything with ``play(tasks) -> results``, one result per task in order,
shipped once) and a list of tasks. ``submit(context, tasks)`` returns a ``Future`` at once;
``future.result()`` waits for that batch. Batches submitted together share the workers in
submission order, which is how a generation's yardstick overlaps the next round robin while the
driver writes outputs. Results come back in task order whatever worker played them.

``RayBackend`` keeps warm actors (engine imported and numba kernels compiled once per actor),
ships each context with ``ray.put`` and feeds the actors guided chunks of games, one outstanding
chunk per actor. A chunk whose actor dies is replayed on a fresh actor; results are stored by
position in its batch, so a game is never lost nor counted twice.
"""

from __future__ import annotations

import logging
import os
import socket
from collections import deque
from dataclasses import dataclass

from evolve.errors import ConfigError

log = logging.getLogger(__name__)


@dataclass
class RayConfig:
    address: str | None = None  # None: embedded local Ray; "auto" or "ray://host:port"
    num_cpus: int | None = None  # embedded Ray only; None: all local CPUs
    workers: int | None = None  # actors; None: the cluster's CPU count
    chunks_per_worker: int = 2  # guided split: each chunk = remaining / (this * workers)
    max_retries: int = 3


class Future:
    """A submitted batch; ``result()`` blocks until all its games are in."""

    def __init__(self, backend, batch_id: int, tasks: list):
        self.backend, self.batch_id, self.tasks = backend, batch_id, tasks

    def result(self) -> list:
        return self.backend.wait(self)


class SerialBackend:
    """Plays each batch in-process when its result is asked for."""

    name = "serial"
    workers = 1

    def __init__(self):
        self._contexts: dict[int, object] = {}
        self._next = 0

    def submit(self, context, tasks: list) -> Future:
        self._next += 1
        self._contexts[self._next] = context
        return Future(self, self._next, list(tasks))

    def wait(self, future: Future) -> list:
        context = self._contexts.pop(future.batch_id)
        return context.play(future.tasks)

    def play(self, context, tasks: list) -> list:
        return self.submit(context, tasks).result()

    def close(self) -> None:
        self._contexts.clear()


def chunks(tasks: list, workers: int, per_worker: int) -> list[list]:
    """Guided split: big chunks first, shrinking towards the end (each chunk takes
    1 / (per_worker * workers) of what is left), so workers finish together without paying
    the per-call overhead of many tiny chunks."""
    out, start = [], 0
    while start < len(tasks):
        size = max(1, -(-(len(tasks) - start) // (per_worker * workers)))
        out.append(tasks[start : start + size])
        start += size
    return out


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


def split_address(address: str) -> tuple[str, str]:
    """``host:port``, ``ray://host:port`` or ``[ipv6]:port`` -> (host, port)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host, port


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail in seconds, with one line, when ``ray.address`` names a host:port nobody listens on;
    ``ray.init`` itself would retry for a minute while printing connection warnings."""
    if address == "auto":
        return
    host, port = split_address(address)
    if not host or not port.isdigit():
        raise ConfigError(
            f"ray.address={address} must be auto, host:port, [ipv6]:port or ray://host:port")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ConfigError(
            f"ray.address={address}: no Ray cluster reachable there ({exc.strerror or exc}); "
            "start one with `ray start --head`, or leave ray.address unset for a local Ray"
        ) from None


class RayBackend:
    name = "ray"

    def __init__(self, ray_cfg, warm_up=None, crash_flag: str | None = None):
        import ray

        self.ray = ray
        self.owns_ray = not ray.is_initialized()
        if self.owns_ray:
            _init_ray(ray, ray_cfg)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = ray_cfg.workers or max(1, cpus)
        if self.workers > cpus:  # one CPU per actor: the extra actors would never start
            self.close()
            raise ConfigError(f"ray.workers={self.workers} must satisfy workers <= the"
                                       f" Ray cluster's CPUs ({cpus})")
        self.chunks_per_worker = ray_cfg.chunks_per_worker
        self.max_retries = ray_cfg.max_retries
        self._actor_cls = ray.remote(num_cpus=1, max_restarts=0)(GameWorker)
        self._warm_up, self._crash_flag = warm_up, crash_flag
        self.actors = [self._new_actor() for _ in range(self.workers)]
        ray.get([a.ping.remote() for a in self.actors])  # wait until warm
        # (batch id, (chunk id, first position), context ref, chunk), FIFO
        self._pending: deque = deque()
        self._running: dict = {}  # object ref -> (actor slot, entry)
        self._free = list(range(self.workers))
        self._results: dict[int, dict] = {}  # batch id -> {position in the batch: result}
        self._attempts: dict[tuple[int, int], int] = {}
        self._next = 0

    def _new_actor(self):
        return self._actor_cls.remote(self._warm_up, self._crash_flag)

    def submit(self, context, tasks: list) -> Future:
        """Queue the batch's chunks behind earlier batches and start what free actors can take."""
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
        while self._pending and self._free:
            slot, entry = self._free.pop(), self._pending.popleft()
            self._running[self.actors[slot].play.remote(entry[2], entry[3])] = (slot, entry)

    def wait(self, future: Future) -> list:
        """Play queued chunks (of any batch, in order) until ``future``'s games are all in."""
        done = self._results[future.batch_id]
        while len(done) < len(future.tasks):
            self._dispatch()
            if not self._running:
                raise RuntimeError(f"games missing after execution: batch {future.batch_id}")
            [ref], _ = self.ray.wait(list(self._running), num_returns=1)
            self._collect(ref)
        del self._results[future.batch_id]
        return [done[i] for i in range(len(future.tasks))]

    def _collect(self, ref) -> None:
        slot, entry = self._running.pop(ref)
        batch_id, (cid, start), _, chunk = entry
        try:
            for offset, res in enumerate(self.ray.get(ref)):
                self._results[batch_id].setdefault(start + offset, res)  # keyed: never twice
        except (self.ray.exceptions.RayActorError, self.ray.exceptions.WorkerCrashedError) as exc:
            key = (batch_id, cid)
            self._attempts[key] = self._attempts.get(key, 0) + 1
            if self._attempts[key] > self.max_retries:
                raise RuntimeError(f"chunk {cid} failed {self._attempts[key]} times: {exc}") \
                    from exc
            log.warning("worker died (%s); replaying %d games", type(exc).__name__, len(chunk))
            self._crash_flag = None
            self.actors[slot] = self._new_actor()
            self._pending.appendleft(entry)
        self._free.append(slot)

    def close(self) -> None:
        for actor in getattr(self, "actors", []):
            self.ray.kill(actor)
        self.actors = []
        if self.owns_ray:
            self.ray.shutdown()


def _init_ray(ray, ray_cfg) -> None:
    if ray_cfg.address:
        check_reachable(ray_cfg.address)
        try:
            ray.init(address=ray_cfg.address, log_to_driver=False, logging_level=logging.WARNING)
        except ConnectionError as exc:  # e.g. "auto" with no cluster running
            raise ConfigError(f"ray.address={ray_cfg.address}: {exc}") from None
    else:
        ray.init(num_cpus=ray_cfg.num_cpus, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.WARNING)


def make_backend(backend: str, ray_cfg=None, warm_up=None, crash_flag: str | None = None):
    """``serial`` or ``ray`` (``ray_cfg``: address, num_cpus, workers, chunks_per_worker,
    max_retries); ``warm_up`` runs once in every Ray actor before its first batch."""
    if backend == "serial":
        return SerialBackend()
    if backend == "ray":
        return RayBackend(ray_cfg, warm_up=warm_up, crash_flag=crash_flag)
    raise ConfigError(f"backend={backend} must be one of: serial, ray")
