"""The one execution layer: play batches of indexed games, in-process or on Ray, for training
(``evolve.ga``) and evaluation (``evolve.arena``) alike.

A batch is a *context* (anything with ``play(tasks) -> results``, one result per task in order,
shipped once) and a list of tasks. ``submit(context, tasks)`` returns a ``Future`` at once;
``future.result()`` waits for that batch. Batches submitted together share the workers in
submission order, which is how a generation's yardstick overlaps the next round robin while the
driver writes outputs. Results come back in task order whatever worker played them.

``RayBackend`` (``evolve.execution.ray_backend``) keeps warm actors, one per CPU of a local Ray
or a cluster (``ray.address``), follows the cluster as nodes leave and join, and replays a lost
worker's chunk elsewhere: a game is never lost nor counted twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from evolve.errors import ConfigError
from evolve.execution.batches import Future, chunks
from evolve.execution.cluster import ClusterLostError, check_reachable, split_address
from evolve.execution.warmup import talking_warm_up

__all__ = ["ClusterLostError", "Future", "RayConfig", "SerialBackend", "check_reachable",
           "chunks", "make_backend", "split_address", "talking_warm_up"]


@dataclass
class RayConfig:
    address: str | None = None  # None: embedded local Ray; "auto" or "ray://host:port"
    num_cpus: int | None = None  # embedded Ray only; None: all local CPUs
    workers: int | None = None  # actors at most; None: one per CPU of the cluster
    chunks_per_worker: int = 2  # guided split: each chunk = remaining / (this * workers)
    max_retries: int = 3  # replays of a chunk whose worker died
    no_worker_timeout: float = 120.0  # seconds with no worker (no CPU left) before stopping
    # Ray's runtime_env for this job's workers (evolve.execution.runtime_env); None: unused
    runtime_env: dict[str, Any] = field(default_factory=lambda: dict.fromkeys(
        ("working_dir", "py_modules", "pip", "env_vars")))


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

    def poll(self) -> None:
        """Nothing runs in the background here (``RayBackend.poll`` starts queued work)."""

    def close(self) -> None:
        self._contexts.clear()


def make_backend(backend: str, ray_cfg=None, warm_up=None, crash_flag: str | None = None):
    """``serial`` or ``ray`` (``ray_cfg``: a ``RayConfig``); ``warm_up`` runs once in every
    Ray actor before its first batch."""
    if backend == "serial":
        return SerialBackend()
    if backend == "ray":
        from evolve.execution.ray_backend import RayBackend

        return RayBackend(ray_cfg or RayConfig(), warm_up=warm_up, crash_flag=crash_flag)
    raise ConfigError(f"backend={backend} must be one of: serial, ray")
