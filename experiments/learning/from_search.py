"""Learning from search, iterated: label positions with the current network's search, fit a new
network to them, measure it at 1 ply against fixed anchors, and again from the new network.

    python -m experiments.learning.from_search --game othello --rounds 2 --positions 50000 \\
        --depth 2 --exact-empties 12 --out experiments/results/learning_from_search_othello.md

Round 0 is the start champion (default: the game's promoted champion). Round r labels
``--positions`` new positions (``python -m evolve.label``, seed ``--seed`` + r, the round r-1
network sampling and searching), fits ``--layout`` in ``--phases`` phases (``python -m
evolve.fit``; by default on the union of every round's positions, ``--this-round-only`` on the
round's own), then plays the fitted network against the round-0 champion and the game's fixed
anchors (``from_search_steps.SETUPS``: colour-swapped seeded openings, the 1-ply protocol,
``--games`` per anchor), and with ``--time-games`` also at ``--time`` seconds per move against
the round-0 champion. Everything a round makes lives in ``--work``; a step whose outputs are
complete is not run again, so a killed driver continues where it stopped (the label CLI
continues its dataset). Writes ``--out`` (Markdown), its ``.json`` and ``.png`` (Elo per round
and per million positions), stamped; each child process's command is listed in them.

The union is the default: a 60- or 15-phase Edax-like network has millions of weights, and
each round's positions alone leave most of them unread; the exact labels of earlier rounds are
as true as the new ones, and their search labels are only one network older.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

from engine.core.commands.helptext import summary
from evolve.errors import first_line, log_to_stderr
from experiments.common import rel
from experiments.learning import from_search_steps as steps
from experiments.learning.from_search_report import figure, markdown, pooled
from experiments.stamp import ROOT, Stamp, write_json, write_markdown

log = logging.getLogger("from_search")
REFERENCE = "reference"


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m experiments.learning.from_search",
                                description=summary(__doc__))
    p.add_argument("--game", choices=tuple(steps.SETUPS), default="othello")
    p.add_argument("--champion", default=None,
                   help="round 0 (default: the game's champion; `reference`: the game's "
                        "reference evaluation, for learn() alone)")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--positions", type=int, default=50_000, help="new positions per round")
    p.add_argument("--batch-positions", type=int, default=10_000)
    p.add_argument("--exact-empties", type=int, default=12)
    p.add_argument("--depth", type=int, default=2, help="search depth of the labels")
    p.add_argument("--sample-depth", type=int, default=1)
    p.add_argument("--openings", default="4:12")
    p.add_argument("--epsilon", type=float, default=0.1)
    p.add_argument("--keep", type=float, default=1.0,
                   help="the share of each sampled game's positions kept (default 1)")
    p.add_argument("--seed", type=int, default=0, help="round r labels with seed SEED + r")
    p.add_argument("--layout", default="edax")
    p.add_argument("--phases", type=int, default=15)
    p.add_argument("--l2", type=float, default=1.0)
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--this-round-only", action="store_true",
                   help="fit on the round's positions alone (default: every round's so far)")
    p.add_argument("--games", type=int, default=200, help="games per anchor and round")
    p.add_argument("--eval-seed", type=int, default=2026)
    p.add_argument("--time", type=float, default=0.5, help="seconds per move of --time-games")
    p.add_argument("--time-games", type=int, default=0,
                   help="games at --time per move vs the round-0 champion, by the last round's "
                        "network (default 0: none; on the labelling's backend)")
    p.add_argument("--backend", choices=("serial", "ray"), default="serial",
                   help="the labelling's backend")
    p.add_argument("--workers", type=int, default=None, help="the labelling's Ray workers")
    p.add_argument("--work", type=Path, default=None,
                   help="datasets, networks, logs (default outputs/from_search/<game>)")
    p.add_argument("--out", type=Path, default=None,
                   help="the Markdown result (default experiments/results/"
                        "learning_from_search_<game>.md)")
    p.add_argument("--note", action="append", default=[], help="a line for the result file")
    args = p.parse_args(argv)
    for option, value in (("--rounds", args.rounds), ("--positions", args.positions),
                          ("--games", args.games), ("--phases", args.phases)):
        if value < 1:
            p.error(f"{option} {value}: allowed >= 1")
    if args.time_games < 0 or args.time <= 0:
        p.error("--time must be > 0 and --time-games >= 0")
    args.champion = args.champion or steps.SETUPS[args.game].champion
    if args.champion != REFERENCE and not (ROOT / args.champion).is_file() and \
            not Path(args.champion).is_file():
        p.error(f"--champion {args.champion}: no such file")
    args.work = args.work or Path("outputs/from_search") / args.game
    args.out = args.out or ROOT / "experiments/results" / f"learning_from_search_{args.game}.md"
    return args


def label_options(args) -> list[str]:
    return ["--positions", str(args.positions), "--batch-positions", str(args.batch_positions),
            "--exact-empties", str(args.exact_empties), "--depth", str(args.depth),
            "--sample-depth", str(args.sample_depth), "--openings", args.openings,
            "--epsilon", str(args.epsilon), *(["--keep", str(args.keep)] if args.keep != 1
                                              else []), "--backend", args.backend,
            *(["--workers", str(args.workers)] if args.workers else [])]


def fit_options(args) -> list[str]:
    return ["--l2", str(args.l2), "--iterations", str(args.iterations), "--seed", "0"]


def settings(args) -> dict:
    """What the work folder's datasets and networks depend on (rounds and games do not: more
    rounds extend a run, other games measure it again)."""
    return {"game": args.game, "champion": args.champion, "positions": args.positions,
            "label_options": " ".join(label_options(args)), "seed": args.seed,
            "layout": args.layout, "phases": args.phases, "union": not args.this_round_only,
            "fit_options": " ".join(fit_options(args))}


def checked_work(work: Path, setting: dict) -> None:
    """``work`` holds this run (or nothing yet); another run's folder is refused."""
    path = work / "settings.json"
    if path.is_file():
        before = json.loads(path.read_text())
        differs = [k for k in setting if before.get(k) != setting[k] and k != "label_options"]
        if differs or before.get("label_options") != setting["label_options"]:
            field = (differs or ["label_options"])[0]
            raise ValueError(f"--work {work}: holds a run made with {field} "
                             f"{before.get(field)!r}, not {setting[field]!r}; use another "
                             "--work or remove it")
    work.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(setting, indent=1) + "\n")


