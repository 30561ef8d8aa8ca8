"""The rows of the results tables (``experiments/RESULTS.md`` and the README's headline), each
figure read from a result file's ``.json`` side that a job of ``experiments/catalogue.py``
wrote, never typed (by a function of ``experiments/readme_figures.py``).
``experiments/results_page.py`` writes the tables; a result not made yet gets the command that
makes it instead of a figure.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from experiments.readme_figures import (
    efficiency,
    efficiency_hour,
    ffo_small,
    from_search,
    ga_speedup,
    ga_study,
    goal,
    hexifence_solve,
    hexifence_strength,
    league,
    othello_anchors,
    pentago_games,
    pentago_strength,
    pentago_timed,
    perft,
    progress,
    search,
    solve,
    strength_course,
    td_speed,
    td_workers,
    tuning,
)


@dataclass(frozen=True)
class Row:
    job: str             # its result file <job>.md is shown; the figure is read from its .json
    what: str
    goal: str
    result: Callable[[dict], str]
    source: str | None = None  # ... or from this file
    headline: str | None = None  # the row is in the README's headline table, with this text

    @property
    def file(self) -> str:
        return f"{self.job}.md"


ROWS = [
    Row("bench_perft", "Reversi perft from the start, one thread", ">= 100 M/s", perft,
        headline="Reversi move generation (perft, one thread)"),
    Row("bench_search", "Reversi alpha-beta, full evaluation, depth 5, median per move",
        "< 20 ms", search),
    Row("bench_search", "exact solve of FFO #1-#19 (14-16 empties)", "reproduce", ffo_small),
    Row("bench_solve", "exact solve of FFO #20-#39, one thread", "<= 75 s", solve,
        headline="Reversi exact endgame solver, FFO #20-#39 (one thread)"),
    Row("bench_pentago", "Pentago Twist random games, one core", ">= 100,000", pentago_games),
    Row("strength_pentago_twist", "Pentago Twist champion vs the seed's MCTS, 0.5 s per move "
        "each, 200 games", ">= 70%", pentago_strength,
        headline="Pentago Twist champion vs an MCTS agent (0.5 s per move each, 200 games)"),
    Row("bench_hexifence", "Hexifence: empty N=2 board solved exactly", "a few minutes",
        hexifence_solve),
    Row("strength_hexifence", "Hexifence champion vs the chain-aware agent, N=3, 200 games",
        ">= 75%", hexifence_strength,
        headline="Hexifence champion vs the chain-aware agent (N=3, 200 games)"),
    Row("bench_ga", "10 agents x 10 generations at depth 5 (Ray, 2 workers)", "< 2 min",
        ga_study, headline="A GA study: 10 agents x 10 generations at depth 5 (Ray, 2 cores)"),
    Row("bench_ga", "Ray 2 workers vs 1 at depth 5, one generation", ">= 1.7x", ga_speedup),
    Row("bench_td", "distributed TD (`evolve.td --round-games`), Ray 2 workers vs one "
        "process, Othello `straight2` + mobility, stability", ">= 1.7x", td_workers),
    Row("bench_td", "... learnt on the workers (`--learner workers`: the network moves by the "
        "mean of the tasks' changes), Ray 2 workers vs one process", "more than the driver's",
        lambda d: td_workers(d, "workers")),
    Row("bench_td", "TD self-play games per CPU-second vs the baseline commit the file names (same "
        "network, same bits)", ">= 2x", td_speed),
    Row("strength_reversed_reversi", "default Reversed Reversi champion vs the course matrix "
        "(depth 4, 200 games)", ">= 75%", strength_course,
        headline="Default Reversed Reversi champion vs the course's matrix (depth 4, 200 games)"),
    Row("progress_reversed_reversi", "default Reversed Reversi study: champions of generations "
        "0 / 10 / 20 / 29 vs the anchors (depth 4, 160 games each)", "strength grows",
        progress, headline="The default study's champions of generations 0 / 10 / 20 / 29 vs "
        "fixed anchors"),
    Row("tuning_quality_reversed_reversi_1ply", "1-ply Reversed Reversi champion "
        "(`+experiment=reversed_reversi_1ply`) vs the round-robin 1-ply champion / "
        "`wpc_negated` (1 ply + exact last 3, 200 games each)", "+150 / +200", tuning),
    Row("strength_othello", "1-ply Othello champion (`+experiment=othello_league`), Othello "
        "League protocol, 200 games", "beat the literature WPC", league,
        source="strength_othello_league.json"),
    Row("strength_othello_ntuple", "Othello n-tuple champion (`othello_ntuple.json`: the mean "
        "of two 4-phase TD networks, `python -m evolve.blend`) vs the League's WPC (`wpc1`), "
        "League protocol, 400 games", ">= 90%", goal),
    Row("strength_othello_ntuple_vs_league", "... head to head vs our best WPC champion "
        "(`othello_league.json`)", ">= +200 Elo", goal,
        headline="Othello n-tuple champion (TD) vs our best evolved weights (1 ply, League "
        "protocol, 400 games)"),
    Row("strength_othello_ntuple_vs_square2_fresh", "... head to head vs the champion before it "
        "(2x2 squares, 4 million games of TD), seeds no choice was made on, 2,000 games",
        ">= 65%", goal),
    Row("strength_othello_ntuple_vs_square2_fresh", "... the same champion vs `wpc1` / the "
        "course matrix / the CMA-ES League champion (2,000 games each)", "no lower than the "
        "one before", othello_anchors),
    Row("strength_othello_ntuple_square2_anchors_fresh", "... the champion before it vs the "
        "same, on the same openings", "the bar", othello_anchors),
    Row("strength_othello_ntuple_4x2x2", "Othello candidate 4+2x2 (20 million games of "
        "distributed TD) head to head vs the 2x2-square network, League protocol, 1,000 games",
        ">= 65%", goal),
    Row("strength_othello_ntuple_4x2x2_phases4", "Othello 4+2x2 in 4 phases (20 million games "
        "of distributed TD; a half of the champion) head to head vs the 2x2-square network, "
        "League protocol, 1,000 games", ">= 65%", goal),
    Row("strength_othello_ntuple_square2_phases4", "Othello 2x2 squares in 4 phases (20 million "
        "games of distributed TD; the other half) head to head vs the 2x2-square network, 1,000 "
        "games", ">= 65%", goal),
    Row("strength_reversed_reversi_ntuple", "Reversed Reversi n-tuple champion (4+2x2 in 4 "
        "phases, 10 million games of distributed TD) vs the committed 1-ply WPC champion, 1 ply "
        "+ exact last 3, 400 games", ">= +150 Elo", goal),
    Row("strength_reversed_reversi_ntuple_vs_square2", "... head to head vs the network before "
        "it (2x2 squares, 4 million games), 1,000 games", ">= 65%", goal),
    Row("strength_pentago_twist_ntuple", "Pentago Twist n-tuple champion vs its seed weights, "
        "depth 2, 400 games", "CI above 50%", goal),
    Row("strength_pentago_twist_es_d2", "Pentago Twist feature genome by ES against the seed "
        "(`pentago_twist_es.json`) vs its seed weights, depth 2, 400 games", "CI above 50%",
        goal),
    Row("strength_pentago_twist_es", "... the same champion vs the seed's MCTS, 0.5 s per "
        "move each, 400 games", ">= 85%", pentago_timed),
    Row("strength_hexifence_ntuple", "Hexifence n-tuple champion vs its seed weights, N=3, "
        "depth 2, 400 games", "CI above 50%", goal),
    Row("learning_efficiency", "strength per CPU-second: the best genome kind x optimizer at "
        "the budget", "a table to choose by", efficiency),
    Row("learning_efficiency_hour", "strength per CPU-hour and per wall-hour: the leading "
        "learners for 1 CPU-hour each (TD: the last snapshot within the hour of 10 million "
        "games, 5 million in Othello; td_workers2_hour from one Othello seed so far)",
        "a table to choose by",
        efficiency_hour),
    Row("learning_from_search_othello", "learning from search, Othello: label positions with "
        "the network's search and exact solves, fit an Edax-like network, again; 1 ply, League "
        "protocol (the small pipeline check: 2 rounds of 50,000 positions)",
        ">= 0.70 vs the promoted blend (round 0)", from_search),
    Row("learning_from_search_reversed_reversi", "the same for Reversed Reversi, 1 ply + exact "
        "last 3 (the small pipeline check)", ">= 0.70 vs the champion (round 0)", from_search),
]


def cell(row: Row, results: Path) -> str:
    path = (results / (row.source or row.file)).with_suffix(".json")
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    again = f"`python -m experiments.reproduce --only {row.job}`"
    if "stamp" not in data:  # not made yet, or made before results were stamped
        return f"to be measured: {again}"
    try:
        return row.result(data)
    except (KeyError, StopIteration, IndexError):  # made with other options than the job's
        return f"not in `{path.name}` (made by `{data['stamp']['command']}`): {again}"
