"""End to end in Debian's chromium (headless, driven by Playwright): a whole game of every
registered game against a fast agent by clicking the board, an illegal click refused with the
game's reason, undo, a person losing on a game clock, two agents watched, and a recorded game
replayed step by step.

Runs by default (a few seconds per game); skipped only where chromium is not installed
(``.ci/run`` installs it)."""

from __future__ import annotations

import csv

import httpx
import numpy as np
import pytest

from engine.core import game_names, get_game, parse_moves
from engine.core.matches.runner import replay
from engine.web.app import create_app
from engine.web.games import RENDERERS
from engine.web.recorded import parse_recorded_moves
from tests.engine.web import driver
from tests.engine.web.runs import make_run_dir, play_random_games
from tests.engine.web.server import chromium_available, chromium_page, serve

pytestmark = [
    pytest.mark.skipif(not chromium_available(), reason="needs Debian's chromium (apt-get install "
                                                        "chromium; .ci/run does it)"),
    pytest.mark.timeout(300),
]
GAMES = game_names()


@pytest.fixture(scope="module")
def runs_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("web") / "runs"
    for name in GAMES:
        make_run_dir(root / name, name, games=2)
    return root


@pytest.fixture(scope="module")
def site(runs_root):
    with serve(create_app([runs_root])) as url, chromium_page() as page:
        page.goto(url)
        yield url, page
        assert page.js_errors == []


def fast_agent(game_name: str) -> str:
    return "agent:random" if "random" in get_game(game_name).agent_specs() else "agent:greedy"


def expected_result(url: str, session_id: str) -> str:
    """The result text computed independently: the server's move list re-played through the
    contract."""
    moves_text = httpx.get(f"{url}/api/sessions/{session_id}", timeout=10).json()["moves"]
    game = get_game(httpx.get(f"{url}/api/sessions/{session_id}", timeout=10).json()["game"])
    moves = parse_moves(game, ",".join(moves_text))
    winner = game.outcome(replay(game, moves), moves).winner
    return "draw" if winner < 0 else f"{game.players[winner]} wins"


@pytest.mark.parametrize("game_name", GAMES)
def test_a_whole_game_is_played_by_clicking_the_board(site, game_name):
    url, page = site
    start = driver.start_game(page, game_name, fast_agent(game_name), colour=1)
    assert start["game"] == game_name and start["players"][1]["type"] == "human"
    assert start["ply"] == 1  # the agent has opened
    final = driver.play_to_the_end(page, np.random.default_rng(5))
    assert final["id"] == start["id"] and final["plies"] > 4
    result = page.inner_text("#result")
    assert result.startswith("Result: ") and expected_result(url, final["id"]) in result
    assert "game over" in page.inner_text("#status")
    assert page.inner_text("#message") == ""


@pytest.mark.parametrize("game_name", [g for g in GAMES if g in RENDERERS])
def test_an_illegal_click_is_refused_with_the_reason(site, game_name):
    _, page = site
    driver.start_game(page, game_name, fast_agent(game_name))
    driver.click_legal_move(page, np.random.default_rng(1))
    page.wait_for_function("() => page.session.ply >= 2 && !page.busy")
    before = driver.session(page)
    driver.click_illegal_place(page)
    page.wait_for_function("() => document.getElementById('message').textContent !== ''")
    assert "refused" in page.inner_text("#message")
    assert driver.session(page)["ply"] == before["ply"]


def test_game_settings_that_are_not_json_are_refused_before_asking_the_server(site):
    _, page = site
    driver.select_tab(page, "play")
    driver.choose_game(page, GAMES[0])
    page.fill("#game-settings", "{size: 2")
    page.click("#new-game")
    page.wait_for_function("() => document.getElementById('message').textContent !== ''")
    assert page.inner_text("#message").startswith("game settings: not valid JSON")
    page.fill("#game-settings", "")


def test_undo_takes_the_position_back_to_the_persons_turn(site):
    _, page = site
    start = driver.start_game(page, GAMES[0], fast_agent(GAMES[0]))
    driver.click_legal_move(page, np.random.default_rng(2))
    page.wait_for_function("() => page.session.ply >= 2 && !page.busy")
    page.click("#undo")
    page.wait_for_function("() => page.session.ply === 0")
    assert driver.session(page)["view"] == start["view"]


def test_a_person_on_a_clock_sees_it_run_down_and_loses_on_time(site):
    _, page = site
    page.fill("#clock", "1.5")
    try:
        driver.start_game(page, GAMES[0], fast_agent(GAMES[0]))
        assert page.is_disabled("#undo")
        first = page.inner_text("#clocks .clock.running")
        page.wait_for_function(f"() => document.querySelector('#clocks .clock.running') && "
                               f"document.querySelector('#clocks .clock.running').textContent "
                               f"!== {first!r}")  # it counts down on the page
        page.wait_for_function("() => page.session.terminal", timeout=10_000)
        assert "ran out of time" in page.inner_text("#result")
        assert page.locator("#clocks .clock.flagged").count() == 1
        assert driver.session(page)["plies"] == 0
    finally:
        page.fill("#clock", "")


