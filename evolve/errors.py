"""Errors shared by the GA, the execution layer and the arena."""


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
