"""The training loop of ``python -m evolve.td``: stages of TD self-play cut into steps, each
reproducible from its seed, checkpointed so that a killed run resumes exactly.

Two ways to play a stage's games (``Schedule``):

- **online** (``round_games`` 0, one process): steps of ``ONLINE_CHUNK`` games of
  ``Game.td_learn``, stage ``k``'s chunk ``c`` from ``SeedSequence([seed, k, c])``: the network
  learns after every move.
- **rounds** (``round_games`` G, any backend: serial or Ray actors, one machine or a cluster):
  step ``i`` is a round of G games played with a fixed network (``Game.td_play``) in tasks of
  ``chunk_games`` games, task ``c`` of round ``r`` of stage ``k`` from
  ``SeedSequence([seed, k, r, c])``; the driver then learns from them in task order, game by
  game (``Game.td_learn_games``). Round ``i`` is played by the network as it was after round
  ``i - 2`` (round 0 and 1: the start), so that the workers play round ``i + 1`` while the
  driver learns round ``i``. The network depends on the seed, G and the chunk size alone: it is
  the same for 1, 2 or 16 workers, serial or Ray.
- **rounds learnt on the workers** (``learner`` ``workers``): synchronous rounds. Each task
  also learns from its own games, starting from the network that played them, and returns the
  change; the network then moves by the mean of the round's changes (summed in task order):
  parameter averaging, as in local SGD. Round ``i + 1`` is played by the network after round
  ``i``: no round in flight, since the changes must start from the network they are added to.
  The driver no longer learns every game itself (its one core caps rounds at a few workers);
  the network is still the same for any number of workers, but not the driver-learnt one.
  Two ways that fail, measured: a sum of the changes moves a weight that every task learns
  (the features, common patterns) by as many times its change as there are tasks (5% against
  the driver-learnt network at 1 million games); and changes made from the network of round
  ``i - 2`` but added to that of round ``i - 1`` (the first version, one round in flight)
  oscillate where a round moves a weight most of the way to its target: at rate 0.07 the
  network got worse as it went (26% against the driver-learnt one at 2 million games, 24%
  against the synchronous one; ``experiments/results/td_workers_sync.md``).

Checkpoints: ``evolve.td_checkpoint``.
"""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from evolve.td_checkpoint import Progress, read_checkpoint, write_checkpoint

log = logging.getLogger("evolve.td")
WORKERS_ROUND = "synchronous"  # --learner workers: changes added to the network they start from
ONLINE_CHUNK = 5000  # games per td_learn call in online mode: a step, a seed stream


@dataclass(frozen=True)
class Schedule:
    """What fixes the network besides the start: the stages, the seed and how games are cut."""

    game: str  # the game and its settings (JSON), so a checkpoint is not resumed by another
    settings: str
    stages: tuple[tuple[int, float], ...]  # (games, alpha)
    seed: int
    epsilon: float
    round_games: int = 0  # 0: online
    chunk_games: int = 100
    opening_plies: tuple[int, int] | None = None
    opponents: tuple[str, ...] = ()
    self_play_share: float = 0.5
    start: str = "zero"  # the --start the run began from
    step_rule: str = "nlms"  # how each weight moves (engine.core.StepRule)
    phase_share: float = 0.0
    learner: str = "driver"  # rounds: who learns (driver | workers)

    @property
    def step_games(self) -> int:
        """Games per step (the last step of a stage may have fewer)."""
        return self.round_games or ONLINE_CHUNK

    def steps(self) -> list[tuple[int, int, int, float]]:
        """``(stage, index in the stage, games, alpha)`` of every step, in order."""
        size = self.step_games
        return [(k, i, min(size, games - done), alpha)
                for k, (games, alpha) in enumerate(self.stages)
                for i, done in enumerate(range(0, games, size))]

    def tasks(self, stage: int, index: int, games: int) -> list:
        from evolve.execution.learning import PlayTask

        return [PlayTask(c, min(self.chunk_games, games - start),
                         (self.seed, stage, index, c))
                for c, start in enumerate(range(0, games, self.chunk_games))]

    def to_json(self) -> str:
        """What a checkpoint is checked against (``start`` only when not ``zero``: checkpoints
        made before it was recorded stay resumable)."""
        fields = asdict(self)
        if self.learner == "workers":  # the first version's checkpoints are not resumed by it
            fields["workers_round"] = WORKERS_ROUND
        for key, default in (("start", "zero"), ("step_rule", "nlms"), ("phase_share", 0.0),
                             ("learner", "driver")):
            if fields[key] == default:  # not recorded by older checkpoints
                del fields[key]
        return json.dumps(fields, sort_keys=True)

    @staticmethod
    def outdated(stored: str) -> str | None:
        """Why a checkpoint's schedule (``to_json`` of an earlier version) cannot be resumed
        by this one however the options are given; ``None`` when it can be compared."""
        fields = json.loads(stored)
        if fields.get("learner") == "workers" and "workers_round" not in fields:
            return ("was made by the first --learner workers (each round's changes added one "
                    "round late, which can make the network worse); this version learns in "
                    "synchronous rounds and cannot resume it")
        return None

    def rule(self):
        """A fresh ``StepRule`` (None when plain: the games' defaults, any game)."""
        from engine.core import StepRule

        rule = StepRule(self.step_rule, self.phase_share)
        return None if rule.is_plain else rule


