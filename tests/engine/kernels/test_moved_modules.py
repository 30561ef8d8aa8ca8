"""The kernels' modules moved into rooms (``engine/kernels/search/``, ``engine/kernels/ntuple/``).
A plug-in game written against the old names keeps working: each old name imports the very same
module object and warns once, naming the new one. Nothing in this repository uses an old name."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.kernels import MOVED

ROOT = Path(__file__).resolve().parents[3]

IMPORT_BOTH = """
import importlib, sys, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    old = importlib.import_module(sys.argv[1])
    again = importlib.import_module(sys.argv[1])
new = importlib.import_module(sys.argv[2])
print(old is new is again, new.__spec__.name == sys.argv[2],
      [(w.category.__name__, str(w.message)) for w in caught])
"""


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_name_imports_the_same_module_and_warns_once_naming_the_new_one(old):
    """In a fresh process, so the old name is imported for the first time."""
    old_name, new_name = f"engine.kernels.{old}", f"engine.kernels.{MOVED[old]}"
    out = subprocess.run([sys.executable, "-c", IMPORT_BOTH, old_name, new_name],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    message = (f"{old_name} has moved to {new_name}; import {new_name} instead")
    assert out.strip() == f"True True [('DeprecationWarning', {message!r})]"


def test_the_warning_points_at_the_line_that_used_the_old_name(tmp_path):
    plugin = tmp_path / "old_plugin.py"
    plugin.write_text("import warnings\nwarnings.simplefilter('always')\n\n"
                      "from engine.kernels import alphabeta as ab  # noqa: F401\n")
    run = subprocess.run([sys.executable, str(plugin)], capture_output=True, text=True,
                         check=True, cwd=ROOT, env=None)
    assert f"{plugin}:4: DeprecationWarning: engine.kernels.alphabeta has moved" in run.stderr


OLD = "|".join(MOVED)
OLD_NAME = re.compile(rf"engine[./]kernels[./](?:{OLD})\b|from engine\.kernels import (?:{OLD})\b")
# files that name an old module on purpose
ALLOWED = {"engine/kernels/__init__.py",  # the table of moved names
           "tests/engine/kernels/record_search_baseline.py",  # also records older checkouts
           "tests/engine/kernels/test_moved_modules.py"}
SKIPPED = ("experiments/results/", "outputs/")  # committed results record the commands they ran


def test_nothing_in_the_repository_uses_an_old_name():
    files = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True,
                           cwd=ROOT).stdout.split()
    offenders = []
    for name in files:
        path = ROOT / name
        if name in ALLOWED or name.startswith(SKIPPED) or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        offenders += [f"{name}: {m.group(0)}" for m in OLD_NAME.finditer(text)]
    assert offenders == []
