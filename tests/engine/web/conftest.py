"""The web API tests' test client over run directories of every registered game (modules that
need another one define their own ``client`` / ``runs_root``)."""

from __future__ import annotations

import pytest

from engine.web.app import create_app
from tests.engine.web.api_client import GAMES, TestClient
from tests.engine.web.runs import make_run_dir
from tests.engine.web.server import close_browser


@pytest.fixture(scope="module")
def runs_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    for name in GAMES:
        make_run_dir(root / name, name)
    return root


@pytest.fixture(scope="module")
def client(runs_root):
    return TestClient(create_app([runs_root]))


@pytest.fixture(scope="session", autouse=True)
def shared_browser_closed_at_the_end():
    """The shared chromium (started by the first page a test opens) closes, and its profile
    folder goes, when the session ends."""
    yield
    close_browser()
