"""The text tables ``python -m evolve.evaluate`` prints: one row per match, and the round-robin
ranking. Players appear by their short names (``evolve.arena.labels``); scores with their 95%
Wilson interval and the Elo of that interval (``evolve.arena.intervals``)."""

from __future__ import annotations

import numpy as np

from evolve.arena.intervals import elo_text, points_estimate, score_estimate, score_text


def match_table(results, labels: dict[str, str]) -> str:
    """``results``: ``evolve.arena.tally.MatchResult`` objects; an SPRT column when any match
    ran the test."""
    tested = [r.sprt for r in results if r.sprt]
    header = ["player", "opponent", "games", "W-D-L", "score [95% CI]", "Elo [95% CI]"]
    if tested:
        header.append(f"SPRT({tested[0]['elo0']:g}, {tested[0]['elo1']:g})")
    rows = []
    for r in results:
        est = score_estimate(r.wins, r.draws, r.losses)
        row = [labels.get(r.player, r.player), labels.get(r.opponent, r.opponent), str(r.games),
               f"{r.wins}-{r.draws}-{r.losses}", score_text(est), elo_text(est)]
        if tested:
            row.append(sprt_cell(r.sprt) if r.sprt else "-")
        rows.append(row)
    return aligned(header, rows, right={2, 3, 4, 5})


def sprt_cell(s: dict) -> str:
    """``H1 at game 46``, ``H0 at game 88`` or ``undecided (LLR 1.05 of +-2.94)``."""
    if s["decision"] == "continue":
        return f"undecided (LLR {s['llr']:+.2f} of +-{s['bounds'][1]:.2f})"
    return f"{s['decision']} at game {s['games']}"


def ranking_table(players: list[str], labels: dict[str, str], elo, score, played) -> str:
    """The round robin's players by fitted Elo (mean 0), with each one's pooled score."""
    header = ["rank", "player", "Elo", "score [95% CI]", "games"]
    rows = []
    for rank, i in enumerate(np.argsort(-np.asarray(elo)), 1):
        games = int(played[i].sum())
        shown = score_text(points_estimate(float(score[i].sum()), games)) if games else "-"
        rows.append([str(rank), labels.get(players[i], players[i]), f"{elo[i]:+.0f}", shown,
                     str(games)])
    return aligned(header, rows, right={0, 2, 3, 4})


def aligned(header: list[str], rows: list[list[str]], right: set[int]) -> str:
    """Columns as wide as their widest cell; the columns in ``right`` right-aligned."""
    widths = [max(len(str(row[c])) for row in [header, *rows]) for c in range(len(header))]

    def line(cells):
        return "  ".join(cell.rjust(w) if c in right else cell.ljust(w)
                         for c, (cell, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    return "\n".join([line(header), "-" * len(line(header)), *map(line, rows)])
