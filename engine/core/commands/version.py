"""The installed distribution's version, for every command's ``--version``."""

from __future__ import annotations

DISTRIBUTION = "board-evolve"


def version() -> str:
    """The version of the installed ``board-evolve`` (editable or from a wheel)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed(DISTRIBUTION)
    except PackageNotFoundError:  # the sources on the path (a Ray worker's py_modules)
        return "(not installed)"


def version_line() -> str:
    return f"{DISTRIBUTION} {version()}"


def add_version_flag(parser) -> None:
    """``--version``: print ``board-evolve X.Y.Z`` and exit, as argparse's version action does."""
    parser.add_argument("--version", action="version", version=version_line(),
                        help="print the installed board-evolve version and exit")
