"""`python -m engine.solve [--game NAME] ...`: the game's own `solve` command (see `--help`)."""

import sys

from engine.core.commands.cli import dispatch


def main(argv: list[str] | None = None) -> int:
    return dispatch("solve", argv)


if __name__ == "__main__":
    sys.exit(main())