class Clock:
    """Steps done this session and the time they took: an ETA for the steps left."""

    def __init__(self, total: int):
        self.total, self.done, self.started = total, 0, time.monotonic()

    def step(self, what: str) -> None:
        self.done += 1
        spent = time.monotonic() - self.started
        left = spent / self.done * (self.total - self.done)
        log.info("%s (%d/%d steps, %.0fs, ETA %.0fs)", what, self.done, self.total, spent, left)


def one_round(args, r: int, champion: str, work: Path, commands: list[str]) -> dict:
    """Round ``r``'s label, fit and measurement (each skipped when done); its record."""
    record = learnt_round(args, r, champion, work, commands)
    return {**record, **measured(args, record["network"],
                                 [args.champion, *steps.SETUPS[args.game].anchors],
                                 work / f"round{r:02d}", commands, last=r == args.rounds)}


def learnt_round(args, r: int, champion: str, work: Path, commands: list[str]) -> dict:
    """Round ``r``'s label and fit (each skipped when done); its record."""
    folder = work / f"round{r:02d}"
    folder.mkdir(parents=True, exist_ok=True)
    labelled = steps.label(args.game, None if champion == REFERENCE else champion,
                           folder / "data",
                           [*label_options(args), "--seed", str(args.seed + r)], commands)
    args.clock.step(f"round {r}: labelled {labelled['positions']:,} positions")
    rounds = [work / f"round{i:02d}" / "data" for i in range(1, r + 1)]
    data = rounds[-1] if args.this_round_only else steps.union(rounds, folder / "union")
    genome = {"genome": {"kind": "ntuple", "layout": args.layout, "phases": args.phases}}
    fitted = steps.fit(args.game, data, folder / "network.npz", genome, fit_options(args),
                       commands)
    args.clock.step(f"round {r}: fitted, held-out RMSE {fitted['held_out_rmse']:.2f}")
    record = {"round": r, "network": rel(folder / "network.npz"),
              "positions": labelled["positions"], "label_cpu_seconds": labelled["cpu_seconds"],
              "label_wall_seconds": labelled["wall_seconds"],
              "fit_positions": fitted["positions"], "fit_wall_seconds": fitted["wall_seconds"],
              "fit_cpu_seconds": fitted["cpu_seconds"],
              **{k: fitted[k] for k in ("train_rmse", "held_out_rmse", "held_out_rmse_of_zero")}}
    return record


