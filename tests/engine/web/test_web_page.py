"""The page in Debian's chromium (headless, Playwright): each tab shows its own game and message;
opponents and runs are grouped by study and filtered; moves read as the game's labels; the
settings hint and the search fields belong to the game and the agents picked; the replayed row
is highlighted; the move list and the left panel keep inside their boxes; a game the page leaves
is closed on the server.

Expected lists come from the run folders made here, labels and settings from the game contract,
never from the page's own answers."""

from __future__ import annotations

import json
import threading

import httpx
import numpy as np
import pytest

from engine.core import game_names, get_game, parse_moves
from engine.core.matches.runner import replay
from engine.web import play as web_play
from engine.web.app import create_app
from engine.web.games import RENDERERS
from engine.web.limits import Limits
from engine.web.thinking import ThreadThinker
from tests.engine.web import driver
from tests.engine.web.agents import BlockingAgent
from tests.engine.web.runs import make_run_dir
from tests.engine.web.server import chromium_available, chromium_page, serve

pytestmark = [
    pytest.mark.skipif(not chromium_available(), reason="needs Debian's chromium"),
    pytest.mark.timeout(300),
]
GAMES = game_names()
DRAWN = [g for g in GAMES if g in RENDERERS]  # games with a board to click
FIRST = DRAWN[0]
SWEEP = ("seed0", "seed1")


@pytest.fixture(scope="module")
def runs_root(tmp_path_factory):
    """``runs/<game>`` for every game (each with final and two generation champions and
    tables), ``runs/sweep/<FIRST>_seed0|1`` (a study), and ``runs/sweep/<FIRST>_bare``: a
    champion and no recorded games; ``<FIRST>_seed1`` keeps only its yardstick games."""
    root = tmp_path_factory.mktemp("page") / "runs"
    for name in GAMES:
        make_run_dir(root / name, name, games=2)
    for seed in SWEEP:
        make_run_dir(root / "sweep" / f"{FIRST}_{seed}", FIRST, games=2, seed=len(seed))
    (root / "sweep" / f"{FIRST}_seed1" / "games.csv").unlink()  # the yardstick's games alone
    bare = make_run_dir(root / "sweep" / f"{FIRST}_bare", FIRST, games=2)
    (bare / "games.csv").unlink()
    (bare / "yardstick_games.csv").unlink()
    return root


@pytest.fixture(scope="module")
def site(runs_root):
    with serve(create_app([runs_root])) as url, chromium_page() as page:
        page.goto(url)
        yield url, page
        assert page.js_errors == []


def fast_agent(game_name: str) -> str:
    return "agent:random" if "random" in get_game(game_name).agent_specs() else "agent:greedy"


def option_groups(page, select: str) -> dict[str, list[str]]:
    return page.eval_on_selector_all(f"{select} optgroup", """groups => Object.fromEntries(
        groups.map(g => [g.label, [...g.children].map(o => o.textContent)]))""")


def test_each_tab_shows_its_own_board_and_message(site):
    _, page = site
    driver.start_game(page, FIRST, fast_agent(FIRST))
    played = driver.session(page)["id"]
    driver.click_illegal_place(page)
    page.wait_for_function("() => document.getElementById('message').textContent !== ''")
    refused = page.inner_text("#message")
    for tab in ("replay", "watch"):
        driver.select_tab(page, tab)
        assert page.inner_text("#message") == ""
        assert page.eval_on_selector("#board", "b => b.children.length") == 0
        assert "(you)" not in page.inner_text("#status")
        assert page.inner_text("#move-list") == ""
    assert page.inner_text("#status").startswith("Pick two players")
    driver.select_tab(page, "play")
    assert driver.session(page)["id"] == played and page.inner_text("#message") == refused
    assert page.query_selector("#board svg") is not None


def test_opponents_are_grouped_by_study_and_narrowed_by_a_filter(site):
    _, page = site
    driver.select_tab(page, "play")
    driver.choose_game(page, FIRST)
    groups = option_groups(page, "#opponent")
    agents = [s for s in get_game(FIRST).agent_specs() if "<" not in s]
    assert groups == {"Agents": [*agents, "other agent spec…"],
                      "Champions · runs": [f"{FIRST} · final"],
                      "Champions · runs/sweep": [f"{FIRST}_{s} · final" for s in
                                                 ("bare", *SWEEP)]}
    page.check("#opponent-generations")
    assert option_groups(page, "#opponent")["Champions · runs"] == [
        f"{FIRST} · final", f"{FIRST} · gen 0", f"{FIRST} · gen 1"]
    page.fill("#opponent-filter", "sweep seed1")
    groups = option_groups(page, "#opponent")
    assert groups["Champions · runs/sweep"] == [f"{FIRST}_seed1 · {g}" for g in
                                                ("final", "gen 0", "gen 1")]
    assert "Champions · runs" not in groups and groups["Agents"] == ["other agent spec…"]
    page.fill("#opponent-filter", "")
    page.uncheck("#opponent-generations")


