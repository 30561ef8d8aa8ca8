"""Which tests ``pytest-xdist`` (``--dist loadgroup``) must keep on one worker.

- every test that uses the process's Ray (``ray_session``): in ``RAY_GROUPS`` groups, whole
  modules each, so that at most that many workers start a Ray (a start costs seconds; the Ray
  tests in series on one worker cost minutes);
- the tests that share an expensive fixture wider than a test (a module's serial run, a
  package's data, the session's chromium): computed once, not once per worker.

Everything else is spread one test at a time. The group is a marker, so a run without xdist
ignores it.

Order: xdist (``--no-loadscope-reorder``) hands out the units (a group, or a single test) in
the order collected, so ``long_first`` collects the longest first, by the seconds its tests took
in a recorded run (``tests/long_tests.json``, rewritten by ``python -m tests.timeline DIR
--hints``): a long test that started last would run alone at the end while the other workers sat
idle. A stale entry only changes the order.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

WIDER = {"class": 1, "module": 2, "package": 3, "session": 4}
RAY_GROUPS = 2
SHORT = 0.05  # seconds: a test long_tests.json does not list


def group_of(item) -> str | None:
    if "ray_session" in item.fixturenames:
        return "ray"
    info = getattr(item, "_fixtureinfo", None)
    widest = None
    for defs in (info.name2fixturedefs.values() if info else ()):
        fixture = defs[-1]
        if fixture.scope == "function" or not fixture.baseid:  # pytest's own (tmp_path_factory)
            continue
        if getattr(fixture, "_autouse", False):  # set-up and tear-down hooks, nothing to share
            continue
        if widest is None or WIDER[fixture.scope] > WIDER[widest.scope]:
            widest = fixture
    if widest is None:
        return None
    if widest.scope == "session":
        return f"session:{widest.argname}"
    if widest.scope == "package":
        return f"package:{widest.baseid}"
    return module(item)


def assign(items, skipped=lambda item: False) -> None:
    """Mark each item's group. ``skipped(item)``: whether the run's ``-m`` will deselect it
    (deselection comes after this hook), so that a slow Ray test left out of the run does not
    pull its module's other tests into a Ray group."""
    groups = {item.nodeid: None if skipped(item) else group_of(item) for item in items}
    # the modules with Ray tests, dealt in turn to the Ray groups; a module whose Ray tests share
    # a module fixture with its other tests (a serial run to compare with) goes whole with them,
    # so the fixture is made once
    with_ray = sorted({module(item) for item in items if groups[item.nodeid] == "ray"})
    ray_group = {m: f"ray-{i % RAY_GROUPS}" for i, m in enumerate(with_ray)}
    for item in items:
        group = groups[item.nodeid]
        if group == "ray" or (group == module(item) and group in ray_group):
            group = ray_group[module(item)]
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))


def long_first(items) -> None:
    """Reorder ``items`` in place so that the units xdist hands out (a group, or a single test)
    come longest first, by the seconds ``tests/long_tests.json`` records for their tests (a test
    it does not list counts as short); the tests of a unit keep their order."""
    hints = json.loads(Path(__file__).with_name("long_tests.json").read_text())

    def unit(item) -> str:
        marker = item.get_closest_marker("xdist_group")
        return f"group:{marker.args[0]}" if marker is not None else item.nodeid

    cost: dict[str, float] = {}
    for item in items:
        cost[unit(item)] = cost.get(unit(item), 0.0) + hints.get(item.nodeid, SHORT)
    items.sort(key=lambda item: -cost[unit(item)])  # stable: a unit's tests keep their order


def module(item) -> str:
    return item.nodeid.split("::")[0]
