"""Every result file says where it came from: the commit, the exact command, the machine with
its load before and after, and the date (``experiments/stamp.py``)."""

import json
import os
import re
import subprocess

import pytest

from experiments import stamp as stamp_module
from experiments.stamp import ROOT, Stamp, is_stamped, write_json, write_markdown


@pytest.fixture(autouse=True)
def not_under_reproduce(monkeypatch):
    """The stamp's tests see a plain run, also when the suite runs as a reproduce job."""
    monkeypatch.delenv("REPRODUCE_COMMAND", raising=False)

def test_the_stamp_names_the_checked_out_commit_and_the_command_as_typed():
    s = Stamp.begin(["experiments/bench/engine/perft.py", "--max-depth", "6", "--out", "a b.md"])
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    assert head.startswith(s.commit) and len(s.commit) == 12
    assert s.command == "python -m experiments.bench.engine.perft --max-depth 6 --out 'a b.md'"
    assert f"{os.cpu_count()} CPUs" in s.machine and "Python 3." in s.machine
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", s.date)
    assert len(s.load_before) == 3 and s.load_after == []
    s.finish()
    assert len(s.load_after) == 3 and s.seconds >= 0


def test_a_module_run_with_python_m_is_named_as_a_module_a_script_by_its_path():
    script = str(ROOT / "experiments" / "learning" / "elo_anchors.py")  # python -m: full path
    assert Stamp.begin([script, "x"]).command == "python -m experiments.learning.elo_anchors x"
    assert Stamp.begin([str(ROOT / "docs" / "x.py")]).command == "python docs/x.py"
    assert Stamp.begin(["-m", "tests.engine.web.latency", "health"]).command == \
        "python -m tests.engine.web.latency health"


def test_changed_code_is_named_but_rewritten_results_and_prose_are_not(monkeypatch):
    changed = ("engine/reversi/search.py\nexperiments/results/bench_perft.md\nREADME.md\n"
               "docs/ray.md\nexperiments/runs/x/champion.json\n")
    new = "experiments/new_bench.py\nexperiments/results/new.md\n"
    answers = {"diff": changed, "ls-files": new, "rev-parse": "abc"}
    monkeypatch.setattr(stamp_module, "_git", lambda *a: answers[a[0]])
    head, code = stamp_module.commit()
    assert (head, code) == ("abc", ["engine/reversi/search.py", "experiments/new_bench.py"])
    s = Stamp.begin(["experiments/x.py"])
    assert "`abc` + uncommitted changes in 2 file(s): engine/reversi/search.py, " \
        "experiments/new_bench.py" in "\n".join(s.markdown())


def test_markdown_gets_the_stamp_under_its_title(tmp_path):
    s = Stamp.begin(["experiments/x.py", "--out", "r.md"])
    path = write_markdown(tmp_path / "r.md", "# A result", ["| a |", "|---|"], s)
    lines = path.read_text().splitlines()
    assert lines[0] == "# A result" and lines[1] == ""
    assert lines[2] == "- command: `python -m experiments.x --out r.md`"
    keys = [line.split(":")[0] for line in lines[3:7]]
    assert keys == ["- commit", "- machine", "- load average (1/5/15 min)", "- date"]
    assert lines[-2:] == ["| a |", "|---|"] and is_stamped(path)
    (tmp_path / "plain.md").write_text("# A result\n\nCommand: `x`\n")
    assert not is_stamped(tmp_path / "plain.md")


def test_json_gets_the_stamp_first_and_has_no_infinity(tmp_path):
    s = Stamp.begin(["experiments/x.py"])
    path = write_json(tmp_path / "r.json", {"elo": [float("inf"), 1.5], "n": float("nan")}, s)
    data = json.loads(path.read_text())
    assert list(data)[0] == "stamp" and data["stamp"]["command"] == "python -m experiments.x"
    assert data["elo"] == [None, 1.5] and data["n"] is None and is_stamped(path)


def test_the_tool_command_is_recorded_when_it_ran_the_script(monkeypatch):
    monkeypatch.setenv("REPRODUCE_COMMAND", "python -m experiments.reproduce --quick")
    s = Stamp.begin(["experiments/x.py"])
    assert "- run by: `python -m experiments.reproduce --quick`" in s.markdown()


@pytest.mark.parametrize("bad", ["", "{not json"])
def test_a_file_without_a_readable_stamp_is_not_stamped(tmp_path, bad):
    (tmp_path / "r.json").write_text(bad)
    assert not is_stamped(tmp_path / "r.json") and not is_stamped(tmp_path / "missing.md")
