"""Execution backends: play batches of indexed games and return results in index order.

A batch is a ``(Context, tasks)`` pair. ``submit(batches)`` starts several at once (the run sends a
generation's yardstick together with the next round robin) and ``collect(job)`` waits for them,
returning one result list per batch; in between the run writes the previous generation's outputs.
``SerialBackend`` plays in-process (at ``collect``). ``RayBackend`` keeps warm actors (engine
imported and numba kernels compiled once per actor), ships each batch's context (genomes) once
with ``ray.put`` and feeds the actors indexed chunks of games, one outstanding chunk per actor so a
slow chunk never holds up the others. A chunk whose actor dies is replayed on a fresh actor;
results are stored by game index, so a game is never lost nor counted twice.
"""

from __future__ import annotations

import logging
import os
import socket

from evolve.config import ConfigError
from evolve.tournament import Context, GameResult, GameTask, play_tasks

log = logging.getLogger(__name__)


Batch = tuple[Context, list[GameTask]]


class SerialBackend:
    name = "serial"
    workers = 1

    def play(self, context: Context, tasks: list[GameTask]) -> list[GameResult]:
        return self.play_batches([(context, tasks)])[0]

    def play_batches(self, batches: list[Batch]) -> list[list[GameResult]]:
        return self.collect(self.submit(batches))

    def submit(self, batches: list[Batch]) -> list[Batch]:
        return list(batches)

    def collect(self, job: list[Batch]) -> list[list[GameResult]]:
        return [play_tasks(context, tasks) for context, tasks in job]

    def close(self) -> None:
        pass


