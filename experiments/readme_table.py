"""The rows of the results tables (``experiments/RESULTS.md`` and the README's headline), each
figure read from a result file's ``.json`` side that a job of ``experiments/catalogue.py``
wrote, never typed. ``experiments/results_page.py`` writes the tables; a result not made yet
gets the command that makes it instead of a figure.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


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


def _match(data: dict, opponent: str, matches_key: str = "matches") -> dict:
    return next(m for m in data[matches_key] if m["opponent"].split(":")[0] == opponent)


def _elo(x: float | None, unbounded: str = "+inf") -> str:
    return unbounded if x is None else f"{x:+.0f}"


def _elo_ci(m: dict) -> str:
    """Elo with the 95% interval ``evolve.evaluate`` prints (Wilson's, when the file has it)."""
    low, high = m.get("elo_ci95_wilson") or m["elo_ci95"]
    if m["elo"] is None:  # every game won (or lost): only one end is known
        return f">= {_elo(low)} Elo" if m["score"] == 1 else f"<= {_elo(high)} Elo"
    return f"{m['elo']:+.0f} Elo [{_elo(low, '-inf')}, {_elo(high)}]"


def perft(d: dict) -> str:
    top = d["rows"][-1]
    same = all(r["leaves"] == r["published"] for r in d["rows"])
    return (f"perft({top['depth']}) = {top['leaves']:,} leaves "
            f"({'the published count' if same else '**not** the published count'}) in "
            f"{top['seconds']:.2f} s = {top['leaves_per_second'] / 1e6:.0f} M leaves/s")


def search(d: dict) -> str:
    full = {r["depth"]: r for r in d["fixed_depth"] if r["weights"].startswith("full")}
    return (f"{full[5]['median_ms']:.2f} ms (depth 7: {full[7]['median_ms']:.0f} ms), "
            f"{full[5]['nodes_per_second'] / 1e6:.1f} M nodes/s")


def ffo_small(d: dict) -> str:
    rows = d["ffo"]
    seconds = [r["seconds"] for r in rows]
    return (f"{sum(r['ok'] for r in rows)}/{len(rows)} scores reproduced, "
            f"{min(seconds):.2f}-{max(seconds):.2f} s each")


def solve(d: dict) -> str:
    rows, load = d["rows"], d["stamp"]["load_before"]
    return (f"{sum(r['ok'] for r in rows)}/{len(rows)} exact, {d['nodes'] / 1e6:.0f} M nodes, "
            f"{d['cpu_seconds']:.1f} s CPU ({d['wall_seconds']:.1f} s wall at load "
            f"{load[0] if load else '?'}); Edax 4.6 with a zero evaluation: "
            f"{d['edax']['seconds']} s, {d['edax']['nodes'] / 1e6:.0f} M nodes")


def pentago_games(d: dict) -> str:
    return f"{d['random_games']['games_per_second']:,.0f} games/s"


def pentago_strength(d: dict) -> str:
    m = _match(d.get("evaluation", d), "mcts")  # "evaluation": before the goals table
    return f"{m['score']:.1%}, {_elo_ci(m)}"


def hexifence_solve(d: dict) -> str:
    empty = d["solves"][0]
    side = "wins" if empty["value"] > 0 else "loses" if empty["value"] < 0 else "draws"
    return (f"blue (to move) {side} by {abs(empty['value']):.0f}, {empty['seconds']:.1f} s on "
            "one core")


def hexifence_strength(d: dict) -> str:
    m = _match(d.get("n3", d), "chain")  # "n3": before the goals table
    return f"{m['score']:.1%}, {_elo_ci(m)}"


def ga_study(d: dict) -> str:
    study = next(s for s in d["studies"] if "search.depth=5" in s["command"])
    return f"{study['seconds']:.0f} s end to end ({study['games']:,} games)"


def ga_speedup(d: dict) -> str:
    row = next(r for r in d["rows"] if r["depth"] == 5)
    return f"{row['ray-1'] / row['ray-2']:.2f}x"


def td_workers(d: dict, learner: str = "driver") -> str:
    """Games/s on 2 Ray workers with ``learner`` against one process learning itself."""
    def rows(who):
        return {r["workers"]: r for r in d["distributed"] if r.get("learner", "driver") == who}

    base, these = rows("driver")[0], rows(learner)
    if 2 not in these:
        return "not measured (`--learners workers`)"
    same = "same bits" if all(r["same_bits"] for r in these.values()) else "DIFFERENT bits"
    return f"{these[2]['games_per_second'] / base['games_per_second']:.2f}x ({same})"


def td_speed(d: dict) -> str:
    r = next(r for r in d["rows"] if (r["layout"], r["features"]) ==
             ("straight2", "mobility,stability"))["rates"]
    base = r["online, baseline"]
    return f"{r['online'] / base:.2f}x online, {r['rounds'] / base:.2f}x in rounds"


def strength_course(d: dict) -> str:
    m = _match(d, "course")
    return f"{m['score']:.1%}, {_elo_ci(m)}"


def progress(d: dict) -> str:
    rows = d["vs_anchors"]
    return (" / ".join(_elo(r["elo"]) for r in rows) + " Elo (95% CIs in the file)")


def tuning(d: dict) -> str:
    return " / ".join(f"{_elo(g['elo'])} [{_elo(g['elo_ci95'][0], '-inf')}, "
                      f"{_elo(g['elo_ci95'][1])}]" + ("" if g["met"] else " (goal not met)")
                      for g in d["goals"])


def league(d: dict) -> str:
    m = d["matches"][0]
    return f"{m['score']:.1%}, {_elo_ci(m)}"


def goal(d: dict) -> str:
    """A goal of ``experiments/strength/goals.py``: its match's score with the 95% Wilson
    interval and Elo, and whether the target is met."""
    m = next(x for x in d["matches"] if x["opponent"] == d["goal"]["opponent"])
    return (f"{m['score']:.1%} [{m['score_ci95'][0]:.1%}, {m['score_ci95'][1]:.1%}], "
            f"{_elo_ci(m)}" + ("" if d["goal"]["met"] is not False else " (goal not met)"))


def pentago_timed(d: dict) -> str:
    if "goal" in d:
        return goal(d)
    m = _match(d["evaluation"], "mcts")  # written before the goals table
    return (f"{m['score']:.1%} [{m['score_ci95'][0]:.1%}, {m['score_ci95'][1]:.1%}]"
            + ("" if m["score"] >= d["goal_vs_mcts"] else " (goal not met)"))


def othello_anchors(d: dict) -> str:
    """Scores against wpc1, the course matrix and the CMA-ES League champion."""
    from experiments.strength.goals import OTHELLO_ANCHORS

    return " / ".join(f"{_match(d, o)['score']:.1%}" for o in OTHELLO_ANCHORS)


def at_budget(game: dict) -> dict[str, list]:
    """Method -> its rows (one per seed) at the full budget."""
    full: dict[str, list] = {}
    for r in game["rows"]:
        if r["fraction"] == 1.0:
            full.setdefault(r["method"], []).append(r)
    return full


def efficiency(d: dict) -> str:
    """The best method at the full budget per game, by pooled score against the anchors."""
    from experiments.learning.efficiency_report import elo_text, seeds_pooled

    cells = []
    for name, game in d["games"].items():
        full = at_budget(game)
        best = max(full, key=lambda m: seeds_pooled(full[m])[0])
        cells.append(f"{name}: {best} {elo_text(seeds_pooled(full[best])[0])}")
    return "; ".join(cells) + " Elo vs the anchors (every method in the file)"


def efficiency_hour(d: dict) -> str:
    """Every hour-long method at the full budget: Elo, CPU and wall seconds."""
    from experiments.learning.efficiency_report import elo_text, seeds_pooled

    cells = []
    for name, game in d["games"].items():
        full = at_budget(game)
        runs = [f"{m} {elo_text(seeds_pooled(rows)[0])} ("
                f"{sum(r['cpu'] for r in rows) / len(rows):,.0f} CPU-s / "
                f"{sum(r['wall'] for r in rows) / len(rows):,.0f} wall-s)" for m, rows in
                full.items() if all("wall" in r for r in rows)]
        cells.append(f"{name.split(' @ ')[0]}: " + ", ".join(runs))
    return "; ".join(cells) + " Elo vs the anchors"


def from_search(d: dict) -> str:
    """The last round against the round-0 champion and pooled against the fixed anchors, beside
    round 0's pooled Elo."""
    first, last = d["rounds"][0], d["rounds"][-1]
    head = _match(last, d["anchors"][0])
    pool = {**last["pooled"], "elo_ci95_wilson": None}
    return (f"round {last['round']} ({last['positions_cumulative']:,} positions): "
            f"{head['score']:.3f} vs the round-0 champion, {_elo_ci(pool)} vs the fixed anchors "
            f"(round 0: {_elo_ci({**first['pooled'], 'elo_ci95_wilson': None})})")


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
