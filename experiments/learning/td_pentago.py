"""What TD self-play alone reaches with an n-tuple network in Pentago Twist (issue 21).

    python -m experiments.learning.td_pentago --td-games 10000 100000 300000 --games 200
    python -m experiments.learning.td_pentago --td-games 1000 --games 20 --out /tmp/nt  # a look

Steps: (1) one TD self-play run (``Game.td_learn``: epsilon-greedy 1-ply, TD(0)) of an
``ntuple`` genome from zero weights (``--start reference``: from the seed's weights, projected
onto the network or, with ``--features``, kept as feature weights the network learns around),
saved as a champion file (under ``--work``) at each count of ``--td-games`` (a learning curve;
games per second measured); (2) ``python -m evolve.evaluate`` of each file against the seed's
``reference`` weights at equal search (``--depth``, exact from ``--endgame-empties``) and, with
``--time``, against the seed's MCTS at equal time per move; colour-swapped pairs from seeded
openings, the score with its 95% Wilson interval and its Elo. Writes
``OUT/ntuple_pentago_strength.md`` and ``.json``, stamped, with every command (numbers from a
loaded machine are indications only).
``experiments/learning/td_hexifence.py`` runs the same for Hexifence.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from experiments.common import ROOT, evaluate, rel
from experiments.stamp import Stamp, write_json, write_markdown

RESULTS = ROOT / "experiments" / "results"


def learning_curve(game, counts: list[int], args, stem: str) -> list[dict]:
    """One TD run from the start genome; a champion file at each count (TD continues from the
    last: segment k is seeded with ``SeedSequence([seed, k])``)."""
    import numpy as np

    genome = np.zeros(game.genome_spec().size) if args.start == "zero" else \
        game.reference_genome("reference")
    game.td_learn(genome, 1, 0, args.alpha, args.epsilon)  # compile / load numba's cache first
    done, rows = 0, []
    for k, count in enumerate(sorted(counts)):
        start = time.perf_counter()
        genome = game.td_learn(genome, count - done, np.random.SeedSequence([args.seed, k]),
                               args.alpha, args.epsilon)
        seconds = time.perf_counter() - start
        path = Path(args.work or ROOT / "outputs" / stem) / f"{stem}_td{count}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {"td_games": count, "alpha": args.alpha, "epsilon": args.epsilon,
                "seed": args.seed, "start": args.start, "command": args.stamp.command}
        game.save_champion(path, genome, name=f"td {count}", metadata=meta)
        rows.append({"td_games": count, "file": rel(path), "seconds": seconds,
                     "games_per_second": (count - done) / seconds if seconds > 0 else None})
        print(f"TD {done}..{count} games: {seconds:.1f} s ({rows[-1]['games_per_second']:,.0f}"
              f" games/s) -> {rel(path)}", flush=True)
        done = count
    return rows


def match(player: str, opponent: str, search: list[str], args, log: list[str],
          extra: list[str] = ()) -> dict:
    """One ``evolve.evaluate`` match; its JSON match record."""
    return evaluate([player, "--game", args.game, "--vs", opponent, "--games", args.games,
                     *search, "--endgame-empties", args.endgame_empties, "--backend",
                     args.backend, "--seed", args.eval_seed, "--no-progress", *extra],
                    Path(args.out) / "evaluate.json", keep=False, log=log,
                    echo=True).data["matches"][0]


def row(label: str, opponent: str, m: dict) -> str:
    def elo(x):
        return "inf" if x is None else f"{x:+.0f}"

    low, high = m["score_ci95"]
    elo_low, elo_high = m["elo_ci95_wilson"]
    return (f"| {label} | {opponent} | {m['games']} | {m['wins']}-{m['draws']}-{m['losses']} | "
            f"{100 * m['score']:.1f}% [{100 * low:.1f}, {100 * high:.1f}] | "
            f"{elo(m['elo'])} [{elo(elo_low)}, {elo(elo_high)}] |")


def report(args, curve: list[dict], results: list[tuple], log: list[str], stem: str) -> None:
    md = ["Commands run from the repository root (numbers from a loaded machine are indications "
          "only):", "", "```", *log, "```", "",
          f"Genome: `{json.dumps(args.settings)}`; TD from {args.start} weights, alpha "
          f"{args.alpha}, epsilon {args.epsilon}, seed {args.seed}.", "",
          "| TD games | seconds | games/s | file |", "|---:|---:|---:|---|"]
    md += [f"| {r['td_games']:,} | {r['seconds']:.1f} | {r['games_per_second'] or 0:,.0f} | "
           f"`{r['file']}` |" for r in curve]
    md += ["", "Score of the TD network (win 1, draw 1/2) with its 95% Wilson interval, and "
           "the Elo of that interval:", "",
           "| player | opponent | games | W-D-L | score [95% CI] | Elo [95% CI] |",
           "|---|---|---:|---|---|---|"]
    md += [row(label, opponent, m) for label, opponent, m in results]
    out = Path(args.out)
    write_markdown(out / f"{stem}.md", f"# What TD self-play alone reaches: {args.title}", md,
                   args.stamp)
    write_json(out / f"{stem}.json", {"settings": args.settings, "curve": curve,
                                      "commands": log, "matches": [
                                          {"player": p, "opponent": o, **m}
                                          for p, o, m in results]}, args.stamp)
    print("\n".join(md))


def parser(description: str, defaults: dict) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--td-games", type=int, nargs="+", default=defaults["td_games"],
                   help="TD games at which the network is saved and evaluated")
    p.add_argument("--alpha", type=float, default=defaults["alpha"])
    p.add_argument("--epsilon", type=float, default=0.1)
    p.add_argument("--layout", default=defaults["layout"])
    p.add_argument("--phases", type=int, default=1)
    p.add_argument("--features", action="store_true", help="network + the feature weights")
    p.add_argument("--start", choices=("zero", "reference"), default="zero")
    p.add_argument("--games", type=int, default=200, help="games per evaluation match")
    p.add_argument("--depth", type=int, default=defaults["depth"])
    p.add_argument("--endgame-empties", type=int, default=defaults["endgame_empties"])
    p.add_argument("--backend", default="serial")
    p.add_argument("--seed", type=int, default=0, help="TD's seed")
    p.add_argument("--eval-seed", type=int, default=2026)
    p.add_argument("--out", default=str(RESULTS), help="the report's folder")
    p.add_argument("--work", default=None,
                   help="the TD networks' champion files (default: outputs/<script name>)")
    return p


def main() -> None:
    p = parser(__doc__.split("\n")[0], {"td_games": [10_000, 100_000], "alpha": 0.3,
                                        "layout": "straight5+corner3", "depth": 2,
                                        "endgame_empties": 8})
    p.add_argument("--time", type=float, default=0.5,
                   help="seconds per move against MCTS (0: no MCTS match)")
    args = p.parse_args()
    args.game, args.title = "pentago_twist", "Pentago Twist"
    args.settings = {"genome": {"kind": "ntuple", "layout": args.layout, "phases": args.phases,
                                "features": args.features}}
    run(args, "ntuple_pentago_strength", mcts_time=args.time)


def run(args, stem: str, mcts_time: float = 0.0, game_settings: str | None = None) -> None:
    from engine.core import get_game

    args.stamp = Stamp.begin()
    Path(args.out).mkdir(parents=True, exist_ok=True)
    game = get_game(args.game, args.settings)
    curve = learning_curve(game, args.td_games, args, stem)
    log, results = [], []
    extra = ["--game-settings", game_settings] if game_settings else []
    for r in curve:
        label = f"TD {r['td_games']:,} games"
        m = match(r["file"], "reference", ["--depth", str(args.depth)], args, log, extra)
        results.append((label, f"reference, depth {args.depth}", m))
        if mcts_time > 0:
            m = match(r["file"], "mcts", ["--time", str(mcts_time)], args, log, extra)
            results.append((label, f"mcts, {mcts_time} s per move", m))
    report(args, curve, results, log, stem)


if __name__ == "__main__":
    main()
