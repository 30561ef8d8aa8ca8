"""Modules moved into rooms (``engine/kernels/search/``, ``engine/kernels/ntuple/``,
``engine/core/champions/``, ``engine/core/matches/``, ``engine/core/commands/``,
``evolve/ga/configuration/``, ``evolve/ga/scoring/``, ``evolve/ga/run_files/``,
``experiments/bench/engine/``, ``exports/``, ``learners/``, ``study/``, a game's ``files/``).
Code written against the old names (a plug-in game, a script driving a study) keeps working:
each old name imports the very same module object and warns once, naming the new one;
``python -m`` with an old name (a command a committed result file records) runs the new module.
Nothing in this repository uses an old name."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import MOVED as CORE_MOVED
from engine.hexifence import MOVED as HEXIFENCE_MOVED
from engine.kernels import MOVED as KERNELS_MOVED
from engine.pentago import MOVED as PENTAGO_MOVED
from evolve.ga import MOVED as GA_MOVED
from experiments.bench import MOVED as BENCH_MOVED

ROOT = Path(__file__).resolve().parents[1]
TABLES = {"engine.core": CORE_MOVED, "engine.kernels": KERNELS_MOVED, "evolve.ga": GA_MOVED,
          "experiments.bench": BENCH_MOVED, "engine.pentago": PENTAGO_MOVED,
          "engine.hexifence": HEXIFENCE_MOVED}
MOVED = {f"{package}.{old}": f"{package}.{new}"
         for package, table in TABLES.items() for old, new in table.items()}

IMPORT_EACH = """
import importlib, json, sys, warnings
seen = {}
for old, new in json.loads(sys.argv[1]).items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = importlib.import_module(old)
        again = importlib.import_module(old)
    module = importlib.import_module(new)
    seen[old] = [first is module is again, module.__spec__.name == new,
                 [[w.category.__name__, str(w.message)] for w in caught]]
print(json.dumps(seen))
"""


@pytest.fixture(scope="module")
def imported() -> dict:
    """Every old name imported in one fresh process, each for the first time there."""
    out = subprocess.run([sys.executable, "-c", IMPORT_EACH, json.dumps(MOVED)],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    return json.loads(out)


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_name_imports_the_same_module_and_warns_once_naming_the_new_one(old, imported):
    new = MOVED[old]
    message = f"{old} has moved to {new}; import {new} instead"
    assert imported[old] == [True, True, [["DeprecationWarning", message]]]


def test_the_warning_points_at_the_line_that_used_the_old_name(tmp_path):
    plugin = tmp_path / "old_plugin.py"
    plugin.write_text("import warnings\nwarnings.simplefilter('always')\n\n"
                      "from engine.kernels import alphabeta as ab  # noqa: F401\n"
                      "from engine.core.specs import split_depth  # noqa: F401\n"
                      "from evolve.ga import checkpoint  # noqa: F401\n")
    run = subprocess.run([sys.executable, str(plugin)], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert f"{plugin}:4: DeprecationWarning: engine.kernels.alphabeta has moved" in run.stderr
    assert f"{plugin}:5: DeprecationWarning: engine.core.specs has moved" in run.stderr
    assert f"{plugin}:6: DeprecationWarning: evolve.ga.checkpoint has moved" in run.stderr


def test_a_plugin_naming_the_old_play_command_still_gets_its_game_passed():
    from engine.core.capabilities import PLAY_ANY
    from engine.core.moved import current_name

    assert current_name("engine.core.play_any") == PLAY_ANY == "engine.core.commands.play_any"
    assert current_name("connect_four.play") == "connect_four.play"


@pytest.mark.parametrize("old", ["experiments.bench.cs303", "experiments.bench.perft"])
def test_an_old_name_still_runs_as_a_command_with_the_new_module_as_main(old):
    """``python -m <old name>`` (as a committed result's stamp records it) runs the new module,
    which takes its arguments and says where it is now."""
    new = MOVED[old]
    run = subprocess.run([sys.executable, "-m", old, "--help"], capture_output=True, text=True,
                         cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"usage: {new.rpartition('.')[2]}.py ")
    assert run.stderr == (f"python -m {old}:0: DeprecationWarning: {old} has moved to {new}; "
                          f"run python -m {new} instead\n")


def test_an_old_command_runs_from_the_new_file_in_the_new_package(tmp_path):
    """Run by its old name, a module sees the new file as ``sys.argv[0]`` (what a stamp records
    as the command) and ``__file__``, and its relative imports resolve in its new package."""
    room = tmp_path / "pkg" / "room"
    room.mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text(
        "from engine.core.moved import keep_old_names\n"
        "keep_old_names(__name__, {'tool': 'room.tool'})\n")
    (room / "__init__.py").write_text("")
    (room / "helper.py").write_text("WHERE = 'pkg.room.helper'\n")
    (room / "tool.py").write_text(
        "import sys\nfrom .helper import WHERE\n"
        "print(sys.argv[0], __file__, __name__, __package__, WHERE, sys.argv[1:])\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    run = subprocess.run([sys.executable, "-m", "pkg.tool", "--x"], capture_output=True,
                         text=True, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [str(room / "tool.py"), str(room / "tool.py"), "__main__",
                                  "pkg.room", "pkg.room.helper", "['--x']"]
    assert "DeprecationWarning: pkg.tool has moved to pkg.room.tool" in run.stderr


def old_name_pattern() -> re.Pattern:
    dotted = "|".join(re.escape(old).replace(r"\.", "[./]") for old in MOVED)
    imported = "|".join(rf"from {re.escape(old.rpartition('.')[0])} import\b[^\n]*\b"
                        rf"{old.rpartition('.')[2]}\b" for old in MOVED)
    return re.compile(rf"(?:{dotted})\b|{imported}")


# files that name an old module on purpose
ALLOWED = {*(f"{package.replace('.', '/')}/__init__.py" for package in TABLES),  # the tables
           "tests/engine/kernels/record_search_baseline.py",  # also records older checkouts
           "tests/test_moved_modules.py"}
SKIPPED = ("experiments/results/", "outputs/")  # committed results record the commands they ran


def test_nothing_in_the_repository_uses_an_old_name():
    files = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True,
                           cwd=ROOT).stdout.split()
    pattern = old_name_pattern()
    offenders = []
    for name in files:
        path = ROOT / name
        if name in ALLOWED or name.startswith(SKIPPED) or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        offenders += [f"{name}: {m.group(0)}" for m in pattern.finditer(text)]
    assert offenders == []
