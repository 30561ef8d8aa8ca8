"""``python -m evolve.report``: a run's plots and summary (see ``evolve.analysis.report``)."""

import sys

from evolve.analysis.report import main

if __name__ == "__main__":
    sys.exit(main())
