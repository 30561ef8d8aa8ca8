"""Replay in Debian's chromium (headless, Playwright) on the committed runs: Othello opens on a
run it can replay (``runs/othello``, not ``runs/legacy/othello``, whose games hold no moves), and
the recorded-games table shows who played, who won and in how many plies inside the panel."""

from __future__ import annotations

import pytest

from engine.web.app import create_app
from tests.engine.web import driver
from tests.engine.web.server import chromium_available, chromium_page, serve
from tests.smoke_run import ROOT

pytestmark = [
    pytest.mark.slow,  # lists every committed run in chromium: about a minute
    pytest.mark.skipif(not chromium_available(), reason="needs Debian's chromium"),
    pytest.mark.timeout(300),
]


def test_replay_opens_on_a_replayable_run_and_its_table_shows_the_result(tmp_path):
    with serve(create_app([ROOT / "experiments" / "runs"])) as url, chromium_page() as page:
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]", timeout=150_000)
        driver.select_tab(page, "replay")
        driver.choose_game(page, "othello")
        # the committed runs are many: listing them takes seconds on a loaded machine
        page.wait_for_selector("table.recorded[data-run='runs/othello']", timeout=150_000)
        assert page.eval_on_selector("#run", "s => s.selectedOptions[0].textContent") == "othello"
        names = page.eval_on_selector_all("#run option", "os => os.map(o => o.textContent)")
        assert "othello (legacy, cannot be replayed)" in names and len(set(names)) == len(names)
        assert names[-1].endswith("(legacy, cannot be replayed)"), names
        groups = page.eval_on_selector_all("#run optgroup", "gs => gs.map(g => g.label)")
        assert groups[-1] == "runs/legacy", groups
        headers = page.eval_on_selector_all("table.recorded th", "hs => hs.map(h => h.title)")
        assert headers[1:6] == ["generation", "black_id", "white_id", "winner", "plies"]
        shown = page.evaluate("""() => {
            const box = document.getElementById('recorded-list').getBoundingClientRect();
            return [...document.querySelectorAll('table.recorded th')].slice(0, 6)
              .map(h => h.getBoundingClientRect().right <= box.right + 1);
        }""")
        assert all(shown), "the first columns (up to plies) fit inside the panel"
        assert page.js_errors == []
