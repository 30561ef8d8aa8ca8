"""In Debian's chromium: a Hexifence champion picked in Watch fills the search fields with the
search its file records and plays at it; a field changed by hand applies to every player, and
the page says what was recorded. The committed champion of the README's row
(``--runs experiments/results/champions``) is watched at the search its row was measured at."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.web.app import create_app
from tests.engine.web import driver
from tests.engine.web.server import chromium_available, chromium_page, serve

pytestmark = [
    pytest.mark.skipif(not chromium_available(), reason="needs Debian's chromium (apt-get install "
                                                        "chromium; .ci/run does it)"),
    pytest.mark.timeout(300),
]
RUN = Path(__file__).resolve().parents[3] / "experiments" / "runs" / "hexifence"
COMMITTED = Path(__file__).resolve().parents[3] / "experiments" / "results" / "champions"
LONG = 120_000  # ms: the first move of a worker compiles or loads the engine


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("web") / "runs"
    shutil.copytree(RUN / ".hydra", root / "hexifence" / ".hydra")
    shutil.copy(RUN / "champion.json", root / "hexifence" / "champion.json")
    with serve(create_app([root, COMMITTED])) as url, chromium_page() as page:
        page.goto(url)
        yield page
        assert page.js_errors == []


def watch_champion(page) -> None:
    driver.choose_game(page, "hexifence")
    driver.select_tab(page, "watch")
    page.select_option("#watch-0", "champion:runs/hexifence/champion.json")
    page.select_option("#watch-1", "agent:chain")


def start(page, before: str | None) -> dict:
    page.fill("#speed", "0")
    page.click("#watch-start")
    page.wait_for_function(f"() => page.session && page.session.id !== {json.dumps(before)} && "
                           "page.session.ply >= 2", timeout=LONG)
    page.click("#watch-pause")
    return driver.session(page)


def test_the_champion_is_watched_at_the_search_its_file_records(site):
    page = site
    watch_champion(page)
    page.wait_for_function("() => document.getElementById('search-source').textContent"
                           ".includes('records')")
    assert page.input_value("#depth") == "2" and page.input_value("#endgame") == "20"
    assert "hexifence · final records depth 2, exact endgame from 20 (champion file)" in \
        page.inner_text("#search-source")
    session = start(page, None)
    search = session["players"][0]["search"]
    assert (search["depth"], search["endgame_empties"], search["source"]) == (
        2, 20, "champion file")
    assert "blue (runs/hexifence (final)): depth 2, exact endgame from 20 (champion file)" in \
        page.inner_text("#player-searches")
    # a fixed agent's search in the words of a search's settings (Game.fixed_search)
    assert "red (chain): no tree search, chain rules: captures and double-deals" in \
        page.inner_text("#player-searches")

    page.fill("#depth", "1")  # by hand: for every player, and said so
    assert "apply to every player" in page.inner_text("#search-source")
    changed = start(page, session["id"])
    assert changed["players"][0]["search"]["text"] == (
        "depth 1, exact endgame from 20 (depth set; the champion file records depth 2)")


def test_the_readme_rows_champion_is_watched_at_the_search_its_row_was_measured_at(site):
    """experiments/results/champions/hexifence.json records depth 3, exact endgame 24 as its
    play search (strength_hexifence, the README's 77% row), not the depth 2 / 20 it was evolved
    with: the page fills that in and the game is played at it."""
    page = site
    driver.choose_game(page, "hexifence")
    driver.select_tab(page, "watch")
    page.select_option("#watch-0", "champion:champions/hexifence.json")
    page.select_option("#watch-1", "agent:chain")
    page.wait_for_function("() => document.getElementById('search-source').textContent"
                           ".includes('play search')")
    assert page.input_value("#depth") == "3" and page.input_value("#endgame") == "24"
    session = start(page, driver.session(page).get("id") if page.evaluate(
        "() => !!page.session") else None)
    search = session["players"][0]["search"]
    assert (search["depth"], search["endgame_empties"], search["source"]) == (
        3, 24, "champion file's play search")


def test_a_game_started_at_once_after_picking_a_champion_plays_its_record(site):
    """New game clicked before the picked champion's record has arrived waits for it: the
    fields of the previous choice (here the Othello champion's depth 4 / 10) are not sent as
    if typed (the docs' screenshots caught this)."""
    page = site
    first = driver.start_game(page, "othello", "champion:champions/othello.json", depth=None)
    assert first["players"][1]["search"]["source"] == "champion file"
    second = driver.start_game(page, "hexifence", "champion:champions/hexifence.json",
                               depth=None)
    search = second["players"][1]["search"]
    assert (search["depth"], search["endgame_empties"], search["source"]) == (
        3, 24, "champion file's play search")
