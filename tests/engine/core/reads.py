"""Counting how often a file is opened, whoever opens it (``Path.read_text``, ``np.load``,
``open``): the proof that a champion file is read once on its way to an agent."""

from __future__ import annotations

import builtins
import io
import os
from pathlib import Path


def count_opens(monkeypatch, path: Path) -> list[str]:
    """A list that gets one entry per opening of ``path`` from now on (until the test ends)."""
    target, opened = Path(path).resolve(), []
    real = builtins.open

    def counting(file, *args, **kwargs):
        if isinstance(file, str | bytes | os.PathLike) and Path(os.fsdecode(file)).resolve() == \
                target:
            opened.append(str(file))
        return real(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting)
    monkeypatch.setattr(io, "open", counting)
    return opened
