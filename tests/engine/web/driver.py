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


def start_game(page, game_name: str, opponent: str, colour: int = 0,
               depth: int | None = 1) -> dict:
    """A Play game against ``opponent``; ``depth``: the search depth typed in (fast tests), or
    None to leave the fields as the page filled them (a champion's recorded search)."""
    select_tab(page, "play")
    choose_game(page, game_name)
    page.select_option("#opponent", opponent)
    page.select_option("#colour", str(colour))
    if depth is not None and page.is_visible("#depth"):  # shown only for agents that search
        page.fill("#depth", str(depth))
    before = page.evaluate("() => page.session ? page.session.id : null")
    page.click("#new-game")
    page.wait_for_function(f"() => page.session && page.session.id !== {json.dumps(before)} && "
                           f"page.session.game === {json.dumps(game_name)}")
    page.wait_for_function(IDLE)
    return session(page)


def click_legal_move(page, rng) -> None:
    """Click a random legal move on the board (a cell then a twist for Pentago Twist), or the
    move button below the board when the board offers none (a forced pass)."""
    targets = page.eval_on_selector_all(
        "#board .legal[data-move], #board .legal[data-cell]",
        "nodes => nodes.map(n => n.dataset.move ? `[data-move='${n.dataset.move}']`"
        "                                       : `[data-cell='${n.dataset.cell}']`)")
    if not targets:
        page.click("#extra-moves button")
        return
    page.click(f"#board {targets[int(rng.integers(len(targets)))]}")
    twists = page.eval_on_selector_all("#twist-chooser button:not([disabled])",
                                       "nodes => nodes.map(n => n.dataset.move)")
    if twists:
        page.click(f"#twist-chooser button[data-move='{twists[int(rng.integers(len(twists)))]}']")


def play_to_the_end(page, rng, max_clicks: int = 400) -> dict:
    page.wait_for_function(IDLE)
    for _ in range(max_clicks):
        ply, over = page.evaluate("() => [page.session.ply, page.session.terminal]")
        if over:
            return session(page)
        click_legal_move(page, rng)
        # not busy once the agent's replies are in: the person is to move or the game is over
        page.wait_for_function(f"() => page.session.ply > {ply} && !page.busy")
    raise AssertionError(f"no result after {max_clicks} clicks")


def click_illegal_place(page) -> None:
    page.click("#board [data-move]:not(.legal), #board [data-cell]:not(.legal)")
