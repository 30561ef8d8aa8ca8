"""What TD self-play alone makes of an n-tuple network, measured (issue 21).

    python -m experiments.learning.td_reversi --game othello --td-games 20000 100000 500000
    python -m experiments.learning.td_reversi --game reversed_reversi --features none \
        mobility,stability --td-games 50000

For each game and feature set: ``td_learn`` from zero weights (``--layout``, ``--phases``,
``--alpha``, ``--epsilon``, ``--seed``), stopping at every count of ``--td-games`` (each stage
continues the previous one with its own seed; the time per game is measured on the whole run
after a warm-up), the network saved as a champion file (its metadata holds this command and the
TD settings), then ``python -m evolve.evaluate`` at 1 ply, both sides epsilon-random
(``--eval-epsilon``, 0.1 in the Othello League protocol), colour-swapped pairs, against:

- Othello: ``wpc1`` (the League's benchmark: the literature WPC at 1 ply, random tie-break),
  ``wpc`` (the same table through our alpha-beta at depth 1) and the committed 1-ply champion
  ``experiments/results/champions/othello_league.json``; no exact endgame (the League's rule);
- Reversed Reversi: ``wpc_negated``, ``course`` and the committed 1-ply champion
  ``reversed_reversi_1ply.json``, with the exact search of the last 3 empties the course agents
  use (``--endgame-empties``).

The report (stdout, and ``--out`` as Markdown with the commands, + ``.json``, stamped) gives each
score with its 95% Wilson interval and Elo. Numbers from a loaded machine are indications only.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from engine.core.registry import get_game
from experiments.common import ROOT, arguments, evaluate, rel
from experiments.stamp import Stamp, write_json, write_markdown

CHAMPIONS = ROOT / "experiments" / "results" / "champions"
OPPONENTS = {
    "othello": ["wpc1", "wpc", str(CHAMPIONS / "othello_league.json")],
    "reversed_reversi": ["wpc_negated", "course", str(CHAMPIONS / "reversed_reversi_1ply.json")],
}
ENDGAME = {"othello": 0, "reversed_reversi": 3}


def network_game(args, features: list[str]):
    return get_game(args.game, {"genome": {"kind": "ntuple", "layout": args.layout,
                                           "symmetry": args.symmetry, "phases": args.phases,
                                           "features": features}})


def train(args, features: list[str], out_dir: Path, log: list[str]) -> list[dict]:
    """TD from zero to every count of ``--td-games``; one champion file per count."""
    game = network_game(args, features)
    genome = np.zeros(game.genome_spec().size)
    game.td_learn(genome, 10, 0, args.alpha, args.epsilon)  # compile or load before timing
    stages, done, seconds = [], 0, 0.0
    label = "+".join(features) or "none"
    for k, target in enumerate(sorted(args.td_games)):
        start = time.perf_counter()
        genome = game.td_learn(genome, target - done, np.random.SeedSequence([args.seed, k]),
                               args.alpha, args.epsilon)
        seconds += time.perf_counter() - start
        done = target
        path = out_dir / f"{args.game}_{args.layout}_{label}_td{target}.json"
        td = {"games": target, "alpha": args.alpha, "epsilon": args.epsilon, "seed": args.seed,
              "from": "zero weights", "seconds": round(seconds, 2)}
        game.save_champion(path, genome, f"td {target} ({label})",
                           {"command": args.stamp.command, "td": td,
                            "search": {"depth": 1, "endgame_empties": ENDGAME[args.game]}})
        log.append(f"# td_learn: {target} games, features {label}: {seconds:.1f} s, "
                   f"{target / seconds:.0f} games/s -> {rel(path)}")
        print(log[-1], flush=True)
        stages.append({"games": target, "features": label, "seconds": seconds, "path": path})
    return stages


def measure(args, champion: Path, out: Path, log: list[str]) -> dict:
    return evaluate([rel(champion), "--vs", *map(rel_or_spec, OPPONENTS[args.game]), "--game",
                     args.game, "--depth", "1", "--epsilon", args.eval_epsilon,
                     "--endgame-empties", ENDGAME[args.game], "--games", args.games, "--seed",
                     args.eval_seed, "--backend", args.backend, "--no-progress"], out, log=log,
                    echo=True).data


def rel_or_spec(spec: str) -> str:
    return rel(spec) if Path(spec).is_file() else spec


def table(rows: list[tuple[dict, dict]]) -> list[str]:
    opponents = [m["opponent"] for m in rows[0][1]["matches"]]
    names = [Path(o).stem if o.endswith(".json") else o for o in opponents]
    lines = ["| TD games | features | TD s | games/s | " + " | ".join(
        f"vs {n}: score [95% CI], Elo" for n in names) + " |",
        "|---:|---|---:|---:|" + "---|" * len(names)]
    for stage, result in rows:
        cells = [f"{m['score']:.1%} [{m['score_ci95'][0]:.1%}, {m['score_ci95'][1]:.1%}], "
                 + (f"{m['elo']:+.0f}" if m["elo"] is not None  # None: a clean sweep
                    else "+inf" if m["score"] > 0.5 else "-inf")
                 for m in result["matches"]]
        lines.append(f"| {stage['games']:,} | {stage['features']} | {stage['seconds']:.0f} | "
                     f"{stage['games'] / stage['seconds']:.0f} | " + " | ".join(cells) + " |")
    return lines


def main(argv=None) -> None:
    p = arguments(__doc__)
    p.add_argument("--game", choices=tuple(OPPONENTS), default="othello")
    p.add_argument("--layout", default="straight2")
    p.add_argument("--symmetry", default="d4")
    p.add_argument("--phases", type=int, default=1)
    p.add_argument("--features", nargs="+", default=["none"],
                   help="feature sets to train, each 'none' or groups joined by commas")
    p.add_argument("--td-games", nargs="+", type=int, default=[20_000, 100_000])
    p.add_argument("--alpha", type=float, default=0.07,
                   help="the share of the TD error a step moves a value by (docs/patterns.md)")
    p.add_argument("--epsilon", type=float, default=0.1, help="exploration during TD")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--games", type=int, default=400, help="games per evaluation match")
    p.add_argument("--eval-epsilon", type=float, default=0.1)
    p.add_argument("--eval-seed", type=int, default=2026)
    p.add_argument("--backend", choices=("serial", "ray"), default="ray")
    p.add_argument("--out-dir", default="outputs/strength_ntuple", help="champions and JSON")
    args = p.parse_args(argv)
    if min(args.td_games) < 1 or args.games < 2:
        p.error("--td-games must be >= 1 and --games >= 2")
    args.stamp = Stamp.begin(None if argv is None else [__file__, *argv])
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    log, rows = [], []
    for spec in args.features:
        features = [] if spec == "none" else spec.split(",")
        for stage in train(args, features, out_dir, log):
            result = measure(args, stage["path"], stage["path"].with_suffix(".eval.json"), log)
            rows.append((stage, result))
    title = (f"# TD self-play alone: {args.game}, {args.layout} ({args.symmetry}), "
             f"{args.phases} phase(s)")
    lines = [f"TD(0) from zero weights, alpha {args.alpha}, epsilon {args.epsilon}, seed "
             f"{args.seed}; evaluated at 1 ply, both sides epsilon {args.eval_epsilon}, "
             f"{args.games} games per match, exact endgame from {ENDGAME[args.game]} empties.",
             "", *table(rows), "", "Commands (from the repository root):", "", "```", *log,
             "```"]
    print("\n".join([title, "", *lines]))
    if args.out:
        write_markdown(args.out, title, lines, args.stamp)
        write_json(args.out.with_suffix(".json"), {"game": args.game, "stages": [
            {**{k: v for k, v in stage.items() if k != "path"}, "file": rel(stage["path"]),
             "matches": result["matches"]} for stage, result in rows], "commands": log},
            args.stamp)


if __name__ == "__main__":
    main()