def train(game, genome: np.ndarray, schedule: Schedule, backend=None,
          checkpoint: Path | None = None, checkpoint_seconds: float = 60.0,
          progress_bar: bool = False, resume: bool = False,
          after_step=None) -> tuple[np.ndarray, Progress]:
    """The genome after every step of ``schedule`` (module docstring), from ``genome`` or from
    ``checkpoint`` with ``resume``; ``backend``: an execution backend for rounds (``None``:
    in-process). ``after_step(genome, progress, games of the step)`` is called after each step,
    before its checkpoint (so a step it saw is either checkpointed or run again after a kill).
    Returns the genome and the totals."""
    from tqdm import tqdm

    steps = schedule.steps()
    done, snapshot, rule = Progress(), genome.copy(), schedule.rule()
    if resume and checkpoint is not None and checkpoint.is_file():
        genome, snapshot, done = read_checkpoint(checkpoint, schedule, rule)
        log.info("resumed from %s: step %d of %d, %s games done", checkpoint, done.step,
                 len(steps), f"{done.games:,}")
    elif resume:
        log.info("no checkpoint at %s: starting from the first game", checkpoint)
    total = sum(g for _, _, g, _ in steps)
    clock = Clock(total, done.games)
    last_saved = time.monotonic()
    with tqdm(total=total, initial=done.games, unit="game", disable=not progress_bar,
              desc="TD self-play") as bar:
        runner = (RoundRunner(game, schedule, steps, backend, rule) if schedule.round_games
                  else OnlineRunner(game, schedule, steps, rule))
        for i in range(done.step, len(steps)):
            started, wall = time.process_time(), time.monotonic()
            genome, snapshot, errors = runner.step(i, genome, snapshot)
            done = Progress(i + 1, done.games + steps[i][2],
                            done.cpu_seconds + time.process_time() - started,
                            done.worker_cpu_seconds + runner.worker_cpu(i),
                            done.wall_seconds + time.monotonic() - wall)
            bar.update(steps[i][2])
            clock.log(done, steps[i], errors, len(steps))
            if after_step is not None:
                after_step(genome, done, steps[i][2])
            if checkpoint is not None and (time.monotonic() - last_saved >= checkpoint_seconds
                                           or i + 1 == len(steps)):
                write_checkpoint(checkpoint, schedule, genome, snapshot, done, rule)
                last_saved = time.monotonic()
    return genome, done


class OnlineRunner:
    def __init__(self, game, schedule: Schedule, steps, rule=None):
        self.game, self.schedule, self.steps = game, schedule, steps
        self.against = ({"opponents": schedule.opponents,
                         "self_play_share": schedule.self_play_share}
                        if schedule.opponents else {})
        if rule is not None:  # learnt in place across steps
            self.against["rule"] = rule

    def results(self, i: int) -> list:
        """Round ``i``'s task results, once done; what they cost other processes is kept for
        ``worker_cpu``."""
        results = self.futures.pop(i).result()
        self.remote_cpu[i] = sum(r.cpu_seconds for r in results if r.pid != os.getpid())
        return results

    def worker_cpu(self, i: int) -> float:
        return 0.0  # every game is played in this process

    def step(self, i: int, genome, snapshot):
        stage, index, games, alpha = self.steps[i]
        learnt = self.game.td_learn(genome, games, np.random.SeedSequence(
            [self.schedule.seed, stage, index]), alpha, self.schedule.epsilon, **self.against)
        return learnt, learnt, None


