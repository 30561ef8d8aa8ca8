"""Driving the page like a person: pick things, click legal (or illegal) places on the board.

The page's own state (the global ``page`` object of ``app.js``) is read only to know when the
page is idle; every move is made by clicking what a person would click."""

from __future__ import annotations

import json

IDLE = ("() => page.session && !page.busy && "
        "(page.session.terminal || page.session.human_to_move)")


def choose_game(page, game_name: str) -> None:
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#game", game_name)
    page.wait_for_selector(f"body[data-game={game_name}]")


def select_tab(page, tab: str) -> None:
    page.click(f"#tabs button[data-tab={tab}]")


def session(page) -> dict:
    return page.evaluate("() => page.session")


def start_game(page, game_name: str, opponent: str, colour: int = 0) -> dict:
    select_tab(page, "play")
    choose_game(page, game_name)
    page.select_option("#opponent", opponent)
    page.select_option("#colour", str(colour))
    page.fill("#depth", "1")
    before = page.evaluate("() => page.session ? page.session.id : null")
    page.click("#new-game")
    page.wait_for_function(f"() => page.session && page.session.id !== {json.dumps(before)} && "
                           f"page.session.game === {json.dumps(game_name)}")
    page.wait_for_function(IDLE)
    return session(page)


def click_legal_move(page, rng) -> None:
    """Click a random legal move on the board (a cell then a twist for Pentago Twist), or the
    move button below the board when the board offers none (a forced pass)."""
    on_board = page.query_selector_all("#board .legal[data-move], #board .legal[data-cell]")
    if on_board:
        on_board[int(rng.integers(len(on_board)))].click()
        twists = page.query_selector_all("#twist-chooser button:not([disabled])")
        if twists:
            twists[int(rng.integers(len(twists)))].click()
    else:
        page.click("#extra-moves button")


def play_to_the_end(page, rng, max_clicks: int = 400) -> dict:
    for _ in range(max_clicks):
        page.wait_for_function(IDLE)
        current = session(page)
        if current["terminal"]:
            return current
        click_legal_move(page, rng)
        page.wait_for_function(f"() => page.session.ply > {current['ply']} && !page.busy")
    raise AssertionError(f"no result after {max_clicks} clicks")


def click_illegal_place(page) -> None:
    page.click("#board [data-move]:not(.legal), #board [data-cell]:not(.legal)")
