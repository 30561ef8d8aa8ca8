"""`python -m engine.perft [--game NAME] ...`: the game's own `perft` command (see `--help`)."""

import sys

from engine.core.commands.cli import dispatch


def main(argv: list[str] | None = None) -> int:
    return dispatch("perft", argv)


if __name__ == "__main__":
    sys.exit(main())
