"""Test helpers: the web app served by uvicorn on a free localhost port, and Debian's chromium
driven by Playwright (its own browser download is not reachable here), one per test process."""

from __future__ import annotations

import atexit
import contextlib
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def chromium_available() -> bool:
    return Path(CHROMIUM).is_file()


@contextlib.contextmanager
def serve(app) -> Iterator[str]:
    """Serve ``app`` in a thread; yields its base URL and stops it afterwards."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web app did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


_browser: dict = {}  # one chromium per test process, shared by the test modules


def _shared_context():
    """A headless chromium with a fresh user data dir, started on first use and closed by
    ``close_browser``: at the end of the test session (``tests/engine/web/conftest.py``), or
    when a script's process exits (starting chromium costs seconds; every test module would
    pay it)."""
    if "context" not in _browser:
        from playwright.sync_api import sync_playwright

        profile = tempfile.TemporaryDirectory(prefix="board-evolve-chromium-")
        playwright = sync_playwright().start()
        context = playwright.chromium.launch_persistent_context(
            profile.name, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        _browser.update(profile=profile, playwright=playwright, context=context)
        atexit.register(close_browser)
    return _browser["context"]


def close_browser() -> None:
    """Close the shared chromium and remove its profile; nothing to do if it never started."""
    if "context" not in _browser:
        return
    _browser.pop("context").close()
    _browser.pop("playwright").stop()
    _browser.pop("profile").cleanup()


@contextlib.contextmanager
def chromium_page(width: int = 1200, height: int = 900):
    """A new page (tab) of the shared headless chromium; ``page.js_errors`` collects uncaught
    JavaScript errors."""
    page = _shared_context().new_page()
    page.set_viewport_size({"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    try:
        yield page
    finally:
        page.close()
