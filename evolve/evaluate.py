"""``python -m evolve.evaluate``: strength evaluation (see ``evolve.arena.evaluate``)."""

import sys

from evolve.arena.evaluate import main

if __name__ == "__main__":
    sys.exit(main())
