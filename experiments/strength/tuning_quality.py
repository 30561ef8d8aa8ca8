"""Tuning quality at equal search: champions of different studies, the references and
each other in one round robin at the same search (default: 1 ply + exact last 3 empties).

    python -m experiments.strength.tuning_quality \\
        --player rr_baseline=experiments/runs/reversed_reversi_1ply_rr/champion.json \\
        --player mix=experiments/runs/reversed_reversi_1ply/champion.json \\
        --baseline rr_baseline --target mix --games 200 \\
        --out experiments/results/tuning_quality_reversed_reversi_1ply.md

Every match is ``--games`` games, colour-swapped pairs from seeded random openings
(``python -m evolve.evaluate --round-robin``); the table gives each pair's Elo with its 95% CI
and a whole-round-robin Elo fit. The goal check compares ``--target`` with ``--baseline`` and
with ``wpc_negated`` head to head (goals: >= 150 and >= 200 Elo).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.core.commands.helptext import summary
from experiments.common import Evaluation, evaluate
from experiments.stamp import Stamp, write_json, write_markdown

GOALS = {"baseline": 150.0, "wpc_negated": 200.0}


def round_robin(players: dict[str, str], args, json_out: Path) -> Evaluation:
    return evaluate(["--round-robin", *players.values(), *args.references, "--games",
                     args.games, "--depth", args.depth, "--endgame-empties", args.endgame_empties,
                     "--backend", args.backend, "--seed", args.seed,
                     *(["--game", args.game] if args.game else [])], json_out)


def head_to_head(matches: list[dict], a: str, b: str) -> dict | None:
    for m in matches:
        if (m["player"], m["opponent"]) == (a, b):
            return m
        if (m["player"], m["opponent"]) == (b, a):
            low, high = m["elo_ci95"]
            return {**m, "elo": -m["elo"], "elo_ci95": [-high, -low], "score": 1 - m["score"]}
    return None


def goals(players: dict[str, str], matches: list[dict], args) -> list[dict]:
    """The target's head-to-head Elo against the baseline and ``wpc_negated``, with the goal."""
    target = players[args.target]
    out = []
    for label, opponent, goal in ((args.baseline, players.get(args.baseline), GOALS["baseline"]),
                                  ("wpc_negated", "wpc_negated", GOALS["wpc_negated"])):
        m = head_to_head(matches, target, opponent) if opponent else None
        if m is None:
            continue
        out.append({"player": args.target, "opponent": label, "score": m["score"],
                    "games": m["games"], "elo": m["elo"], "elo_ci95": m["elo_ci95"],
                    "goal": goal, "met": m["elo"] >= goal})
    return out


def goal_lines(rows: list[dict]) -> list[str]:
    lines = []
    for r in rows:
        low, high = r["elo_ci95"]
        verdict = "met" if r["met"] else f"not met ({r['goal'] - r['elo']:.0f} Elo short)"
        lines.append(f"- {r['player']} vs {r['opponent']}: score {r['score']:.3f} over "
                     f"{r['games']} games, Elo {r['elo']:+.0f} [{low:+.0f}, {high:+.0f}]; goal "
                     f">= {r['goal']:.0f}: {verdict}")
    return lines


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=summary(__doc__))
    p.add_argument("--player", action="append", required=True, metavar="NAME=FILE")
    p.add_argument("--references", nargs="*", default=["wpc_negated", "course"])
    p.add_argument("--baseline", help="player name of the current champion")
    p.add_argument("--target", help="player name of the new champion")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--depth", type=int, default=1)
    p.add_argument("--endgame-empties", type=int, default=3)
    p.add_argument("--backend", default="serial")
    p.add_argument("--seed", type=int, default=16)
    p.add_argument("--game", default=None)
    p.add_argument("--title", default="Reversed Reversi at 1 ply (+ exact last 3 empties)")
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    players = dict(item.split("=", 1) for item in args.player)
    out = Path(args.out)
    json_out = out.with_suffix(".json")
    done = round_robin(players, args, json_out)
    text, data = done.output, done.data
    data["players_by_name"] = players
    if args.target:
        data["goals"] = goals(players, data["matches"], args)
    names = "\n".join(f"- `{name}`: `{path}`" for name, path in players.items())
    lines = ["Players:", names, "", "Evaluation:", "", "```", done.command, "```", "", "```",
             text.rstrip(), "```", ""]
    if args.target:
        lines += ["Goal check (head to head):", "", *goal_lines(data["goals"]), ""]
    write_json(json_out, data, stamp)
    write_markdown(out, f"# {args.title}", lines, stamp)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
