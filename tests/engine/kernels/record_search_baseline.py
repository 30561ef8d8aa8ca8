"""Record what the fixed-depth alpha-beta of an older checkout computes, as test data for the
shared driver and kernel: every kernel call's move, value and node count.

    python tests/engine/kernels/record_search_baseline.py /work/baseline \
        tests/data/search_baseline.json

The checkout given first is put at the front of ``sys.path``, so its ``engine`` package is the
one imported, not this worktree's (``tests/engine/baseline_checkout.py``). Run it on the code
before a change to the search (here: before the anytime driver):
``test_search_baseline.py`` beside it then proves fixed-depth search unchanged, call by call.

What is recorded: for each game, seeded games between two fixed-depth alpha-beta agents (hand
weights and n-tuple networks, several depths and exact endgames) from seeded openings; every
call of a searcher's kernel (``SearchDriver.measured``) in order, as (move, value, nodes). The
table carries over from move to move, so the order of calls is part of what is checked.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parents[3]))  # for tests.engine, after the script
from tests.engine.baseline_checkout import use_checkout, write_json  # noqa: E402

# game -> (first spec, second spec, depth, endgame_empties): fixed-depth matches recorded
C = "experiments/results/champions/"
CASES = {
    "othello": [("wpc", "wpc1", 4, 8), (C + "othello_ntuple_square2.json", "wpc", 3, 10),
                (C + "othello_league.json", C + "othello_ntuple_4x2x2.json", 2, 12)],
    "reversed_reversi": [("course", "wpc_negated", 4, 8),
                         (C + "reversed_reversi_ntuple.json", C + "reversed_reversi.json", 3, 10)],
    "pentago_twist": [("reference", C + "pentago_twist_es.json", 3, 8),
                      (C + "pentago_twist_ntuple.json", "reference", 2, 10)],
    "hexifence": [("reference", "chain", 2, 12), (C + "hexifence_ntuple.json", C + "hexifence.json",
                                                   3, 14)],
}
GAMES_PER_CASE = 2


def measured_spy(original, calls: list):
    """``SearchDriver.measured`` that also appends each call's (move, value, nodes)."""
    def spy(self, search, *args):
        out = original(self, search, *args)
        calls.append([out[0], out[1], out[2]])
        return out
    return spy


def record_calls():
    """Every ``SearchDriver.measured`` call's (move, value, nodes), appended to the list."""
    try:
        from engine.kernels.search import driver
    except ModuleNotFoundError:  # a checkout from before engine/kernels had rooms
        from engine.kernels import driver

    calls: list[list] = []
    driver.SearchDriver.measured = measured_spy(driver.SearchDriver.measured, calls)
    return calls


def play_case(game_name: str, case: tuple, calls: list) -> list[dict]:
    from engine.core import SearchSettings, registry

    game = registry.get_game(game_name)
    first, second, depth, endgame = case
    search = SearchSettings(depth=depth, endgame_empties=endgame)
    root = Path(__file__).resolve().parents[3]
    spec = [str(root / s) if s.endswith(".json") else s for s in (first, second)]
    openings = game.random_openings(GAMES_PER_CASE, 7, 4, 4)
    out = []
    for g, opening in enumerate(openings):
        a = game.make_panel_agent(spec[0], search, seed=g)
        b = game.make_panel_agent(spec[1], search, seed=g)
        del calls[:]
        outcome = game.play(a, b, opening, seed=g)
        out.append({"case": [first, second, depth, endgame], "opening": list(opening),
                    "winner": outcome.winner, "margin": outcome.margin,
                    "calls": [list(c) for c in calls]})
    return out


def main(code: str, out: str) -> None:
    data = {"recorded_from": use_checkout(code),
            "command": f"python tests/engine/kernels/record_search_baseline.py {code} {out}"}
    calls = record_calls()
    for game_name, cases in CASES.items():
        data[game_name] = [g for case in cases for g in play_case(game_name, case, calls)]
        n = sum(len(g["calls"]) for g in data[game_name])
        print(f"{game_name}: {len(data[game_name])} games, {n} kernel calls")
    write_json(data, out, '{"case"')
    print(f"wrote {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