class RoundRunner:
    """Rounds learnt by the driver with one in flight: step ``i`` submits round ``i + 1``
    (played by the network before round ``i`` is learnt), then learns round ``i``. Learnt on
    the workers: synchronous (``averaged``)."""

    def __init__(self, game, schedule: Schedule, steps, backend, rule=None):
        from evolve.execution.backends import SerialBackend

        self.game, self.schedule, self.steps = game, schedule, steps
        self.rule = {} if rule is None else {"rule": rule}
        self.backend = backend or SerialBackend()
        self.futures: dict[int, object] = {}
        self.remote_cpu: dict[int, float] = {}

    def submit(self, i: int, genome) -> None:
        from evolve.execution.learning import RoundContext

        if i < len(self.steps) and i not in self.futures:
            stage, index, games, alpha = self.steps[i]
            on_workers = self.schedule.learner == "workers"
            context = RoundContext(self.game.name, self.game.settings(), genome.copy(),
                                   self.schedule.epsilon, self.schedule.opening_plies,
                                   self.schedule.opponents, self.schedule.self_play_share,
                                   alpha if on_workers else None, self.schedule.phase_share)
            self.futures[i] = self.backend.submit(context, self.schedule.tasks(stage, index,
                                                                               games))

    def step(self, i: int, genome, snapshot):
        self.submit(i, snapshot)  # after a resume: the round the checkpoint's snapshot plays
        if self.schedule.learner == "workers":
            return self.averaged(i, genome)
        self.submit(i + 1, genome)
        records = [r.record for r in self.results(i)]
        learnt, errors = genome, []
        for record in records:  # task by task (the same steps), keeping the workers busy
            learnt, more = self.game.td_learn_games(learnt, [record], self.steps[i][3],
                                                    **self.rule)
            errors.append(more)
            self.backend.poll()
        return learnt, genome, np.concatenate(errors)  # round i + 1's player: before round i

    def averaged(self, i: int, genome):
        """Round ``i`` learnt on the workers, synchronously: it was played by ``genome`` (the
        network after round ``i - 1``), each task's change starts from it, and round ``i + 1``
        is played by the network that moved by their mean."""
        results = self.results(i)
        total = np.zeros_like(genome)
        for r in results:  # in task order: the same sum for any number of workers
            total += r.change
        learnt = genome + total / len(results)
        if not np.all(np.isfinite(learnt)):
            raise ValueError(f"round {i}: the tasks' changes are not finite numbers (a lower "
                             "rate)")
        self.submit(i + 1, learnt)
        return learnt, learnt, np.concatenate([r.errors for r in results])

    def results(self, i: int) -> list:
        """Round ``i``'s task results, once done; what they cost other processes is kept for
        ``worker_cpu``."""
        results = self.futures.pop(i).result()
        self.remote_cpu[i] = sum(r.cpu_seconds for r in results if r.pid != os.getpid())
        return results

    def worker_cpu(self, i: int) -> float:
        """What round ``i``'s games cost the workers that played them elsewhere (Ray)."""
        return self.remote_cpu.pop(i, 0.0)


class Clock:
    """A log line about every ``LOG_SECONDS``: games, games/s, the TD error, the time left."""

    LOG_SECONDS = 30.0

    def __init__(self, total: int, done: int):
        self.total, self.start_games = total, done
        self.started = self.last = time.monotonic()

    def log(self, done: Progress, step, errors, n_steps: int) -> None:
        now = time.monotonic()
        if now - self.last < self.LOG_SECONDS and done.games < self.total:
            return
        self.last = now
        rate = (done.games - self.start_games) / max(now - self.started, 1e-9)
        left = (self.total - done.games) / max(rate, 1e-9)
        error = "" if errors is None or not len(errors) else \
            f", TD error {float(np.mean(errors)):.4f}"
        log.info("step %d/%d (stage %d): %s/%s games, %.0f games/s%s, ETA %s", done.step,
                 n_steps, step[0], f"{done.games:,}", f"{self.total:,}", rate, error,
                 _duration(left))


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    return f"{h}h{rest // 60:02d}m" if h else f"{rest // 60}m{rest % 60:02d}s"
