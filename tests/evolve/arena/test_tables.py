"""The printed match table: a clean sweep as an Elo bound, never ``inf``; the SPRT column only
when a test ran, and an undecided test with its LLR."""

from __future__ import annotations

import re

from evolve.arena.tables import match_table
from evolve.arena.tally import MatchResult


def cells(table: str) -> list[list[str]]:
    return [re.split(r"\s{2,}", line.strip()) for line in table.splitlines()[2:]]


def test_a_clean_sweep_shows_an_elo_bound_and_no_infinity():
    table = match_table([MatchResult("a", "b", wins=40), MatchResult("a", "c", losses=40)], {})
    assert "inf" not in table
    (sweep, swept) = cells(table)
    assert sweep[-2:] == ["100.0% [91.2, 100.0]", ">= +407"]
    assert swept[-2:] == ["0.0% [0.0, 8.8]", "<= -407"]
    assert "SPRT" not in table.splitlines()[0]


def test_the_sprt_column_shows_the_decision_or_the_llr():
    decided = MatchResult("a", "b", wins=46, sprt={"elo0": 0, "elo1": 50, "decision": "H1",
                                                    "llr": 3.0, "bounds": [-2.94, 2.94],
                                                    "games": 46})
    open_ = MatchResult("a", "c", wins=10, losses=10, sprt={
        "elo0": 0, "elo1": 50, "decision": "continue", "llr": -0.25, "bounds": [-2.94, 2.94],
        "games": 20})
    table = match_table([decided, open_], {"a": "champion gen 3"})
    assert table.splitlines()[0].endswith("SPRT(0, 50)")
    rows = cells(table)
    assert rows[0][0] == "champion gen 3" and rows[0][-1] == "H1 at game 46"
    assert rows[1][-1] == "undecided (LLR -0.25 of +-2.94)"