def test_runs_with_recorded_games_are_grouped_by_study_and_filtered(site):
    _, page = site
    driver.select_tab(page, "replay")
    driver.choose_game(page, FIRST)
    page.wait_for_selector("table.recorded")
    assert option_groups(page, "#run") == {"runs": [FIRST],
                                           "runs/sweep": [f"{FIRST}_{s}" for s in SWEEP]}
    page.fill("#run-filter", "seed0")
    assert option_groups(page, "#run") == {"runs/sweep": [f"{FIRST}_seed0"]}
    page.wait_for_selector(f"table.recorded[data-run='runs/sweep/{FIRST}_seed0']")
    page.fill("#run-filter", "")


def test_a_run_holding_only_some_tables_offers_those_and_opens_one_it_has(site):
    _, page = site
    driver.select_tab(page, "replay")
    driver.choose_game(page, FIRST)
    page.select_option("#table", "games")
    page.fill("#run-filter", "seed1")
    page.wait_for_selector(f"table.recorded[data-run='runs/sweep/{FIRST}_seed1']"
                           "[data-table='yardstick_games']")
    assert page.eval_on_selector("#table option[value=games]", "o => o.disabled")
    assert page.input_value("#table") == "yardstick_games"
    page.fill("#run-filter", "seed0")
    page.wait_for_selector(f"table.recorded[data-run='runs/sweep/{FIRST}_seed0']")
    assert not page.eval_on_selector("#table option[value=games]", "o => o.disabled")
    page.fill("#run-filter", "")


def shown_moves(page) -> list[tuple[str, str]]:
    shown = page.eval_on_selector_all("#move-list li", "items => items.map(li => "
                                      "[li.textContent, li.title])")
    return [tuple(item) for item in shown]


@pytest.mark.parametrize("game_name", GAMES)
def test_moves_read_as_the_games_labels_and_keep_their_text_as_a_tooltip(site, game_name):
    _, page = site
    driver.start_game(page, game_name, fast_agent(game_name), colour=1)
    rng = np.random.default_rng(3)
    for _ in range(3):
        if driver.session(page)["terminal"]:
            break
        ply = driver.session(page)["ply"]
        driver.click_legal_move(page, rng)
        page.wait_for_function(f"() => page.session.ply > {ply} && !page.busy")
    game = get_game(game_name, driver.session(page)["settings"])
    moves = parse_moves(game, ",".join(driver.session(page)["moves"]))
    expected = [(f"{i + 1}. {game.move_label(m, replay(game, moves[:i]))}", game.move_text(m))
                for i, m in enumerate(moves)]
    assert shown_moves(page) == expected
    before = replay(game, moves[:-1])
    assert page.inner_text("#last-move").startswith(
        f"last move: {game.players[game.to_move(before)]} {game.move_label(moves[-1], before)}")


@pytest.mark.parametrize("game_name", GAMES)
def test_the_settings_hint_is_the_games_own(site, game_name):
    _, page = site
    driver.select_tab(page, "play")
    driver.choose_game(page, game_name)
    settings = get_game(game_name).settings()
    if not settings:
        assert not page.is_visible("#game-settings")
        return
    hint = page.inner_text("#settings-hint")
    assert json.dumps(settings, separators=(", ", ": ")) in hint
    assert ('"size"' in hint) == ("size" in settings)


@pytest.mark.parametrize("game_name", GAMES)
def test_search_fields_show_only_for_agents_that_search(site, runs_root, game_name):
    _, page = site
    driver.select_tab(page, "play")
    driver.choose_game(page, game_name)
    game = get_game(game_name)
    choices = page.eval_on_selector_all("#opponent option[value^='agent:'], "
                                        "#opponent option[value^='champion:']",
                                        "options => options.map(o => o.value)")
    for value in choices:
        page.select_option("#opponent", value)
        kind, name = value.split(":", 1)  # a champion's id: <root folder>/<path in it>
        spec = name if kind == "agent" else str(runs_root / name.split("/", 1)[1])
        searches = game.spec_searches(spec)
        assert page.is_visible("#depth") == searches, value
    page.select_option("#opponent", "custom")
    for spec in [s for s in game.agent_specs() if "<" not in s][:3]:
        page.fill("#opponent-spec", spec)
        page.dispatch_event("#opponent-spec", "change")
        page.wait_for_selector(f"#opponent-spec[data-checked={json.dumps(spec)}]",
                               state="attached")
        assert page.is_visible("#depth") == game.spec_searches(spec), spec
    page.fill("#opponent-spec", "no such agent")
    page.dispatch_event("#opponent-spec", "change")
    page.wait_for_selector("#opponent-spec[data-checked='no such agent']", state="attached")
    assert page.inner_text("#spec-problem").startswith("spec:")


def replay_row(page, row: int) -> None:
    before = page.evaluate("() => page.session ? page.session.id : null")
    page.click(f"button.replay-row[data-row='{row}']")
    page.wait_for_function("(before) => page.session && page.session.mode === 'replay' && "
                           "page.session.id !== before", arg=before)


