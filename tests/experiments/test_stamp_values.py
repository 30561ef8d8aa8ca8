"""The stamp's values, not only its line names: with the readings made distinct
(load before and after, the clock, the commit, the machine, the date), each value appears in
its own place in the Markdown and the JSON of a result file.

Checked by hand: ``_load(self.load_before)`` printed as the load after (in
``Stamp.markdown``), or ``load_after`` read at ``begin``, fails these tests.
"""

from __future__ import annotations

import json
import time

import pytest

from experiments import stamp as stamp_module
from experiments.stamp import Stamp, write_json, write_markdown

BEFORE, AFTER = [1.25, 2.5, 3.75], [4.25, 5.0, 6.5]


@pytest.fixture()
def readings(monkeypatch):
    """Distinct readings: the load before, then after; 1000 s then 1042.3 s on the clock; a
    known commit, machine and date."""
    monkeypatch.delenv("REPRODUCE_COMMAND", raising=False)
    loads = iter([BEFORE, AFTER])
    clock = iter([1000.0, 1042.3])
    monkeypatch.setattr(stamp_module, "load_average", lambda: list(next(loads)))
    monkeypatch.setattr(stamp_module.time, "perf_counter", lambda: next(clock))
    monkeypatch.setattr(stamp_module, "commit", lambda: ("0123456789ab", ["engine/x.py"]))
    monkeypatch.setattr(stamp_module, "machine", lambda: "x86_64 (Test CPU), 2 CPUs")
    monkeypatch.setattr(stamp_module.time, "strftime", lambda fmt, t=None: "2030-01-02 03:04 UTC")


def stamped(tmp_path) -> tuple[list[str], dict]:
    s = Stamp.begin(["experiments/bench/engine/perft.py", "--max-depth", "6"])
    lines = write_markdown(tmp_path / "r.md", "# R", ["body"], s).read_text().splitlines()
    data = json.loads(write_json(tmp_path / "r.json", {"x": 1}, s).read_text())
    return lines, data["stamp"]


def test_the_markdown_stamp_prints_each_reading_in_its_place(readings, tmp_path):
    lines, _ = stamped(tmp_path)
    assert lines[2:7] == [
        "- command: `python -m experiments.bench.engine.perft --max-depth 6`",
        "- commit: `0123456789ab` + uncommitted changes in 1 file(s): engine/x.py",
        "- machine: x86_64 (Test CPU), 2 CPUs",
        "- load average (1/5/15 min): before 1.25 / 2.50 / 3.75, after 4.25 / 5.00 / 6.50",
        "- date: 2030-01-02 03:04 UTC (took 42 s)",
    ]


def test_the_json_stamp_holds_the_same_readings(readings, tmp_path):
    _, stamp = stamped(tmp_path)
    assert stamp == {"command": "python -m experiments.bench.engine.perft --max-depth 6",
                     "commit": "0123456789ab", "machine": "x86_64 (Test CPU), 2 CPUs",
                     "date": "2030-01-02 03:04 UTC", "load_before": BEFORE,
                     "load_after": AFTER, "seconds": 42.3, "reproduce": None,
                     "uncommitted": ["engine/x.py"]}


def test_the_load_after_is_read_once_when_the_script_is_done(readings):
    s = Stamp.begin(["experiments/x.py"])
    assert (s.load_before, s.load_after) == (BEFORE, [])
    first = s.markdown()
    assert s.markdown() == first and s.as_dict()["load_after"] == AFTER  # not read again


@pytest.mark.parametrize(("seconds", "shown"), [(0.4, "0 s"), (119.4, "119 s"),
                                                (150.0, "2.5 min")])
def test_the_duration_is_shown_in_seconds_then_minutes(seconds, shown):
    assert stamp_module._duration(seconds) == shown


def test_a_real_stamp_reads_the_machines_load_and_clock(tmp_path):
    """Without the fakes: the readings are numbers of the right shape, in their lines."""
    s = Stamp.begin(["experiments/x.py"])
    time.sleep(0.01)
    lines = write_markdown(tmp_path / "r.md", "# R", ["body"], s).read_text().splitlines()
    load = next(line for line in lines if line.startswith("- load average"))
    assert load == ("- load average (1/5/15 min): before "
                    f"{' / '.join(f'{x:.2f}' for x in s.load_before)}, after "
                    f"{' / '.join(f'{x:.2f}' for x in s.load_after)}")
    assert s.seconds is not None and s.seconds >= 0
