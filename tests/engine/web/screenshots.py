"""Screenshots of the page for the docs, made in headless chromium:

    python -m tests.engine.web.screenshots [--out docs/screenshots] \
        [--runs experiments/runs experiments/results/champions]

Play: each registered game a few seeded random clicks into a game against the first champion of
the runs (else the random agent), at the search that champion records; Pentago Twist is left
with a cell picked, so its twist chooser shows. Watch: two agents of the first game a dozen
moves in, paused. Replay: a recorded game of the runs (Pentago Twist's first if it has one,
else the first game's, else a demo run made here), a dozen plies in, its row highlighted in the
list."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

from engine.core import game_names
from engine.web.app import create_app
from tests.engine.web import driver
from tests.engine.web.runs import make_run_dir
from tests.engine.web.server import chromium_page, serve

DEMO = "demo_runs"  # the run made here when --runs holds no replayable game
REPLAY_FIRST = "pentago_twist"  # its move labels show best what a replay looks like


def screenshot_game(page, game_name: str, out: Path, clicks: int) -> Path:
    driver.select_tab(page, "play")
    driver.choose_game(page, game_name)
    champions = page.eval_on_selector_all(
        "#opponent option[value^='champion:']",
        f"options => options.map(o => o.value).filter(v => !v.includes('{DEMO}'))")
    opponent = champions[0] if champions else "agent:random"
    for attempt_clicks in (clicks, clicks // 2, 1):  # a short game ends early: fewer clicks
        driver.start_game(page, game_name, opponent, depth=None)  # the champion's own search
        if play_clicks(page, attempt_clicks, np.random.default_rng(2026)):
            break
    cells = page.query_selector_all("#board .cell.legal")
    if cells:  # show the quadrant-and-twist step of a Pentago Twist move
        cells[0].click()
    path = out / f"{game_name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def play_clicks(page, clicks: int, rng) -> bool:
    """Make ``clicks`` seeded random moves; False if the game ended on the way."""
    for _ in range(clicks):
        ply = driver.session(page)["ply"]
        driver.click_legal_move(page, rng)
        page.wait_for_function(f"() => page.session.ply > {ply} && !page.busy")
        if driver.session(page)["terminal"]:
            return False
    return True


def screenshot_watch(page, game_name: str, out: Path, plies: int = 12) -> Path:
    driver.select_tab(page, "watch")
    driver.choose_game(page, game_name)
    agents = page.eval_on_selector_all("#watch-0 option[value^='agent:']",
                                       "options => options.map(o => o.value)")
    page.select_option("#watch-0", "agent:greedy" if "agent:greedy" in agents else agents[0])
    page.select_option("#watch-1", "agent:random" if "agent:random" in agents else agents[0])
    page.fill("#speed", "0")
    page.click("#watch-start")
    page.wait_for_function(f"() => page.session && page.session.mode === 'watch' && "
                           f"(page.session.ply >= {plies} || page.session.terminal)")
    page.click("#watch-pause")
    page.fill("#speed", "600")
    page.wait_for_timeout(300)
    path = out / "watch.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def screenshot_replay(page, game_name: str, out: Path, demo: bool) -> Path | None:
    """The first replayable recorded game of ``game_name`` (in the demo run only if ``demo``),
    a dozen plies in."""
    driver.select_tab(page, "replay")
    driver.choose_game(page, game_name)
    page.wait_for_function("() => document.getElementById('recorded-summary').textContent")
    run_ids = page.eval_on_selector_all("#run option:not([disabled])",
                                        "options => options.map(o => o.value)")
    for run_id in [r for r in run_ids if r.startswith(DEMO) == demo]:
        page.select_option("#run", run_id)
        page.wait_for_selector(f"table.recorded[data-run={json.dumps(run_id)}]")
        buttons = page.query_selector_all("button.replay-row:not([disabled])")
        if buttons:
            buttons[min(2, len(buttons) - 1)].click()
            page.wait_for_function("() => page.session && page.session.mode === 'replay'")
            for _ in range(12):
                page.click("#nav-forward")
            page.wait_for_function("() => page.session.ply === Math.min(12, page.session.plies)")
            path = out / "replay.png"
            page.screenshot(path=str(path), full_page=True)
            return path
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="docs/screenshots", type=Path)
    parser.add_argument("--runs", nargs="*",
                        default=["experiments/runs", "experiments/results/champions"])
    parser.add_argument("--clicks", type=int, default=6, help="your moves before the picture")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    names = game_names()
    demo = Path(tempfile.mkdtemp(prefix="board-evolve-demo-")) / DEMO
    make_run_dir(demo / f"{names[0]}_random_games", names[0], games=4)
    roots = [Path(r) for r in args.runs] + [demo]  # the demo run: replayable before any GA run
    with serve(create_app(roots)) as url, chromium_page(width=1200, height=820) as page:
        page.goto(url)
        for name in names:
            print(screenshot_game(page, name, args.out, args.clicks))
        print(screenshot_watch(page, names[0], args.out))
        order = sorted(names, key=lambda n: n != REPLAY_FIRST)
        replayed = next(filter(None, (screenshot_replay(page, name, args.out, demo=False)
                                      for name in order)), None)
        print(replayed or screenshot_replay(page, names[0], args.out, demo=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
