"""How each row of the results tables (``experiments/readme_table.py``) reads its figure: one
function per kind of result, from the ``.json`` side of the result file a job wrote, to the
text of the table's cell."""

from __future__ import annotations


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