def _chunks(tasks: list[GameTask], workers: int, per_worker: int) -> list[list[GameTask]]:
    """Guided split: big chunks first, shrinking towards the end (each chunk takes
    1 / (per_worker * workers) of what is left), so workers finish together without paying
    the per-call overhead of many tiny chunks."""
    chunks, start = [], 0
    while start < len(tasks):
        size = max(1, -(-(len(tasks) - start) // (per_worker * workers)))
        chunks.append(tasks[start : start + size])
        start += size
    return chunks


class GameWorker:
    """Ray actor body: one per CPU, reused across generations."""

    def __init__(self, warm_game: str | None, crash_flag: str | None = None):
        self.crash_flag = crash_flag  # tests only: a file whose presence kills this process once
        if warm_game:
            _warm_up(warm_game)

    def play(self, context: Context, tasks: list[GameTask]) -> list[GameResult]:
        if self.crash_flag and os.path.exists(self.crash_flag):
            os.remove(self.crash_flag)
            os._exit(1)  # simulate a worker killed mid-generation
        return play_tasks(context, tasks)

    def ping(self) -> bool:
        return True


def _warm_up(game_name: str) -> None:
    """Compile the engine's kernels now rather than inside the first timed generation."""
    import numpy as np

    from engine.games import SearchSettings, get_game

    game = get_game(game_name)
    layout = game.layout(1, True)
    low, high = layout.default_bounds()
    genome = (np.asarray(low, dtype=np.float64) + np.asarray(high, dtype=np.float64)) / 2
    ctx = Context(game_name, SearchSettings(depth=1, endgame_empties=4), genome[None, :], (), True)
    play_tasks(ctx, [GameTask(0, 0, 0, 0, "random", (), (0, 0, 0, 0))])


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail in seconds, with one line, when ``ray.address`` names a host:port nobody listens on;
    ``ray.init`` itself would retry for a minute while printing connection warnings."""
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ConfigError(f"ray.address={address} must be auto, host:port or ray://host:port")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ConfigError(
            f"ray.address={address}: no Ray cluster reachable there ({exc.strerror or exc}); "
            "start one with `ray start --head`, or leave ray.address unset for a local Ray"
        ) from None


class RayBackend:
    name = "ray"

    def __init__(self, ray_cfg, warm_game: str | None = None, crash_flag: str | None = None):
        import ray

        self.ray = ray
        self.owns_ray = not ray.is_initialized()
        if self.owns_ray:
            if ray_cfg.address:
                check_reachable(ray_cfg.address)
                try:
                    ray.init(address=ray_cfg.address, log_to_driver=False,
                             logging_level=logging.WARNING)
                except ConnectionError as exc:  # e.g. "auto" with no cluster running
                    raise ConfigError(f"ray.address={ray_cfg.address}: {exc}") from None
            else:
                ray.init(num_cpus=ray_cfg.num_cpus, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.WARNING)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = ray_cfg.workers or max(1, cpus)
        if self.workers > cpus:  # one CPU per actor: the extra actors would never start
            self.close()
            raise ConfigError(f"ray.workers={self.workers} must satisfy workers <= the Ray "
                              f"cluster's CPUs ({cpus})")
        self.chunks_per_worker = ray_cfg.chunks_per_worker
        self.max_retries = ray_cfg.max_retries
        self._actor_cls = ray.remote(num_cpus=1, max_restarts=0)(GameWorker)
        self._warm_game, self._crash_flag = warm_game, crash_flag
        self.actors = [self._new_actor() for _ in range(self.workers)]
        ray.get([a.ping.remote() for a in self.actors])  # wait until warm

    def _new_actor(self):
        return self._actor_cls.remote(self._warm_game, self._crash_flag)

    def play(self, context: Context, tasks: list[GameTask]) -> list[GameResult]:
        return self.play_batches([(context, tasks)])[0]

    def play_batches(self, batches: list[Batch]) -> list[list[GameResult]]:
        return self.collect(self.submit(batches))

    def submit(self, batches: list[Batch]) -> _Job:
        """Queue every batch's chunks in order (each batch's big to small) and start one chunk per
        actor, so a worker finishing one batch goes straight on to the next."""
        job = _Job(batches)
        job.free = list(range(len(self.actors)))  # one job at a time: collect before submitting
        for b, (context, tasks) in enumerate(batches):
            ctx_ref = self.ray.put(context)  # genomes shipped once per batch, shared by actors
            for chunk in _chunks(tasks, self.workers, self.chunks_per_worker):
                job.pending.append(((b, len(job.pending)), ctx_ref, chunk))
        job.pending.reverse()
        self._dispatch(job)
        return job

    def _dispatch(self, job: _Job) -> None:
        while job.pending and job.free:
            slot, entry = job.free.pop(), job.pending.pop()
            job.running[self.actors[slot].play.remote(entry[1], entry[2])] = (slot, entry)

    def collect(self, job: _Job) -> list[list[GameResult]]:
        """Wait for ``job``; a chunk whose actor died is replayed on a fresh actor."""
        ray = self.ray
        while job.pending or job.running:
            self._dispatch(job)
            [done], _ = ray.wait(list(job.running), num_returns=1)
            slot, entry = job.running.pop(done)
            (b, cid), _, chunk = entry
            try:
                for res in ray.get(done):
                    job.results.setdefault((b, res.index), res)  # keyed: never counted twice
            except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError) as exc:
                job.attempts[cid] = job.attempts.get(cid, 0) + 1
                if job.attempts[cid] > self.max_retries:
                    raise RuntimeError(f"chunk {cid} failed {job.attempts[cid]} times: {exc}") \
                        from exc
                log.warning("worker died (%s); replaying %d games", type(exc).__name__, len(chunk))
                self._crash_flag = None
                self.actors[slot] = self._new_actor()
                job.pending.append(entry)
            job.free.append(slot)
        return [_in_order(job.results, b, tasks) for b, (_, tasks) in enumerate(job.batches)]

    def close(self) -> None:
        for actor in getattr(self, "actors", []):
            self.ray.kill(actor)
        self.actors = []
        if self.owns_ray:
            self.ray.shutdown()


class _Job:
    """Submitted batches: chunks waiting, chunks running (object ref -> actor slot and chunk),
    results keyed by (batch, game index)."""

    def __init__(self, batches: list[Batch]):
        self.batches = batches
        self.pending: list = []  # ((batch, chunk id), context ref, chunk), popped from the end
        self.running: dict = {}
        self.results: dict[tuple[int, int], GameResult] = {}
        self.attempts: dict[int, int] = {}
        self.free: list[int] = []


def _in_order(results: dict, batch: int, tasks: list[GameTask]) -> list[GameResult]:
    missing = [t.index for t in tasks if (batch, t.index) not in results]
    if missing:
        raise RuntimeError(f"games missing after execution: {missing[:10]}")
    return [results[batch, t.index] for t in tasks]


def make_backend(config) -> SerialBackend | RayBackend:
    if config.backend == "serial":
        return SerialBackend()
    return RayBackend(config.ray, warm_game=config.game.name)
