"""The committed n-tuple champions against issue 21's goals (all at equal search, colour-swapped
seeded openings, 95% Wilson intervals), each goal met or not, with how far off:

    python -m experiments.strength_ntuple --games 400 --out experiments/results/strength_ntuple.md

Each champion (``experiments/results/champions/<game>_ntuple.json``, its metadata names the
command that made it) plays the goal's anchors and also anchors its training never saw
(``unseen``), so a goal met by fitting one opponent shows. Games go through
``python -m evolve.evaluate`` (its commands are in the result file).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from experiments.common import ROOT, evaluate
from experiments.efficiency_report import elo_text
from experiments.stamp import Stamp, write_json, write_markdown

CHAMPIONS = "experiments/results/champions"


@dataclass(frozen=True)
class Goal:
    game: str
    what: str
    protocol: tuple[str, ...]
    opponent: str       # the goal's opponent
    kind: str           # score (>= target) | elo (>= target) | beats (Wilson low > 0.5) |
                        # info (no goal: the seed weights, for comparison)
    target: float
    unseen: tuple[str, ...] = ()
    file: str = ""      # the champion file's name (default: <game>_ntuple.json)

    @property
    def champion(self) -> str:
        return f"{CHAMPIONS}/{self.file or self.game + '_ntuple.json'}"


LEAGUE = ("--game", "othello", "--depth", "1", "--epsilon", "0.1", "--endgame-empties", "0")
RR_1PLY = ("--game", "reversed_reversi", "--depth", "1", "--endgame-empties", "3")
GOALS = (
    Goal("othello", "Othello League protocol vs the standard heuristic WPC", LEAGUE, "wpc1",
         "score", 0.90, ("course", "experiments/runs/othello_1ply_cmaes/champion.json")),
    Goal("othello", "head to head vs our best WPC champion, League protocol", LEAGUE,
         f"{CHAMPIONS}/othello_league.json", "elo", 200.0),
    Goal("reversed_reversi", "1 ply + exact last 3 vs the committed 1-ply WPC champion",
         RR_1PLY, f"{CHAMPIONS}/reversed_reversi_1ply.json", "elo", 150.0,
         ("wpc_negated", "course", "experiments/runs/reversed_reversi_1ply_cmaes/champion.json")),
    Goal("pentago_twist", "vs its seed weights at equal search (depth 2, exact last 8)",
         ("--game", "pentago_twist", "--depth", "2", "--endgame-empties", "8"), "reference",
         "beats", 0.5, ("greedy",)),
    Goal("pentago_twist", "the feature genome by ES against the seed: vs its seed weights",
         ("--game", "pentago_twist", "--depth", "2", "--endgame-empties", "8"), "reference",
         "beats", 0.5, ("greedy", "mcts:1000"), "pentago_twist_es.json"),
    Goal("hexifence", "N=3 vs its seed weights at equal search (depth 2, exact last 20)",
         ("--game", "hexifence", "--depth", "2", "--endgame-empties", "20"), "reference",
         "beats", 0.5, ("chain",)),
    Goal("hexifence", "the feature genome by ES against the seed: vs its seed weights",
         ("--game", "hexifence", "--depth", "2", "--endgame-empties", "20"),
         "reference", "beats", 0.5, ("safe",), "hexifence_es.json"),
    Goal("pentago_twist", "the seed weights themselves, for comparison with the rows above",
         ("--game", "pentago_twist", "--depth", "2", "--endgame-empties", "8"), "greedy",
         "info", 0.0, ("mcts:1000",), "pentago_twist_seed.json"),
    Goal("hexifence", "the seed weights themselves, for comparison with the rows above",
         ("--game", "hexifence", "--depth", "2", "--endgame-empties", "20"), "chain",
         "info", 0.0, ("safe",), "hexifence_seed.json"),
)


def measure(goal: Goal, games: int, out: Path) -> dict:
    done = evaluate([goal.champion, "--vs", goal.opponent, *goal.unseen, *goal.protocol,
                     "--games", games, "--seed", "2026", "--backend", "serial", "--no-progress"],
                    out, keep=False)
    return {"command": done.command, **done.data}


def verdict(goal: Goal, match: dict) -> tuple[bool | None, str]:
    if goal.kind == "info":
        return None, "(for comparison)"
    score, low = match["score"], match["score_ci95"][0]
    if goal.kind == "score":
        return score >= goal.target, (f">= {goal.target:.0%} ({abs(score - goal.target):.1%} "
                                      f"{'over' if score >= goal.target else 'short'})")
    if goal.kind == "elo":
        elo = match["elo"]
        return elo >= goal.target, (f">= +{goal.target:.0f} Elo ({abs(elo - goal.target):.0f} "
                                    f"{'over' if elo >= goal.target else 'short'})")
    return low > 0.5, "beats it: the 95% interval above 50%"


def row(goal: Goal, result: dict) -> tuple[dict, list[str]]:
    matches = {m["opponent"]: m for m in result["matches"]}
    main = next(m for m in result["matches"]
                if m["opponent"] in (goal.opponent, name(goal.opponent), Path(goal.opponent).name))
    met, target = verdict(goal, main)
    cells = [f"{m['score']:.1%} [{m['score_ci95'][0]:.1%}, {m['score_ci95'][1]:.1%}], "
             f"{elo_text(m['score'])} Elo" for m in result["matches"]]
    line = (f"| {goal.game} | {goal.what} | `{name(goal.opponent)}`: {cells[0]} | {target} | "
            f"{'' if met is None else '**met**' if met else 'not met'} | "
            + "; ".join(f"`{name(o)}`: {c}"
                        for o, c in zip(list(matches)[1:], cells[1:], strict=True))
            + " |")
    return {"game": goal.game, "file": goal.champion, "what": goal.what,
            "opponent": goal.opponent, "met": met,
            "target": target, "matches": result["matches"], "command": result["command"]}, [line]


def write_seed(goal: Goal) -> None:
    """The game's seed reference as a champion file (exact: the game's own weights)."""
    from engine.core.registry import get_game

    game = get_game(goal.game)
    game.save_champion(ROOT / goal.champion, game.reference_genome("reference"),
                       f"{goal.game} seed weights",
                       {"command": "python -m experiments.strength_ntuple (its write_seed)"})


TIMED = "experiments/results/strength_pentago_twist_es.json"


def timed_lines() -> list[str]:
    """The goal at equal *time* per move (Pentago Twist vs the seed's MCTS), read from its own
    result file: an hour of games on a quiet machine, made by ``strength_pentago.py``."""
    path = ROOT / TIMED
    if not path.is_file():
        return [f"Pentago Twist at equal time per move vs the seed's MCTS: not measured "
                f"(no `{TIMED}`).", ""]
    data = json.loads(path.read_text())
    m = data["evaluation"]["matches"][0]
    low, high = m["score_ci95"]
    met = m["score"] >= data["goal_vs_mcts"]
    used = data["time_per_move"]
    return [f"Pentago Twist, the ES champion at equal *time* per move vs the seed's MCTS "
            f"(`{data['invocation']}`, `{TIMED.replace('.json', '.md')}`): {m['score']:.1%} "
            f"[{low:.1%}, {high:.1%}] over {m['games']} games, goal >= "
            f"{data['goal_vs_mcts']:.0%}: {'**met**' if met else 'not met'} "
            f"({abs(m['score'] - data['goal_vs_mcts']):.1%} {'over' if met else 'short'}). "
            "Its alpha-beta stops deepening when the next depth would not fit: it used "
            f"{used['champion']['mean_seconds']:.2f} s per move on average, MCTS "
            f"{used['mcts']['mean_seconds']:.2f} s (measured on a few games).", ""]


def name(spec: str) -> str:
    """An anchor's short name: a spec, a champion file's stem, or a run's folder name."""
    if not spec.endswith(".json"):
        return spec
    path = Path(spec)
    return path.parent.name if path.name == "champion.json" else path.stem


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=400, help="games per opponent")
    p.add_argument("--only", nargs="+", help="games to measure (default: every goal's)")
    p.add_argument("--out", type=Path, default=ROOT / "experiments/results/strength_ntuple.md")
    args = p.parse_args(argv)
    stamp = Stamp.begin()
    rows, lines = [], []
    for k, goal in enumerate(g for g in GOALS if not args.only or g.game in args.only):
        if goal.file.endswith("_seed.json") and not (ROOT / goal.champion).is_file():
            write_seed(goal)
        if not (ROOT / goal.champion).is_file():
            print(f"skipped {goal.game}: no {goal.champion}", flush=True)
            continue
        result = measure(goal, args.games, args.out.with_name(f".strength_ntuple_{k}.json"))
        data, text = row(goal, result)
        rows.append(data)
        lines += text
        print(text[0], flush=True)
    body = ["Each committed n-tuple champion against its goal's opponent and against anchors its "
            f"training never played (`unseen`); {args.games} games per opponent, colour-swapped "
            "seeded openings, score with its 95% Wilson interval.", "",
            "| game | goal | result | target | | other anchors |", "|---|---|---|---|---|---|",
            *lines, "", *timed_lines(), "Commands:", "", "```",
            *(r["command"] for r in rows), "```", "",
            "Each champion file's `metadata.command` is the command that made it. What was "
            "tried for the goals not met, with its results: `docs/reversi.md` (Strength of "
            "networks) and `docs/tuning.md` (the goals)."]
    write_markdown(args.out, "# n-tuple champions against the issue-21 goals", body, stamp)
    write_json(args.out.with_suffix(".json"), {"goals": rows}, stamp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
