"""The text tables ``python -m evolve.evaluate`` prints (one row per match; the round-robin
ranking)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evolve.arena.elo import elo_estimate, pair_estimate
from evolve.arena.matches import file_of


def format_table(results) -> str:
    """``results``: ``evolve.arena.tally.MatchResult`` objects."""
    head = f"{'player':<22} {'opponent':<22} {'games':>5} {'W':>5} {'D':>4} {'L':>5} " \
           f"{'score':>7} {'Elo':>8} {'95% CI (games)':>18} {'95% CI (pairs)':>18}  SPRT"
    lines = [head, "-" * len(head)]
    for r in results:
        est = elo_estimate(r.wins, r.draws, r.losses)
        pairs = pair_estimate(r.penta) if sum(r.penta) else None
        ci = f"[{est.elo_low:+.1f}, {est.elo_high:+.1f}]"
        ci_pairs = f"[{pairs.elo_low:+.1f}, {pairs.elo_high:+.1f}]" if pairs else "-"
        s = r.sprt
        test = f"{s['decision']} (LLR {s['llr']:.2f} at {s['games']} games)" if s else ""
        lines.append(f"{_short(r.player):<22} {_short(r.opponent):<22} {r.games:>5} {r.wins:>5} "
                     f"{r.draws:>4} {r.losses:>5} {100 * est.score:>6.1f}% {est.elo:>+8.1f} "
                     f"{ci:>18} {ci_pairs:>18}  {test}")
    return "\n".join(lines)


def _short(name: str) -> str:
    """A table label: a weights file by its stem (a run's champion by its run directory)."""
    file = file_of(name)
    if file is not None and name.endswith(file):
        path = Path(file)
        label = path.parent.name if path.stem == "champion" else path.stem
        name = name[: len(name) - len(file)] + label
    return name if len(name) <= 22 else "..." + name[-19:]


def format_elo_table(players, elo, score, played) -> str:
    order = np.argsort(-elo)
    lines = [f"{'rank':>4}  {'player':<30} {'Elo':>8} {'score':>7} {'games':>6}", "-" * 60]
    for rank, i in enumerate(order, 1):
        pct = 100 * score[i].sum() / max(1, played[i].sum())
        lines.append(f"{rank:>4}  {_short(players[i]):<30} {elo[i]:>+8.1f} {pct:>6.1f}% "
                     f"{int(played[i].sum()):>6}")
    return "\n".join(lines)
