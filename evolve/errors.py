"""Errors shared by the GA, the execution layer and the arena, and the command lines' log."""

import logging
import sys


class ConfigError(ValueError):
    """A bad configuration value; the message is one line naming the key."""


def first_line(err: BaseException) -> str:
    """The one line a CLI prints for a user error: the first line of its message, or of the
    error a worker raised when the backend wrapped it (Ray's ``RayTaskError`` keeps it as
    ``cause`` and puts its own header first)."""
    cause = getattr(err, "cause", None)
    if isinstance(cause, BaseException):
        err = cause
    lines = [line for line in str(err).splitlines() if line.strip()]
    return lines[0] if lines else type(err).__name__


class CurrentStderr(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is now: a caller that swaps it (a test capturing
    output) never leaves the handler holding a closed stream."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass


def log_to_stderr() -> None:
    """A command line's progress log: time and message on stderr, unless the root logger has a
    handler already."""
    if not logging.getLogger().handlers:
        handler = CurrentStderr()
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", datefmt="%H:%M:%S"))
        logging.basicConfig(level=logging.INFO, handlers=[handler])
