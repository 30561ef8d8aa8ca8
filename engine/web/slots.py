"""The bounded line of searches: a few slots (worker processes, or thread tickets), taken first
come, first served; at most ``waiting`` requests wait for one, the next gets a 429 at once.

Everything here runs on the event loop thread, so plain deques need no lock.
"""

from __future__ import annotations

import asyncio
from collections import deque

from engine.web.errors import ApiError


class SlotQueue:
    def __init__(self, slots: list, waiting: int):
        self.size, self.waiting_limit = len(slots), waiting
        self._idle = deque(slots)
        self._waiters: deque[asyncio.Future] = deque()
        self._closed: Exception | None = None

    @property
    def running(self) -> int:
        return self.size - len(self._idle)

    @property
    def waiting(self) -> int:
        return sum(not w.done() for w in self._waiters)

    def slots(self) -> list:
        """The idle slots (for shutting them down)."""
        return list(self._idle)

    async def take(self):
        """A free slot, after those who asked before (429 if too many already wait). A request
        cancelled while it waits leaves the line; one cancelled just as it was served hands its
        slot on."""
        if self._closed is not None:
            raise self._closed
        if self._idle and not self.waiting:
            return self._idle.popleft()
        if self.waiting >= self.waiting_limit:
            raise ApiError(429, f"the server is busy: {self.running} searches running and "
                                f"{self.waiting} waiting (at most {self.waiting_limit}); ask "
                                "again in a moment")
        turn = asyncio.get_running_loop().create_future()
        self._waiters.append(turn)
        try:
            return await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.give(turn.result())
            elif turn in self._waiters:  # give() may have dropped it already
                self._waiters.remove(turn)
            raise

    def give(self, slot) -> None:
        """Hand ``slot`` to the longest waiting request, else put it back."""
        while self._waiters:
            turn = self._waiters.popleft()
            if not turn.done():
                turn.set_result(slot)
                return
        self._idle.append(slot)

    def close(self, error: Exception) -> None:
        """Refuse every waiting and later request with ``error`` (the server is stopping)."""
        self._closed = error
        while self._waiters:
            turn = self._waiters.popleft()
            if not turn.done():
                turn.set_exception(error)
