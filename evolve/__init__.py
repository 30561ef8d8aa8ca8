"""The GA pipeline: evolve evaluation weights by round-robin self-play (``python -m evolve``)."""

from evolve.run import RunResult, run

__all__ = ["RunResult", "run"]