def test_two_agents_are_watched_pausing_and_resuming_to_the_end(site):
    _, page = site
    # the game whose random games are shortest keeps this test quick
    name = min(GAMES, key=lambda g: play_random_games(get_game(g), 1, seed=0)[0].plies)
    driver.select_tab(page, "watch")
    driver.choose_game(page, name)
    page.select_option("#watch-0", fast_agent(name))
    page.select_option("#watch-1", fast_agent(name))
    page.fill("#speed", "50")
    page.click("#watch-start")
    page.wait_for_function(f"() => page.session && page.session.mode === 'watch' && "
                           f"page.session.game === '{name}' && page.session.ply >= 2")
    page.click("#watch-pause")
    paused = driver.session(page)["ply"]
    page.wait_for_timeout(300)  # six moves' worth at this speed: none may come
    assert driver.session(page)["ply"] <= paused + 1  # at most the one already asked for
    assert page.inner_text("#watch-pause") == "Resume"
    page.fill("#speed", "0")
    page.click("#watch-pause")
    page.wait_for_function("() => page.session.terminal")
    assert page.inner_text("#result").startswith("Result: ")


@pytest.mark.parametrize("game_name", GAMES)
def test_a_recorded_game_is_replayed_step_by_step(site, runs_root, game_name):
    _, page = site
    driver.select_tab(page, "replay")
    driver.choose_game(page, game_name)
    page.wait_for_selector(f"table.recorded[data-game={game_name}] button.replay-row")
    before = page.evaluate("() => page.session ? page.session.id : null")
    with (runs_root / game_name / "games.csv").open() as handle:
        first = next(csv.DictReader(handle))
    plies = len(parse_recorded_moves(get_game(game_name), first["moves"]))
    page.click("button.replay-row[data-row='0']")
    page.wait_for_function("(before) => page.session && page.session.mode === 'replay' && "
                           "page.session.id !== before", arg=before)
    assert page.inner_text("#status").startswith(f"ply 0/{plies}")
    page.click("#nav-forward")
    page.wait_for_function("() => page.session.ply === 1")
    assert page.inner_text("#status").startswith(f"ply 1/{plies}")
    page.click("#nav-end")
    page.wait_for_function(f"() => page.session.ply === {plies}")
    expected = "draw" if first["winner"] == "draw" else f"{first['winner']} wins"
    assert expected in page.inner_text("#result")
    page.click("#nav-back")
    page.wait_for_function(f"() => page.session.ply === {plies - 1}")
    assert page.inner_text("#result") == ""
    page.click("#move-list li[data-ply='3']")
    page.wait_for_function("() => page.session.ply === 3")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => page.session.ply === 4")
    page.keyboard.press("Home")
    page.wait_for_function("() => page.session.ply === 0")


def test_an_agents_turn_interrupted_by_a_tab_switch_is_taken_on_return(site):
    _, page = site
    driver.select_tab(page, "play")
    driver.choose_game(page, GAMES[0])
    # a game whose agent has not moved yet, as when a tab switch cut its turn short
    page.evaluate("""async ([game, spec]) => {
        page.tabs.play.session = await api("POST", "/api/sessions", {game, mode: "play",
            players: [{type: "agent", spec}, {type: "human"}]});
    }""", [GAMES[0], fast_agent(GAMES[0]).split(":", 1)[1]])
    assert driver.session(page)["ply"] == 0
    driver.select_tab(page, "replay")
    driver.select_tab(page, "play")
    page.wait_for_function("() => page.session.ply === 1 && page.session.human_to_move")


@pytest.mark.parametrize("game_name", [g for g in GAMES if g not in RENDERERS])
def test_a_game_without_a_renderer_offers_exactly_its_legal_moves(site, game_name):
    """The generic renderer (a plug-in game's, Connect Four's in CI) has nothing illegal to
    click: its move buttons are the legal moves, and one of them plays."""
    url, page = site
    driver.start_game(page, game_name, fast_agent(game_name))
    page.wait_for_function("() => !page.busy")
    buttons = page.eval_on_selector_all("#extra-moves button", "nodes => nodes.length")
    assert buttons == len(driver.session(page)["legal"])
    page.click("#extra-moves button")
    page.wait_for_function("() => page.session.ply >= 2 && !page.busy")
    assert page.inner_text("#message") == ""
