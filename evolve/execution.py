"""Execution backends: play a batch of indexed games and return results in index order.

``SerialBackend`` plays in-process. ``RayBackend`` keeps warm actors (engine imported and numba
kernels compiled once per actor), ships the generation's context (genomes) once with
``ray.put`` and feeds the actors indexed chunks of games, one outstanding chunk per actor so a
slow chunk never holds up the others. A chunk whose actor dies is replayed on a fresh actor;
results are stored by game index, so a game is never lost nor counted twice.
"""

from __future__ import annotations

import logging
import os

from evolve.config import ConfigError
from evolve.tournament import Context, GameResult, GameTask, play_tasks

log = logging.getLogger(__name__)


class SerialBackend:
    name = "serial"
    workers = 1

    def play(self, context: Context, tasks: list[GameTask]) -> list[GameResult]:
        return play_tasks(context, tasks)

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
    ctx = Context(game_name, SearchSettings(depth=1, endgame_empties=4), genome[None, :], 1, True)
    play_tasks(ctx, [GameTask(0, 0, 0, 0, "random", (), (0, 0, 0, 0))])


class RayBackend:
    name = "ray"

    def __init__(self, ray_cfg, warm_game: str | None = None, crash_flag: str | None = None):
        import ray

        self.ray = ray
        self.owns_ray = not ray.is_initialized()
        if self.owns_ray:
            if ray_cfg.address:
                ray.init(address=ray_cfg.address, log_to_driver=False,
                         logging_level=logging.WARNING)
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
        ray = self.ray
        ctx_ref = ray.put(context)  # genomes shipped once per batch, shared by all actors
        chunks = _chunks(tasks, self.workers, self.chunks_per_worker)
        pending = list(enumerate(chunks))[::-1]
        results: dict[int, GameResult] = {}
        attempts: dict[int, int] = {}
        running = {}  # object ref -> (actor slot, chunk id, chunk)
        free = list(range(len(self.actors)))
        while pending or running:
            while pending and free:
                slot, (cid, chunk) = free.pop(), pending.pop()
                running[self.actors[slot].play.remote(ctx_ref, chunk)] = (slot, cid, chunk)
            [done], _ = ray.wait(list(running), num_returns=1)
            slot, cid, chunk = running.pop(done)
            try:
                for res in ray.get(done):
                    results.setdefault(res.index, res)  # keyed by index: never counted twice
            except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError) as exc:
                attempts[cid] = attempts.get(cid, 0) + 1
                if attempts[cid] > self.max_retries:
                    raise RuntimeError(f"chunk {cid} failed {attempts[cid]} times: {exc}") from exc
                log.warning("worker died (%s); replaying %d games", type(exc).__name__, len(chunk))
                self._crash_flag = None
                self.actors[slot] = self._new_actor()
                pending.append((cid, chunk))
            free.append(slot)
        missing = [t.index for t in tasks if t.index not in results]
        if missing:
            raise RuntimeError(f"games missing after execution: {missing[:10]}")
        return [results[t.index] for t in tasks]

    def close(self) -> None:
        for actor in getattr(self, "actors", []):
            self.ray.kill(actor)
        self.actors = []
        if self.owns_ray:
            self.ray.shutdown()


def make_backend(config) -> SerialBackend | RayBackend:
    if config.backend == "serial":
        return SerialBackend()
    return RayBackend(config.ray, warm_game=config.game.name)
