"""Does strength grow over a run? Champions of several generations of one run, against each
other and against the fixed anchors, in one round robin (``python -m evolve.evaluate
--round-robin``), written as a Markdown table with Elo and 95% CIs.

    python -m experiments.learning.progress experiments/runs/reversed_reversi \
        --generations 0 10 20 29 --depth 4 --endgame-empties 10 --games 40 \
        --out experiments/results/progress_reversed_reversi.md

The anchors default to the run game's yardstick panel.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.core.champions.files import champion_game
from engine.core.commands.helptext import summary
from engine.core.registry import get_game
from evolve.arena.elo import elo_estimate
from experiments.common import evaluate
from experiments.stamp import Stamp, finite, write_json, write_markdown


def main() -> None:
    p = argparse.ArgumentParser(description=summary(__doc__))
    p.add_argument("run_dir", type=Path)
    p.add_argument("--generations", type=int, nargs="+", required=True)
    p.add_argument("--anchors", nargs="+", default=None)
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--endgame-empties", type=int, default=10)
    p.add_argument("--games", type=int, default=40, help="per pairing")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args()
    stamp = Stamp.begin()
    files = [args.run_dir / "champions" / f"gen_{g:04d}.json" for g in args.generations]
    game = get_game(champion_game(files[0]))
    anchors = args.anchors or list(game.default_panel)
    raw = args.out.with_suffix(".json")
    done = evaluate(["--round-robin", *files, *anchors, "--games", args.games, "--depth",
                     args.depth, "--endgame-empties", args.endgame_empties], raw)
    data = done.data
    data["vs_anchors"] = finite(vs_anchors(data, files, args.generations, anchors))
    lines = render(data, files, anchors, args, done.command)
    write_json(raw, data, stamp)
    write_markdown(args.out, f"# Strength over generations: `{args.run_dir}`", lines, stamp)
    print("\n".join(lines))


def vs_anchors(data: dict, files, generations, anchors) -> list[dict]:
    """Each champion against the anchors pooled: W/D/L and Elo with its 95% CI."""
    rows = []
    for f, g in zip(files, generations, strict=True):
        w = d = losses = 0
        for m in data["matches"]:
            if m["player"] == str(f) and m["opponent"] in anchors:
                w, d, losses = w + m["wins"], d + m["draws"], losses + m["losses"]
            elif m["opponent"] == str(f) and m["player"] in anchors:
                w, d, losses = w + m["losses"], d + m["draws"], losses + m["wins"]
        est = elo_estimate(w, d, losses)
        rows.append({"generation": g, "wins": w, "draws": d, "losses": losses,
                     "elo": est.elo, "elo_low": est.elo_low, "elo_high": est.elo_high})
    return rows


def render(data: dict, files, anchors, args, command: str) -> list[str]:
    names = {str(f): f"gen {g}" for f, g in zip(files, args.generations, strict=True)}
    rr = data["round_robin"]
    lines = [f"Underlying evaluation: `{command}`", "",
             "## Round-robin Elo (all players, mean 0)", "",
             "| player | Elo | score | games |", "|---|---|---|---|"]
    order = sorted(range(len(rr["players"])), key=lambda i: -rr["elo"][i])
    for i in order:
        who = names.get(rr["players"][i], rr["players"][i])
        score, games = sum(rr["score"][i]), sum(rr["games"][i])
        lines.append(f"| {who} | {rr['elo'][i]:+.0f} | {score / games:.3f} | {games:.0f} |")
    lines += ["", "## Each champion against the anchors pooled (Elo difference, 95% CI)", "",
              f"Anchors: {', '.join(anchors)}.", "", "| champion | W/D/L | Elo [95% CI] |",
              "|---|---|---|"]
    for r in data["vs_anchors"]:
        lines.append(f"| gen {r['generation']} | {r['wins']}/{r['draws']}/{r['losses']} "
                     f"| {_f(r['elo'], float(r['losses'] == 0))} [{_f(r['elo_low'], 0.0)}, "
                     f"{_f(r['elo_high'], 1.0)}] |")
    lines += ["", "## Champions head to head (row player's view)", "",
              "| player | opponent | W/D/L | Elo [95% CI] |", "|---|---|---|---|"]
    for m in data["matches"]:
        if m["player"] in names and m["opponent"] in names:
            lo, hi = m["elo_ci95"]
            lines.append(f"| {names[m['player']]} | {names[m['opponent']]} | {m['wins']}/"
                         f"{m['draws']}/{m['losses']} | {_f(m['elo'], m['score'])} "
                         f"[{_f(lo, 0.0)}, {_f(hi, 1.0)}] |")
    return lines


def _f(x, score_when_unbounded: float) -> str:
    """JSON writes an unbounded Elo as null: -inf at a 0 score end, +inf at 1."""
    if x is None:
        return "-inf" if score_when_unbounded < 0.5 else "+inf"
    return f"{x:+.0f}"


if __name__ == "__main__":
    main()
