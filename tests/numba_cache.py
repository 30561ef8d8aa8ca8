"""The test command's numba cache, keyed by the sources it compiles.

numba's on-disk cache (``cache=True``) checks only the file of the function it loads: a function
inlined from ``engine/kernels/rng.py`` into a kernel of another file (or any jitted callee, or a
global constant read at compile time) is not recompiled when only ``rng.py`` changes, so a warm
cache can test code that is no longer there. ``tests/conftest.py`` therefore points
``NUMBA_CACHE_DIR`` (unless it is set already) at a directory named by a hash of every source
numba may compile here and of the versions that matter: a changed source means a fresh cache.
Tests' subprocesses and Ray workers inherit the variable.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# every file here may hold jitted code or constants a kernel reads
COMPILED_TREES = ("engine", "tests/plugin_game")
# elsewhere, a file counts if it caches a jitted function of its own
CACHING_TREES = ("tests", "experiments")
KEPT = 12  # caches of the sources used last (~26 MB each), kept for switching branches


def numba_sources(root: Path = ROOT) -> list[Path]:
    files = {p for tree in COMPILED_TREES for p in (root / tree).rglob("*.py")}
    files |= {p for tree in CACHING_TREES for p in (root / tree).rglob("*.py")
              if "cache=True" in p.read_text(encoding="utf-8", errors="replace")}
    this = Path(__file__).resolve()  # names ``cache=True``, caches nothing
    return sorted(p for p in files if "__pycache__" not in p.parts and p.resolve() != this)


def sources_key(root: Path = ROOT) -> str:
    """A hash of the sources' paths and contents, Python's and numba's and numpy's versions."""
    digest = hashlib.sha256()
    for package in ("numba", "numpy", "llvmlite"):
        digest.update(f"{package} {_version(package)}\0".encode())
    digest.update(f"python {sys.version}\0".encode())
    for path in numba_sources(root):
        digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "board-evolve" / "numba"


def use_keyed_cache(root: Path = ROOT) -> Path | None:
    """Set ``NUMBA_CACHE_DIR`` to this source tree's cache (None: the user set one). Call it
    before numba is imported. Only the ``KEPT`` caches used last are kept."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    path = cache_root() / sources_key(root)
    path.mkdir(parents=True, exist_ok=True)
    os.utime(path)  # in use: kept by the pruning of other runs
    os.environ["NUMBA_CACHE_DIR"] = str(path)
    if "numba" in sys.modules:  # imported already (a plugin): numba read the variable then
        sys.modules["numba"].config.CACHE_DIR = str(path)
    _prune(path)
    return path


def _prune(current: Path) -> None:
    """Keep the ``KEPT`` caches used last (this one included): a run of other sources touched
    its own at its start."""
    def used(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0

    others = sorted((p for p in current.parent.iterdir() if p.is_dir() and p != current),
                    key=used, reverse=True)
    for other in others[KEPT - 1:]:
        shutil.rmtree(other, ignore_errors=True)


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "none"
