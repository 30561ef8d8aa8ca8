"""A timeline of the test run, for finding its critical path: ``python -m pytest -p
tests.timeline`` writes ``timeline-<worker>.tsv`` (start, end in seconds since the epoch, the
test id; one line per test) into ``$TEST_TIMELINE_DIR`` (default: the current folder), one file
per xdist worker. ``python -m tests.timeline DIR`` sums them: each worker's busy time, last
finish and busiest modules; ``--hints`` rewrites ``tests/long_tests.json`` from them (the tests
of 2 s or more, which ``tests/xdist_groups.py`` hands out first)."""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

_started: dict[str, float] = {}
_recording = True


def pytest_configure(config):
    global _recording
    # under xdist the controller sees every worker's tests again: only the workers record
    distributed = getattr(config.option, "numprocesses", None) not in (None, 0)
    _recording = "PYTEST_XDIST_WORKER" in os.environ or not distributed


def _file() -> Path:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return Path(os.environ.get("TEST_TIMELINE_DIR", ".")) / f"timeline-{worker}.tsv"


def pytest_runtest_logstart(nodeid, location):
    _started[nodeid] = time.time()


def pytest_runtest_logfinish(nodeid, location):
    if not _recording:
        return
    with _file().open("a") as f:
        f.write(f"{_started.pop(nodeid, time.time()):.3f}\t{time.time():.3f}\t{nodeid}\n")


HINTS = Path(__file__).with_name("long_tests.json")
LONG = 2.0  # seconds


def read_rows(folder: Path) -> list[tuple[str, float, float, str]]:
    rows = []
    for path in sorted(folder.glob("timeline-*.tsv")):
        for line in path.read_text().splitlines():
            start, end, nodeid = line.split("\t", 2)
            rows.append((path.stem.removeprefix("timeline-"), float(start), float(end), nodeid))
    return rows


def write_hints(folder: Path) -> int:
    """``tests/long_tests.json``: test id (without its xdist group) -> seconds, the long ones."""
    long = {nodeid.split("@")[0]: round(e - s, 1) for _, s, e, nodeid in read_rows(folder)
            if e - s >= LONG}
    HINTS.write_text(json.dumps(dict(sorted(long.items())), indent=0) + "\n")
    return len(long)


def summary(folder: Path) -> str:
    rows = read_rows(folder)
    if not rows:
        return f"{folder}: no timeline-*.tsv"
    t0 = min(r[1] for r in rows)
    out = []
    for worker in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == worker]
        busy = sum(e - s for _, s, e, _ in mine)
        modules = defaultdict(float)
        for _, s, e, nodeid in mine:
            modules[nodeid.split("::")[0]] += e - s
        top = sorted(modules.items(), key=lambda kv: -kv[1])[:8]
        out.append(f"{worker}: {len(mine)} tests, busy {busy:.0f} s, last finish at "
                   f"{max(e for _, _, e, _ in mine) - t0:.0f} s")
        out += [f"    {sec:6.1f} s  {module}" for module, sec in top]
    return "\n".join(out)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--hints"]
    folder = Path(args[0] if args else ".")
    print(summary(folder))
    if "--hints" in sys.argv:
        print(f"{HINTS}: {write_hints(folder)} tests of {LONG:g} s or more")
