"""A submitted batch of games (``Future``) and how a batch is cut into chunks for workers."""

from __future__ import annotations


class Future:
    """A submitted batch; ``result()`` blocks until all its games are in."""

    def __init__(self, backend, batch_id: int, tasks: list):
        self.backend, self.batch_id, self.tasks = backend, batch_id, tasks

    def result(self) -> list:
        return self.backend.wait(self)


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
