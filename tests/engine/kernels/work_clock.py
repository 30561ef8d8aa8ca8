"""A clock that only a search's own work moves, for testing timed searches at any speed.

A timed search reads ``time.perf_counter`` between kernel calls. Installed in its place, a
``WorkClock`` advances by the work each kernel call reports (nodes of an alpha-beta search,
iterations of MCTS) at ``rate`` units a second, so where a time limit stops a search is the
same on a fast, a slow or a busy machine."""

from __future__ import annotations

import time
from collections.abc import Callable


class WorkClock:
    def __init__(self, rate: float):
        self.rate, self.now, self.calls = rate, 0.0, []

    def __call__(self) -> float:
        return self.now

    def drive(self, monkeypatch, module, kernel: str, work: Callable) -> WorkClock:
        """Read as ``time.perf_counter``; every call of ``module.kernel`` moves it by
        ``work(result)`` units and is kept in ``calls`` as (args, result)."""
        search = getattr(module, kernel)

        def timed(*args):
            result = search(*args)
            self.now += work(result) / self.rate
            self.calls.append((args, result))
            return result

        monkeypatch.setattr(time, "perf_counter", self)
        monkeypatch.setattr(module, kernel, timed)
        return self

    def restart(self) -> None:
        self.now, self.calls = 0.0, []


def node_clock(monkeypatch, module, rate: float = 1e6) -> WorkClock:
    """``module.negamax`` (returning (move, value, nodes, aborted)) on a clock of its nodes."""
    return WorkClock(rate).drive(monkeypatch, module, "negamax", lambda result: result[2])
