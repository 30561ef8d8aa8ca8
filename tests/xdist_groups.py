"""Which tests ``pytest-xdist`` (``--dist loadgroup``) must keep on one worker.

- every test that uses the process's Ray (``ray_session``): one Ray on the machine, not one per
  worker;
- the tests that share an expensive fixture wider than a test (a module's serial run, a
  package's data, the session's chromium): computed once, not once per worker.

Everything else is spread one test at a time. The group is a marker, so a run without xdist
ignores it.
"""

from __future__ import annotations

import pytest

WIDER = {"class": 1, "module": 2, "package": 3, "session": 4}


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


def assign(items) -> None:
    groups = {item.nodeid: group_of(item) for item in items}
    # a module whose Ray tests share a module fixture with its other tests (a serial run to
    # compare with): the whole module goes with the Ray tests, so the fixture is made once
    with_ray = {module(item) for item in items if groups[item.nodeid] == "ray"}
    for item in items:
        group = groups[item.nodeid]
        if group == module(item) and group in with_ray:
            group = "ray"
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))


def module(item) -> str:
    return item.nodeid.split("::")[0]
