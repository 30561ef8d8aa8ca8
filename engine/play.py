"""`python -m engine.play [--game NAME] ...`: the game's own `play` command (see `--help`)."""

import sys

from engine.core.commands.cli import dispatch


def main(argv: list[str] | None = None) -> int:
    return dispatch("play", argv)


if __name__ == "__main__":
    sys.exit(main())
