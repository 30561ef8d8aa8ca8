"""The test command's numba cache is keyed by the sources (``tests/numba_cache.py``): set before
numba is imported, inherited by subprocesses, and a new directory as soon as a compiled source
changes (a kernel edited and restored once left a warm cache that tested the edit)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numba
import pytest

from tests import conftest
from tests.numba_cache import (
    KEPT,
    ROOT,
    cache_root,
    numba_sources,
    sources_key,
    use_keyed_cache,
)


@pytest.fixture()
def keyed():
    if conftest.KEYED_CACHE is None:
        pytest.skip("NUMBA_CACHE_DIR was set by the user: the tests use theirs")
    return conftest.KEYED_CACHE


def test_the_cache_directory_is_named_by_the_sources_and_numba_uses_it(keyed):
    assert keyed == cache_root() / sources_key() and keyed.is_dir()
    assert os.environ["NUMBA_CACHE_DIR"] == str(keyed) == numba.config.CACHE_DIR


def test_subprocesses_of_the_tests_inherit_it(keyed):
    code = "import numba; print(numba.config.CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == str(keyed)


def test_the_compiled_sources_are_the_engine_the_plugin_game_and_files_that_cache():
    sources = {p.relative_to(ROOT).as_posix() for p in numba_sources()}
    assert {"engine/kernels/rng.py", "engine/kernels/ntuple/td.py",
            "tests/plugin_game/connect_four/rules.py"} <= sources
    assert "tests/engine/kernels/test_ntuple_td.py" in sources  # it caches its own kernels
    assert "tests/test_cli.py" not in sources and "evolve/ga/loop.py" not in sources


def tree(tmp_path):
    """A small copy of the layout: two engine files (one inlines the other) and a test."""
    for path, text in {"engine/kernels/rng.py": "def uniform(): return 1.0\n",
                       "engine/kernels/td.py": "from engine.kernels.rng import uniform\n",
                       "tests/plugin_game/game.py": "X = 1\n",
                       "tests/test_x.py": "def test_x(): pass\n",
                       "experiments/bench/k.py": "@njit(cache=True)\ndef k(): pass\n"}.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    return tmp_path


@pytest.mark.parametrize(("path", "changes_the_key"), [
    ("engine/kernels/rng.py", True),  # only the inlined file changes: a fresh cache
    ("tests/plugin_game/game.py", True),
    ("experiments/bench/k.py", True),
    ("tests/test_x.py", False),  # no compiled code: the warm cache is kept
])
def test_a_changed_source_changes_the_directory_and_restoring_it_restores_it(
        tmp_path, path, changes_the_key):
    root = tree(tmp_path)
    before = sources_key(root)
    original = (root / path).read_text()
    (root / path).write_text(original + "# edited\n")
    assert (sources_key(root) != before) is changes_the_key
    (root / path).write_text(original)
    assert sources_key(root) == before


def test_a_new_or_renamed_source_changes_the_directory(tmp_path):
    root = tree(tmp_path)
    before = sources_key(root)
    (root / "engine/kernels/new.py").write_text("")
    with_new = sources_key(root)
    assert with_new != before
    shutil.move(root / "engine/kernels/new.py", root / "engine/kernels/renamed.py")
    assert sources_key(root) not in (before, with_new)


def test_the_caches_used_last_are_kept_and_older_ones_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)  # restored after
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    old = [tmp_path / "cache" / "board-evolve" / "numba" / f"old{i}" for i in range(KEPT + 2)]
    for i, path in enumerate(old):
        path.mkdir(parents=True)
        os.utime(path, (1_000_000 + i, 1_000_000 + i))  # old0 used first, the last one last
    current = use_keyed_cache(tree(tmp_path / "src"))
    assert os.environ["NUMBA_CACHE_DIR"] == str(current) == numba.config.CACHE_DIR
    kept = sorted(p.name for p in current.parent.iterdir())
    assert kept == sorted([current.name, *(p.name for p in old[-(KEPT - 1):])])


def test_a_cache_directory_set_by_the_user_is_left_alone(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert use_keyed_cache() is None and os.environ["NUMBA_CACHE_DIR"] == str(tmp_path)
