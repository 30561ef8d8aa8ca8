"""Reproduce the committed strength tables (issue 5, "Results to commit").

    python -m experiments.strength --game reversed_reversi --train          # GA + export + tables
    python -m experiments.strength --game othello --run-dir outputs/D/T     # an existing run

For each game: (1) the champion of the default study (``python -m evolve +experiment=<game>``,
run here with ``--train`` into ``experiments/runs/<game>``, or taken from ``--run-dir``);
(2) its export to ``experiments/results/champions/<game>.json`` (and ``<game>_cs303.py`` for
Reversed Reversi); (3) ``python -m evolve.evaluate`` against the panel at the champion's own
search depth, every match ``--games`` games with a 95% CI and the SPRT decision (all games
played; the table says after how many games the SPRT would have stopped); for Othello also the
1-ply champion against the literature heuristic under the Othello League protocol (both sides
epsilon = 0.1). Results go to ``experiments/results/strength_<game>.md`` (+ ``.json``) with the
exact commands.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from experiments.common import ROOT, evaluate, export, rel, train
from experiments.stamp import Stamp, stamp_json_file, write_markdown

RESULTS = ROOT / "experiments" / "results"
PANELS = {
    "reversed_reversi": ["course", "wpc_negated", "greedy", "random", "mcts", "bfs"],
    "othello": ["course", "wpc", "greedy", "random", "mcts", "bfs"],
}
LEAGUE_EXPERIMENT = "othello_league"  # conf/experiment/othello_league.yaml
GOAL_SCORE_VS_COURSE = 0.75  # issue 5: the Reversed Reversi champion vs the course matrix


def champion_dir(game: str, args, log) -> Path:
    if args.run_dir:
        return Path(args.run_dir).resolve()
    run_dir = ROOT / "experiments" / "runs" / game
    if args.train:
        train(game, run_dir, log, f"backend={args.backend}")
    if not (run_dir / "champion.json").is_file():
        sys.exit(f"no champion in {run_dir}: pass --train or --run-dir")
    return run_dir


def match(weights: Path, opponents, args, log, extra: list[str], out: Path) -> str:
    """Its tables as ``evolve.evaluate`` printed them; the JSON stays at ``out``."""
    return evaluate([rel(weights), "--vs", *opponents, "--games", args.games, "--sprt",
                     *args.sprt, "--sprt-full", "--backend", args.backend, "--seed", args.seed,
                     *extra], out, log=log, echo=True).output


def study(game: str, args) -> None:
    log: list[str] = []
    stamp = Stamp.begin()
    run_dir = champion_dir(game, args, log)
    results = Path(args.results)
    champions = results / "champions"
    champions.mkdir(parents=True, exist_ok=True)
    weights = champions / f"{game}.json"
    export(run_dir, weights, log)
    if game == "reversed_reversi":
        export(run_dir, champions / f"{game}_cs303.py", log, "cs303")
    meta = json.loads(weights.read_text())["metadata"]
    depth = int(meta.get("search", {}).get("depth", 2))
    endgame = int(meta.get("search", {}).get("endgame_empties", 8))
    search = ["--depth", str(depth), "--endgame-empties", str(endgame)]
    written = [results / f"strength_{game}.json"]
    sections = [("Champion vs the panel at equal depth",
                 match(weights, PANELS[game], args, log, search, written[0]))]
    if game == "othello":
        # The League plays 1-ply weighted piece counters: no search and no exact endgame.
        league = ["--depth", "1", "--epsilon", "0.1", "--endgame-empties", "0"]
        written.append(results / f"strength_{game}_1ply.json")
        sections.append(("Othello League protocol: the default champion at 1 ply, both sides "
                         "epsilon = 0.1",
                         match(weights, ["wpc1"], args, log, league, written[-1])))
        league_weights = league_champion(args, log, champions)
        if league_weights is not None:
            written.append(results / f"strength_{LEAGUE_EXPERIMENT}.json")
            sections.append(("Othello League protocol: the champion evolved at 1 ply "
                             f"(`+experiment={LEAGUE_EXPERIMENT}`), both sides epsilon = 0.1",
                             match(league_weights, ["wpc1"], args, log, league,
                                   written[-1])))
    write_report(results, game, meta, log, sections, depth, stamp)
    for out in written:
        stamp_json_file(out, stamp)


def league_champion(args, log, champions: Path) -> Path | None:
    """The champion of the 1-ply Othello study (trained with ``--train``), exported as JSON."""
    run_dir = ROOT / "experiments" / "runs" / LEAGUE_EXPERIMENT
    if args.train:
        train(LEAGUE_EXPERIMENT, run_dir, log, f"backend={args.backend}")
    if not (run_dir / "champion.json").is_file():
        return None
    return export(run_dir, champions / f"{LEAGUE_EXPERIMENT}.json", log)


def goal_line(results: Path, game: str) -> str:
    if game != "reversed_reversi":
        return ""
    data = json.loads((results / f"strength_{game}.json").read_text())
    course = next(m for m in data["matches"] if m["opponent"] == "course")
    met = "met" if course["score"] >= GOAL_SCORE_VS_COURSE else "NOT met"
    return (f"\nGoal (score >= {GOAL_SCORE_VS_COURSE:.0%} against the course matrix at equal "
            f"depth): **{met}** ({course['score']:.1%}, {course['games']} games).\n")


def write_report(results: Path, game: str, meta: dict, log: list[str], sections,
                 depth: int, stamp: Stamp) -> None:
    lines = ["It ran these commands (from the repository root):", "", "```", *log, "```", "",
             f"Champion provenance: `{json.dumps(meta.get('provenance', {}))}`  ",
             f"Search settings it was evolved with: `{json.dumps(meta.get('search', {}))}` "
             f"(evaluated at depth {depth}).", "",
             "Elo: logistic model. 95% CI (games): normal approximation from the W/D/L "
             "variance, games taken as independent; 95% CI (pairs): the same from the "
             "colour-swapped pairs (pentanomial), the honest one when the two games of a pair "
             "are correlated; an all-identical sample gets the exact Clopper-Pearson bound "
             "instead of a zero-width interval. SPRT: fishtest's pentanomial GSPRT "
             "(`LLR_logistic`, exact multinomial likelihood ratio), alpha = beta = 0.05, "
             "checked after every pair; all games are played and the table gives the LLR and "
             "game count at which the SPRT stopped (or the final LLR if it never decided).", ""]
    for title, table in sections:
        lines += [f"## {title}", "", "```", table.rstrip(), "```", ""]
    lines.append(goal_line(results, game))
    write_markdown(results / f"strength_{game}.md", f"# Strength of the `{game}` champion",
                   lines, stamp)
    print(f"wrote {results / f'strength_{game}.md'}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", choices=(*PANELS, "both"), default="both")
    p.add_argument("--run-dir", default=None, help="use this run's champion (one game only)")
    p.add_argument("--train", action="store_true", help="run the default GA study first")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--sprt", nargs=2, type=float, default=(0.0, 50.0), metavar=("ELO0", "ELO1"))
    p.add_argument("--backend", choices=("serial", "ray"), default="ray")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--results", default=str(RESULTS), help="output directory")
    args = p.parse_args()
    games = list(PANELS) if args.game == "both" else [args.game]
    if args.run_dir and len(games) > 1:
        p.error("--run-dir needs a single --game")
    Path(args.results).mkdir(parents=True, exist_ok=True)
    for game in games:
        study(game, args)


if __name__ == "__main__":
    main()
