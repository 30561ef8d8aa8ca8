"""The board renderers in chromium, against views built here from the rules (games.md): the
Hexifence renderer puts every edge on the side its cells share and an edge click asks for move
``row * (4N-1) + col`` (checked apart from the Hexifence engine); a forced pass is a button; the
Pentago Twist renderer marks the cell the twist carried the last stone to."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.core import game_names, get_game
from engine.web.app import create_app
from tests.engine.web.server import chromium_available, chromium_page, serve

pytestmark = [
    pytest.mark.skipif(not chromium_available(), reason="needs Debian's chromium"),
    pytest.mark.timeout(120),
]


@pytest.fixture(scope="module")
def page():
    with serve(create_app([])) as url, chromium_page() as browser_page:
        browser_page.goto(url)
        browser_page.wait_for_selector("body[data-ready=true]")
        yield browser_page


def hexifence_view(n: int, drawn: dict[tuple[int, int], str], captured: dict) -> dict:
    """The ``state_view`` of a Hexifence position of dimension ``n`` from the rules: (y, x) is an
    edge iff |y - x| <= 2n-1 and not both odd; cell (r, c) exists iff |r - c| <= n-1."""
    width = 4 * n - 1
    rows = []
    for y in range(width):
        row = ""
        for x in range(width):
            if y % 2 and x % 2:
                r, c = (y - 1) // 2, (x - 1) // 2
                row += captured.get((r, c), " ") if abs(r - c) <= n - 1 else "-"
            else:
                row += drawn.get((y, x), "+") if abs(y - x) <= 2 * n - 1 else "-"
        rows.append(row)
    return {"size": n, "grid": rows, "to_move": 0, "scores": [1, 0]}


def cell_edges(r: int, c: int) -> list[tuple[int, int]]:
    return [(2 * r, 2 * c), (2 * r, 2 * c + 1), (2 * r + 1, 2 * c), (2 * r + 1, 2 * c + 2),
            (2 * r + 2, 2 * c + 1), (2 * r + 2, 2 * c + 2)]


RENDER = """([view, legal]) => {
  const box = document.createElement("div");
  box.style.cssText = "position: fixed; top: 0; left: 0; width: 600px; z-index: 9";
  document.body.append(box);
  const clicked = [];
  const session = {id: "t", ply: 0, view, legal: legal.map(id => ({id, text: String(id)})),
                   last_move: null};
  const ctx = {interactive: true, onMove: id => clicked.push(id)};
  BoardRenderers.hexifence.render(box, session, ctx);
  const edges = [...box.querySelectorAll("g.edge")].map(g => {
    const line = g.querySelector("line");
    const ends = ["x1", "y1", "x2", "y2"].map(a => Number(line.getAttribute(a)));
    const rect = g.getBoundingClientRect();  // where a person (or Playwright) clicks it
    const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
    const onEdge = hit && hit.closest("g.edge");
    const hitEdge = onEdge ? Number(onEdge.dataset.move) : null;
    return {id: Number(g.dataset.move), kind: g.getAttribute("class"), ends, hitEdge,
            area: rect.width * rect.height};
  });
  const hexes = [...box.querySelectorAll("polygon.hex")].map(p => ({
    kind: p.getAttribute("class"),
    corners: p.getAttribute("points").split(" ").map(xy => xy.split(",").map(Number))}));
  box.querySelector(`g.edge[data-move="${legal[0]}"] .edge-hit`).dispatchEvent(
    new MouseEvent("click", {bubbles: true}));
  box.remove();
  return {edges, hexes, clicked};
}"""


@pytest.mark.parametrize("n", [2, 3])
def test_the_hexifence_renderer_draws_each_edge_on_the_side_its_cells_share(page, n):
    width = 4 * n - 1
    cells = [(r, c) for r in range(2 * n - 1) for c in range(2 * n - 1) if abs(r - c) <= n - 1]
    first = cells[0]
    drawn = {e: "B" for e in cell_edges(*first)} | {cell_edges(*cells[-1])[0]: "R"}
    view = hexifence_view(n, drawn, {first: "b"})
    legal = [y * width + x for y in range(width) for x in range(width)
             if view["grid"][y][x] == "+"]
    drawing = page.evaluate(RENDER, [view, legal])
    edges = {(e["id"] // width, e["id"] % width): e for e in drawing["edges"]}
    assert len(edges) == {2: 30, 3: 72}[n] and len(drawing["hexes"]) == len(cells)
    assert sum("blue" in h["kind"] for h in drawing["hexes"]) == 1
    for (r, c), hexagon in zip(cells, drawing["hexes"], strict=True):
        for edge in cell_edges(r, c):
            ends = edges[edge]["ends"]
            for end in (ends[:2], ends[2:]):  # both ends of the edge are corners of the cell
                assert min(abs(end[0] - x) + abs(end[1] - y) for x, y in hexagon["corners"]) < 1e-6
    assert {k for k, e in edges.items() if "blue" in e["kind"]} == set(cell_edges(*first))
    assert all(("legal" in e["kind"]) == (e["id"] in legal) for e in edges.values())
    assert drawing["clicked"] == [legal[0]], json.dumps(drawing["clicked"])
    for edge in edges.values():  # each edge has an area, and its centre is on that edge
        assert edge["area"] > 0 and edge["hitEdge"] == edge["id"], edge


PASS_ONLY = """() => {
  const clicked = [];
  const board = ["--------", "--------", "--------", "---OX---", "---XO---", "--------",
                 "--------", "--------"];
  const session = {id: "p", ply: 7, plies: 7, mode: "play", terminal: false, to_move: 0,
                   view: {board, to_move: 0, discs: [2, 2]}, legal: [{id: 64, text: "pass"}],
                   last_move: null, moves: [], result: null,
                   players: [{name: "black", type: "human"}, {name: "white", type: "agent",
                                                              label: "greedy"}]};
  drawSession(session, BoardRenderers.reversi, true, id => clicked.push(id));
  const buttons = [...document.querySelectorAll("#extra-moves button")];
  buttons.forEach(b => b.click());
  return {labels: buttons.map(b => b.textContent), clicked,
          squares: document.querySelectorAll("#board [data-move]").length};
}"""


def test_a_forced_pass_is_offered_as_a_button_below_the_board(page):
    shown = page.evaluate(PASS_ONLY)
    assert shown == {"labels": ["Pass (no legal move)"], "clicked": [64], "squares": 64}


@pytest.mark.skipif("pentago_twist" not in game_names(), reason="Pentago Twist not registered")
def test_the_pentago_renderer_marks_where_the_twist_carried_the_last_stone(page):
    game, rng = get_game("pentago_twist"), np.random.default_rng(0)
    for _ in range(100):
        state = game.initial_state()
        for _ in range(int(rng.integers(0, 12))):
            state = game.apply(state, int(rng.choice(game.legal_moves(state))))
        if game.is_terminal(state):
            continue
        move = int(rng.choice(game.legal_moves(state)))
        board = game.state_view(game.apply(state, move))["board"]
        cell = page.evaluate("(id) => BoardRenderers.pentago.landing(id)", move)
        assert board[cell // 6][cell % 6] == "WB"[game.to_move(state)], game.move_text(move)