def test_the_replayed_row_is_highlighted_and_the_move_list_wraps_inside_its_box(site):
    _, page = site
    page.set_viewport_size({"width": 900, "height": 900})  # narrow: the list must wrap
    try:
        driver.select_tab(page, "replay")
        name = max(DRAWN, key=lambda g: len(get_game(g).move_label(
            get_game(g).legal_moves(get_game(g).initial_state())[0])))  # longest labels
        driver.choose_game(page, name)
        page.wait_for_selector(f"table.recorded[data-game={name}]")
        for row in (1, 0):
            replay_row(page, row)
            marked = page.eval_on_selector_all("tr.replaying",
                                               "rows => rows.map(r => r.dataset.row)")
            assert marked == [str(row)]
        page.click("#nav-end")
        page.wait_for_function("() => page.session.ply === page.session.plies")
        box = page.eval_on_selector("#move-list", """list => {
            const outer = list.getBoundingClientRect();
            const items = [...list.children].map(li => li.getBoundingClientRect());
            return {fits: items.every(r => r.left >= outer.left - 0.5 &&
                                           r.right <= outer.right + 0.5),
                    overflowX: list.scrollWidth - list.clientWidth,
                    overflowY: list.scrollHeight - list.clientHeight,
                    clipped: [...list.children].filter(
                        li => li.scrollWidth > li.clientWidth).length,
                    rows: new Set(items.map(r => Math.round(r.top))).size, items: items.length};
        }""")
        assert box["fits"] and box["overflowX"] <= 0 and box["overflowY"] <= 0
        assert box["clipped"] == 0 and 1 < box["rows"] < box["items"], box
    finally:
        page.set_viewport_size({"width": 1200, "height": 900})


def test_the_left_panel_keeps_its_width_and_its_fields_in_every_tab(site):
    _, page = site
    widths = {}
    for tab in ("play", "watch", "replay"):
        driver.select_tab(page, tab)
        driver.choose_game(page, FIRST)
        if tab == "replay":
            page.wait_for_selector("table.recorded")  # wider than the panel: scrolls inside it
        widths[tab] = page.eval_on_selector("#controls", """panel => {
            const outer = panel.getBoundingClientRect();
            const fields = [...panel.querySelectorAll("label.row")].filter(l => l.offsetParent);
            return {width: Math.round(outer.width), inside: fields.every(l => {
                const field = l.querySelector("select, input").getBoundingClientRect();
                return field.right <= outer.right + 0.5 && field.left >= outer.left;
            }), fields: fields.length};
        }""")
    assert len({w["width"] for w in widths.values()}) == 1, widths
    assert all(w["inside"] and w["fields"] >= 2 for w in widths.values()), widths


def test_a_game_the_page_leaves_is_closed_on_the_server(site):
    url, page = site
    first = driver.start_game(page, FIRST, fast_agent(FIRST))["id"]
    second = driver.start_game(page, FIRST, fast_agent(FIRST))["id"]  # New game
    assert httpx.get(f"{url}/api/sessions/{first}", timeout=10).status_code == 404
    assert httpx.get(f"{url}/api/sessions/{second}", timeout=10).status_code == 200
    page.goto(url)  # leaving the page closes its games
    page.wait_for_selector("body[data-ready=true]")
    assert httpx.get(f"{url}/api/sessions/{second}", timeout=10).status_code == 404


def test_a_full_line_of_searches_is_asked_again_until_the_agent_moves(monkeypatch):
    """One thread and no line: while another game's agent holds the thread, the page's agent
    gets a 429; the page says so, asks again, and plays once the thread is free."""
    held, build = [], web_play._build_agents

    def first_game_held(game, choices, search, seeds):
        if held:
            return build(game, choices, search, seeds)
        held.append(BlockingAgent(game))
        return held * 2

    monkeypatch.setattr(web_play, "_build_agents", first_game_held)
    thinker = ThreadThinker(Limits(queue=0), threads=1)
    with serve(create_app([], thinker=thinker)) as url, chromium_page() as page:
        other = httpx.post(f"{url}/api/sessions", timeout=10, json={
            "game": FIRST, "mode": "watch", "players": [{"type": "agent", "spec": "random"}] * 2})
        mover = threading.Thread(target=httpx.post, args=(
            f"{url}/api/sessions/{other.json()['id']}/agent-move",), kwargs={"timeout": 30})
        mover.start()
        assert held[0].thinking.wait(timeout=10)
        page.goto(url)
        driver.choose_game(page, FIRST)
        page.select_option("#opponent", fast_agent(FIRST))
        page.select_option("#colour", "1")  # the agent opens
        page.click("#new-game")
        page.wait_for_function("() => document.getElementById('message').textContent"
                               ".includes('asking again')")
        assert "the server is busy: 1 searches running" in page.inner_text("#message")
        held[0].release.set()
        mover.join(timeout=30)
        page.wait_for_function("() => page.session && page.session.ply >= 1 && !page.busy")
        assert page.inner_text("#message") == ""
        assert page.js_errors == []
    thinker.close()
