"""The GA pipeline: evolve evaluation weights by round-robin self-play (``python -m evolve``)."""

from evolve.ga.loop import RunResult, run

__all__ = ["RunResult", "run"]
