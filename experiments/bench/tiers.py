"""How long each test tier takes on a clean clone, and what it holds: the tier table of
docs/testing.md.

    python -m experiments.bench.tiers --out experiments/results/test_suite.md
    python -m experiments.bench.tiers --before e82696f --busy-cores 2 --out ...

Each revision (``HEAD``, and ``--before REV`` for a comparison in the same sitting: its default
tier only) is cloned into a temporary folder and each tier runs there as CI runs it
(``.ci/run``): the same pytest command, its 25 slowest tests listed. ``--busy-cores N`` runs the
default tier once more while N other processes keep a core busy each: a test that depends on
the machine's speed fails there. The numba cache is the test command's own, keyed by the
sources (``tests/numba_cache.py``; warmed first, as ``.ci/run`` does); ``--cold`` gives every
tier an empty one instead. Everything runs one after another, so compare times measured in one
run of this script.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from experiments.common import arguments
from experiments.stamp import ROOT, Stamp, write_result

TIERS = {  # name -> (pytest arguments after `python -m pytest`, what it holds)
    "default": ([], "the README's test command: every test not marked slow, on every core"),
    "slow": (["-m", "slow and not claims"], "long tests: whole studies, subprocess kills, "
             "a two-node cluster losing a node, cold caches, whole browser games"),
    "claims": (["-m", "claims"], "the checks behind published figures: perft 10-11, FFO "
               "#1-#39, Hexifence N=2, the committed runs"),
}
SUMMARY = re.compile(r"^=*\s*(?P<text>(\d+ \w+(, )?)+) in [\d.]+s")


def clone(revision: str, into: Path) -> str:
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(into)], check=True)
    subprocess.run(["git", "-C", str(into), "checkout", "-q", revision], check=True)
    return subprocess.run(["git", "-C", str(into), "rev-parse", "--short=12", "HEAD"],
                          check=True, capture_output=True, text=True).stdout.strip()


def run_tier(checkout: Path, tier: str, cold: bool, busy_cores: int = 0,
             log: Path | None = None) -> dict:
    args, _ = TIERS[tier]
    env = {**os.environ}
    plugin = checkout / "tests" / "plugin_game"  # the checkout's own, not the installed one's
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(plugin), env.get("PYTHONPATH")]))
    if cold:
        env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="be-numba-")
    if (checkout / "tests" / "warm_numba.py").is_file():  # what .ci/run does first
        subprocess.run([sys.executable, "-m", "tests.warm_numba"], cwd=checkout, env=env,
                       check=True, capture_output=True)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(busy_cores)]
    started = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                               "--durations=25", *args], cwd=checkout, env=env,
                              capture_output=True, text=True)
    finally:
        for p in busy:
            p.kill()
            p.wait()
    seconds = time.perf_counter() - started
    if log is not None:  # the whole report, failures' tracebacks included
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(proc.stdout + proc.stderr, encoding="utf-8")
    lines = proc.stdout.splitlines()
    summary = next((m.group("text") for line in reversed(lines) if (m := SUMMARY.match(line))),
                   "no summary line")
    return {"tier": tier, "busy_cores": busy_cores, "exit_status": proc.returncode,
            "seconds": round(seconds, 1), "summary": summary, "slowest": slowest(lines),
            "failures": [line for line in lines if line.startswith(("FAILED ", "ERROR "))]}


def slowest(lines: list[str]) -> list[str]:
    """The ``--durations`` rows: ``12.34s call     tests/x.py::test_y``."""
    start = next((i for i, line in enumerate(lines) if "slowest 25 durations" in line), None)
    if start is None:
        return []
    rows = []
    for line in lines[start + 1:]:
        if not re.match(r"^\d+\.\d+s ", line):
            break
        rows.append(" ".join(line.split()))
    return rows


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--tiers", nargs="+", choices=list(TIERS), default=list(TIERS))
    parser.add_argument("--revision", default="HEAD")
    parser.add_argument("--before", metavar="REV", help="also time this revision, first")
    parser.add_argument("--cold", action="store_true", help="an empty numba cache per tier")
    parser.add_argument("--busy-cores", type=int, default=0, metavar="N",
                        help="also run the default tier with N cores kept busy")
    parser.add_argument("--logs", type=Path, default=None, metavar="DIR",
                        help="write each tier's pytest output to DIR/<revision>-<tier>.log")
    args = parser.parse_args()
    stamp = Stamp.begin()
    plan = [("before", args.before, ["default"], 0)] if args.before else []
    plan.append(("after" if args.before else "this", args.revision, args.tiers, 0))
    if args.busy_cores:
        plan.append((plan[-1][0], args.revision, ["default"], args.busy_cores))
    results = []
    for label, revision, tiers, busy in plan:
        with tempfile.TemporaryDirectory(prefix="be-suite-") as folder:
            commit = clone(revision, Path(folder) / "checkout")
            for tier in tiers:
                log = args.logs / f"{label}-{tier}{f'-busy{busy}' if busy else ''}.log" \
                    if args.logs else None
                row = {"revision": label, "commit": commit, **run_tier(
                    Path(folder) / "checkout", tier, args.cold, busy, log)}
                print(f"{label} {commit} {tier} ({busy} cores busy): {row['summary']}, "
                      f"{row['seconds']:.0f} s, exit status {row['exit_status']}", flush=True)
                results.append(row)
    write_result(args.out, "# The test tiers on a clean clone", table(results, args), stamp,
                 {"tiers": results, "cold_numba_cache": args.cold})
    return 0 if all(r["exit_status"] == 0 for r in results) else 1


def table(results: list[dict], args) -> list[str]:
    cache = "an empty numba cache per tier" if args.cold else "the test command's numba cache"
    lines = [f"Each tier as `.ci/run` runs it, on a clean clone, with {cache}.", "",
             "| revision | commit | tier | command | cores kept busy | result | wall time |",
             "|---|---|---|---|---:|---|---:|"]
    for r in results:
        command = " ".join(["python -m pytest", *(f'"{a}"' if " " in a else a
                                                   for a in TIERS[r["tier"]][0])])
        lines.append(f"| {r['revision']} | `{r['commit']}` | {r['tier']} | `{command}` | "
                     f"{r['busy_cores']} | {r['summary']} (exit {r['exit_status']}) | "
                     f"{r['seconds'] / 60:.1f} min |")
    lines += ["", "What each tier holds:", ""]
    lines += [f"- **{name}**: {what}" for name, (_, what) in TIERS.items()]
    for r in results:
        busy = f", {r['busy_cores']} cores busy" if r["busy_cores"] else ""
        lines += ["", f"The 25 slowest of {r['revision']} `{r['commit']}`, {r['tier']}{busy}:",
                  "", "```", *r["slowest"], "```"]
        if r["failures"]:
            lines += ["", "Failed:", "", "```", *r["failures"], "```"]
    return lines


if __name__ == "__main__":
    sys.exit(main())
