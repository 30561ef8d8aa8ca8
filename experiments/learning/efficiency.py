"""Strength per CPU-second, for each game, genome kind and optimizer.

Every method of a game's plan (``experiments/learning/efficiency_plans.py``) runs with the same CPU
budget from several seeds; its champion at a quarter, half and all of the budget plays the
game's fixed anchors under the game's protocol (colour-swapped seeded openings, the same for
every player); the score over all anchor games gives an Elo against the anchor pool with its
95% Wilson interval. Writes ``learning_efficiency.md`` / ``.json`` / ``.png``, stamped; a run
of some games or methods replaces their rows and keeps the others (each method names the command
that measured it). A run whose rows were measured with the same settings (``<work>/<game>/<method>/
seed<N>.rows.json``, or the result file's own rows and keys) is not run again, so an interrupted
study resumes where it stopped, on this machine or another::

    python -m experiments.learning.efficiency --game othello --seeds 0 1 --budget 240

A ``python -m evolve`` method runs as a child process (serially: CPU-seconds are its own) and
is stopped when its CPU time reaches the budget; the champion of each finished generation is
what it had learnt by then. TD-alone and Texel methods run in this process (their CPU time is
``time.process_time``). The studies run without their own yardstick panel and playoff: those
measure, they do not learn, and would spend the budget.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

from engine.core.commands.helptext import summary
from experiments.common import evaluate
from experiments.learning.efficiency_plans import NO_YARDSTICK, PLANS, RUN_ONLY, Method, Plan
from experiments.learning.efficiency_report import figure, markdown, wilson
from experiments.stamp import ROOT, Stamp, write_json, write_markdown

FRACTIONS = (0.25, 0.5, 1.0)
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a live process and its reaped children (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / TICKS


def run_evolve(method: Method, seed: int, budget: float, run_dir: Path) -> list[dict]:
    """Run the study until its CPU reaches ``budget``; [{"cpu", "wall", "champion"}] per
    generation. A run stopped before (a killed session) resumes from its checkpoint
    (``resume=``), its CPU and wall seconds so far and the generations seen read from
    ``<run>.progress.json`` (written every few seconds: a kill loses at most those seconds from
    the counts; the time between sessions is not counted)."""
    progress = run_dir.parent / f"{run_dir.name}.progress.json"
    before = json.loads(progress.read_text()) if progress.is_file() and \
        (run_dir / "checkpoint").is_dir() else {"seen": []}
    if not before["seen"]:  # killed before its first generation: it starts again, from zero
        before = {"cpu": 0.0, "wall": 0.0, "seen": []}
    started = time.monotonic() - before.get("wall", 0.0)  # older progress files: no wall
    cmd = [sys.executable, "-m", "evolve", *method.overrides, *RUN_ONLY,
           *([] if method.yardstick else [NO_YARDSTICK]), f"seed={seed}",
           "ga.generations=100000", f"hydra.run.dir={run_dir}"]
    if before["seen"]:
        cmd = [sys.executable, "-m", "evolve", f"resume={run_dir}"]
    log = open(run_dir.parent / f"{run_dir.name}.log", "a")
    child = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    seen: list[dict] = before["seen"]
    champions = run_dir / "champions"
    last_saved = 0.0
    try:
        while child.poll() is None:
            used = before["cpu"] + cpu_seconds(child.pid)
            wall = time.monotonic() - started
            done = sorted(champions.glob("gen_*.json")) if champions.is_dir() else []
            for path in done[len(seen):]:
                seen.append({"cpu": used, "wall": wall, "champion": str(path)})
            if used >= budget:
                break
            if time.monotonic() - last_saved > 5.0:
                progress.write_text(json.dumps({"cpu": used, "wall": wall, "seen": seen}))
                last_saved = time.monotonic()
            time.sleep(0.2)
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGKILL)
        child.wait()
        log.close()
    if child.returncode not in (0, -signal.SIGKILL):
        last = (run_dir.parent / f"{run_dir.name}.log").read_text().strip().splitlines()[-1:]
        raise RuntimeError(f"{method.name} seed {seed} failed: {last}")
    if not seen:
        raise RuntimeError(f"{method.name}: no generation finished within {budget:.0f} CPU-s "
                           f"(see {run_dir}.log)")
    return seen


def run_td(method: Method, seed: int, budget: float, run_dir: Path) -> list[dict]:
    """``python -m evolve.td`` with the method's options to its end (a run stopped before
    resumes exactly from its checkpoint); per snapshot its CPU (the driver's and its Ray
    workers') and wall seconds. Its games, not the budget, fix how long it runs: size its
    stages to the budget; the points are its snapshots within each fraction of it."""
    out = run_dir / "network.json"
    run_dir.mkdir(parents=True, exist_ok=True)
    if not out.is_file():
        cmd = [sys.executable, "-m", "evolve.td", *method.overrides, "--seed", str(seed),
               "--out", str(out), "--checkpoint", str(run_dir / "network.checkpoint.npz"),
               "--checkpoint-seconds", "120", "--resume", "--no-progress"]
        with open(run_dir.parent / f"{run_dir.name}.log", "a") as log:
            if subprocess.run(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT).returncode:
                raise RuntimeError(f"{method.name} seed {seed} failed (see {run_dir}.log)")
    history = []
    for path in [*run_dir.glob("network.g*.json"), out]:
        td = json.loads(path.read_text())["metadata"]["td"]
        history.append({"cpu": td["cpu_seconds"] + td.get("worker_cpu_seconds", 0.0),
                        "wall": td.get("wall_seconds"), "games": td["games"],
                        "champion": str(path)})
    final = history[-1]["games"]  # the last snapshot is the final network again
    return sorted([h for h in history[:-1] if h["games"] < final] + history[-1:],
                  key=lambda h: h["games"])


def run_from_search(method: Method, seed: int, budget: float, run_dir: Path) -> list[dict]:
    """``experiments.learning.from_search``'s rounds (label, fit) with the method's options, to
    their end (a stopped run continues from its last finished step); per round its network and
    the CPU and wall seconds of labelling and fitting so far. Its rounds, not the budget, fix
    how long it runs: size them to the budget."""
    from experiments.learning.from_search import learn
    return learn([*method.overrides, "--seed", str(seed), "--work", str(run_dir)])


def run_in_process(method: Method, seed: int, budget: float, run_dir: Path) -> list[dict]:
    from experiments.learning.efficiency_inprocess import learn
    return learn(method, seed, budget, run_dir, [f * budget for f in FRACTIONS])


def checkpoints(history: list[dict], budget: float) -> list[dict]:
    """The last champion within each fraction of the budget (the first one if none is); an
    in-process method saved its own at each fraction."""
    if all("fraction" in h for h in history):
        return history
    out = []
    for f in FRACTIONS:
        within = [h for h in history if h["cpu"] <= f * budget * 1.02] or history[:1]
        out.append({**within[-1], "fraction": f})
    return out


def shown(path: str) -> str:
    return str(Path(path).relative_to(ROOT)) if Path(path).is_relative_to(ROOT) else path


def measure(plan: Plan, champion: str, games: int, out: Path) -> dict:
    return evaluate([champion, "--vs", *plan.anchors, *plan.protocol, "--games", games, "--seed",
                     "2026", "--backend", "serial", "--no-progress"], out).data


def pooled(result: dict) -> dict:
    """Score over every anchor game, its 95% Wilson interval and Elo (the anchor pool's)."""
    n = sum(m["games"] for m in result["matches"])
    p, low, high = wilson(sum(m["wins"] + m["draws"] / 2 for m in result["matches"]), n)
    return {"games": n, "score": p, "score_ci95": [low, high],
            "by_anchor": {m["opponent"]: m["score"] for m in result["matches"]}}


def row_key(plan: Plan, method: Method, budget: float, games: int) -> dict:
    """What a measured row depends on: a row measured with another key is measured again."""
    return json.loads(json.dumps({"method": asdict(method), "budget": budget, "games": games,
                                  "anchors": plan.anchors, "protocol": plan.protocol}))


def study(plan: Plan, methods: list[Method], seeds: list[int], budget: float, games: int,
          work: Path, earlier: dict | None = None) -> list[dict]:
    """Each method's rows from each seed. A run measured before with the same key is not run
    again: from ``<work>/<game>/<method>/seed<N>.rows.json`` (an interrupted study) or from
    ``earlier``, the result file's section (another session or machine)."""
    from tqdm import tqdm

    earlier = earlier or {}
    rows = []
    jobs = [(method, seed) for method in methods for seed in seeds]
    bar = tqdm(jobs, desc=plan.game, unit="run", disable=not sys.stderr.isatty())
    for method, seed in bar:
        bar.set_postfix_str(f"{method.name} seed {seed}")
        run_dir = work / plan.game / method.name / f"seed{seed}"
        run_dir.parent.mkdir(parents=True, exist_ok=True)
        done = run_dir.parent / f"seed{seed}.rows.json"
        key = row_key(plan, method, budget, games)
        if done.is_file() and json.loads(done.read_text())["key"] == key:
            rows += json.loads(done.read_text())["rows"]  # measured by an interrupted run
            continue
        kept_rows = [r for r in earlier.get("rows", [])
                     if r["method"] == method.name and r["seed"] == seed]
        if kept_rows and earlier.get("keys", {}).get(method.name) == key:
            print(f"{plan.game} {method.name} seed {seed}: kept from the result file", flush=True)
            rows += kept_rows
            continue
        resumable = method.kind in ("evolve", "td_cli", "from_search")  # from their steps
        if run_dir.exists() and not resumable:
            shutil.rmtree(run_dir)
        runner = {"evolve": run_evolve, "td_cli": run_td,
                  "from_search": run_from_search}.get(method.kind, run_in_process)
        history = runner(method, seed, budget, run_dir)
        measured = []
        for point in checkpoints(history, budget):
            out = run_dir.parent / f"seed{seed}_{point['fraction']:.2f}.eval.json"
            result = pooled(measure(plan, point["champion"], games, out))
            measured.append({"method": method.name, "seed": seed, "fraction": point["fraction"],
                             "cpu": round(point["cpu"], 1),
                             **({"wall": round(point["wall"], 1)} if point.get("wall") else {}),
                             "champion": shown(point["champion"]), **result})
            print(f"{plan.game} {method.name} seed {seed} at {point['cpu']:.0f} CPU-s: "
                  f"{result['score']:.1%} vs the anchors", flush=True)
        done.write_text(json.dumps({"key": key, "rows": measured}, indent=1))
        rows += measured
    return rows


def kept(path: Path) -> dict:
    """The results of an earlier run (other games and methods stay; a method run again is
    replaced), so one file holds every game, each method with the command that measured it."""
    if not path.is_file():
        return {"games": {}}
    data = json.loads(path.read_text())
    data.pop("stamp", None)
    return data


def merged_commands(commands: dict, methods, stale: set[str], command: str) -> dict:
    """Per method, every command that measured one of its kept rows (a run of seed 1 keeps the
    command that measured seed 0); a method measured anew (``stale``) keeps only this one.
    Files from before list one command per method, as a string."""
    merged = {m: [c] if isinstance(c, str) else list(c) for m, c in commands.items()}
    for x in methods:
        before = [] if x.name in stale else merged.get(x.name, [])
        merged[x.name] = before + [command] * (command not in before)
    return merged


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=summary(__doc__))
    p.add_argument("--game", choices=tuple(PLANS), nargs="+", default=list(PLANS))
    p.add_argument("--methods", nargs="+", help="names from the plan (default: all)")
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    p.add_argument("--budget", type=float, help="CPU-seconds per run (default: the plan's)")
    p.add_argument("--games", type=int, default=200, help="games per anchor and checkpoint")
    p.add_argument("--work", type=Path, default=Path("outputs/learning_efficiency"),
                   help="run folders and champions")
    p.add_argument("--results", type=Path, default=ROOT / "experiments" / "results")
    p.add_argument("--name", default="learning_efficiency",
                   help="the result files' stem (default: learning_efficiency)")
    args = p.parse_args(argv)
    stamp = Stamp.begin()
    base = args.results / args.name
    report = kept(base.with_suffix(".json"))
    for name in args.game:
        plan = PLANS[name]
        methods = [x for x in plan.methods if x.name in (args.methods or ()) or
                   not args.methods and x.budget is None]  # budgeted methods: by name
        if not methods:
            p.error(f"--methods: none of {args.methods} is in {name}'s plan "
                    f"({', '.join(x.name for x in plan.methods)})")
        budgets = {x.budget for x in methods if x.budget is not None}
        if len(budgets) > 1 or budgets and args.budget not in (None, *budgets):
            p.error(f"--methods: {', '.join(x.name for x in methods)} have budgets "
                    f"{sorted(budgets)}: measure methods of one budget at a time")
        budget = args.budget or next(iter(budgets), None) or plan.budget
        section = name if budget == plan.budget else f"{name} @ {budget:.0f} CPU-s"
        setting = {"budget": budget, "anchors": list(plan.anchors),
                   "protocol": list(plan.protocol), "games": args.games}
        old = report["games"].get(section, {})
        if any(old.get(k) != v for k, v in setting.items()):
            old = {}  # measured otherwise: not comparable, replaced
        rows = study(plan, methods, args.seeds, budget, args.games, args.work.resolve(), old)
        keys = {x.name: row_key(plan, x, budget, args.games) for x in methods}
        ran = {(x.name, seed) for x in methods for seed in args.seeds}
        stale = {x.name for x in methods if old.get("keys", {}).get(x.name) != keys[x.name]}
        report["games"][section] = {
            "game": plan.game, **setting,
            "methods": {**old.get("methods", {}), **{x.name: x.what for x in methods}},
            "rows": [r for r in old.get("rows", []) if (r["method"], r["seed"]) not in ran
                     and r["method"] not in stale] + rows,  # other seeds of a method stay
            "keys": {**old.get("keys", {}), **keys},
            "commands": merged_commands(old.get("commands", {}), methods, stale, stamp.command)}
    write_json(base.with_suffix(".json"), report, stamp)
    figure(report).savefig(base.with_suffix(".png"), dpi=110, bbox_inches="tight")
    hours = any(g["budget"] >= 3600.0 for g in report["games"].values())
    write_markdown(base.with_suffix(".md"), "# Strength per CPU-hour and per wall-hour" if hours
                   else "# Strength per CPU-second",
                   markdown(report, PLANS, base.with_suffix(".png").name), stamp)
    print(f"wrote {base}.md, .json, .png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
