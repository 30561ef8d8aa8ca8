"""For the scripts that record what an older checkout of the code does (test data for proving
that a rewrite plays the same): import that checkout's ``engine`` instead of this one's.

Import this module before anything from ``engine``. It imports nothing of the project itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def use_checkout(code: str) -> dict:
    """Put checkout ``code`` first on ``sys.path`` (numba's cache in a temporary folder and no
    bytecode, so the checkout is not written to); returns where the data comes from."""
    os.environ.setdefault("NUMBA_CACHE_DIR", tempfile.mkdtemp(prefix="baseline_numba_"))
    sys.dont_write_bytecode = True
    root = Path(code).resolve()
    sys.path.insert(0, str(root))
    import engine

    if not Path(engine.__file__).resolve().is_relative_to(root):
        raise SystemExit(f"error: imported {engine.__file__}, not the checkout {root}")
    commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    return {"checkout": str(code), "commit": commit}


def write_json(data: dict, out: str, line_start: str) -> None:
    """Compact JSON with a line break before every ``line_start`` (one record a line: readable
    diffs)."""
    text = json.dumps(data, separators=(",", ":")).replace(line_start, "\n" + line_start)
    Path(out).write_text(text + "\n")