def learn(argv: list[str]) -> list[dict]:
    """The rounds of ``argv`` (this CLI's options) without measuring: per round its network,
    positions so far, and the CPU and wall seconds of labelling and fitting so far (what
    ``experiments.learning.efficiency`` plots against)."""
    args = parse_args(argv)
    work = (ROOT / args.work) if not args.work.is_absolute() else args.work
    checked_work(work, settings(args))
    args.clock, commands = Clock(2 * args.rounds), []
    history, champion, cpu, wall, positions = [], args.champion, 0.0, 0.0, 0
    for r in range(1, args.rounds + 1):
        record = learnt_round(args, r, champion, work, commands)
        cpu += record["label_cpu_seconds"] + record["fit_cpu_seconds"]
        wall += record["label_wall_seconds"] + record["fit_wall_seconds"]
        positions += record["positions"]
        champion = record["network"]
        path = Path(champion) if Path(champion).is_absolute() else ROOT / champion
        history.append({"cpu": round(cpu, 2), "wall": round(wall, 2), "champion": str(path),
                        "positions": positions})
    return history


def measured(args, player: str, opponents: list[str], folder: Path, commands: list[str],
             last: bool = False) -> dict:
    setup = steps.SETUPS[args.game]
    result = steps.measure(player, opponents, list(setup.protocol), args.games, args.eval_seed,
                           folder / "anchors.json", commands)
    fixed = pooled([m for m in result["matches"] if m["opponent"] in setup.anchors])
    args.clock.step(f"{folder.name}: {fixed['score']:.3f} vs the fixed anchors")
    out = {"matches": result["matches"], "pooled": fixed,
           "eval_wall_seconds": result["wall_seconds"]}
    if args.time_games and last and player != args.champion:
        backend = ("--backend", "ray", *(("--workers", str(args.workers)) if args.workers else ())
                   ) if args.backend == "ray" else ("--backend", "serial")
        timed = steps.measure(player, [args.champion], ["--time", str(args.time)],
                              args.time_games, args.eval_seed, folder / "timed.json", commands,
                              backend)
        out["timed"] = timed["matches"][0]
    return out


CHECK_POSITIONS = 1_000_000


def notes(args) -> list[str]:
    """The result file's notes: ``--note`` lines, and what a run of few positions is."""
    total = args.rounds * args.positions
    small = [f"**A small pipeline check** ({total:,} positions in all, depth-{args.depth} "
             "labels): it proves that labelling, fitting and measuring work end to end; it "
             "does not measure what learning from search can reach (docs/tuning.md, \"Which "
             "learner\", gives the big command)."] if total < CHECK_POSITIONS else []
    return [*small, *args.note]


def run(args) -> dict:
    if args.champion == REFERENCE:
        raise ValueError("--champion reference: round 0 must be a champion file to be measured "
                         "(the reference evaluation starts learn() alone)")
    setup = steps.SETUPS[args.game]
    work = (ROOT / args.work) if not args.work.is_absolute() else args.work
    setting = settings(args)
    checked_work(work, setting)
    commands: list[str] = []
    args.clock = Clock(1 + 3 * args.rounds)
    start = {"round": 0, "network": args.champion, "positions": 0, "label_cpu_seconds": 0.0,
             **measured(args, args.champion, list(setup.anchors), work / "round00", commands)}
    rounds, champion = [start], args.champion
    for r in range(1, args.rounds + 1):
        rounds.append(one_round(args, r, champion, work, commands))
        champion = rounds[-1]["network"]
    total = cpu = 0.0
    for r in rounds:
        total += r["positions"]
        cpu += r["label_cpu_seconds"]
        r["positions_cumulative"], r["label_cpu_seconds_cumulative"] = int(total), round(cpu, 2)
    return {"settings": {**setting, "rounds": args.rounds, "games": args.games,
                         "eval_seed": args.eval_seed, "protocol": list(setup.protocol),
                         "time": {"seconds": args.time, "games": args.time_games}},
            "anchors": [args.champion, *setup.anchors], "notes": notes(args),
            "rounds": rounds, "commands": commands}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    log_to_stderr()
    stamp = Stamp.begin([__file__, *argv])
    try:
        report = run(args)
    except (ValueError, RuntimeError, OSError) as err:
        print(f"error: {first_line(err)}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    png = out.with_suffix(".png")
    figure(report).savefig(png, dpi=110, bbox_inches="tight")
    write_json(out.with_suffix(".json"), report, stamp)
    write_markdown(out, f"# Learning from search: {args.game}", markdown(report, png.name), stamp)
    print(f"wrote {rel(out)}, .json, .png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
