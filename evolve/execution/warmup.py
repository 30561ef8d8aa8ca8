"""Saying what happens while workers warm up. Loading a game's compiled kernels takes a second or
two; compiling them (the first run after an install or a code change: numba caches them on disk
afterwards) takes a minute or more, with nothing else to show for it."""

from __future__ import annotations

import contextlib
import threading
import time

SLOW_SECONDS = 5.0  # a warm-up this long is compiling, not loading


@contextlib.contextmanager
def talking_warm_up(logger, who: str):
    """Around a warm-up of ``who``: after ``SLOW_SECONDS`` log once that the kernels are being
    compiled, and at the end how long it took (only when it was that slow). Silent when
    ``logger`` is None."""
    if logger is None:
        yield
        return
    started = time.monotonic()
    timer = threading.Timer(SLOW_SECONDS, logger.info, args=(
        "%s: still warming up; the game's kernels are being compiled (the first run after an "
        "install or a code change takes a minute or more; later runs load them from numba's "
        "cache in seconds)", who))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        took = time.monotonic() - started
        if took >= SLOW_SECONDS:
            logger.info("%s: ready after %.0f s", who, took)
