"""How long each test tier takes on a clean clone, and what it holds: the tier table of
docs/testing.md.

    python -m experiments.bench.tiers --out experiments/results/test_suite.md
    python -m experiments.bench.tiers --tiers default --before e82696f --out ...

Each revision (``HEAD``, and ``--before REV`` for a comparison in the same sitting) is cloned
into a temporary folder and each tier runs there as CI runs it (``.ci/run``): the same pytest
command, its 25 slowest tests listed. The numba cache is the test command's own, keyed by the
sources (``tests/numba_cache.py``); ``--cold`` gives every tier an empty one instead. A
revision's tiers run one after another, so compare times measured in one run of this script.
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


def run_tier(checkout: Path, tier: str, cold: bool) -> dict:
    args, _ = TIERS[tier]
    env = None
    if cold:
        env = {**os.environ, "NUMBA_CACHE_DIR": tempfile.mkdtemp(prefix="be-numba-")}
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "--durations=25", *args], cwd=checkout, env=env,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - started
    lines = proc.stdout.splitlines()
    summary = next((m.group("text") for line in reversed(lines) if (m := SUMMARY.match(line))),
                   "no summary line")
    return {"tier": tier, "exit_status": proc.returncode, "seconds": round(seconds, 1),
            "summary": summary, "slowest": slowest(lines)}


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
    args = parser.parse_args()
    stamp = Stamp.begin()
    results = []
    for label, revision in ([("before", args.before)] if args.before else []) + \
            [("after" if args.before else "this", args.revision)]:
        with tempfile.TemporaryDirectory(prefix="be-suite-") as folder:
            commit = clone(revision, Path(folder) / "checkout")
            for tier in args.tiers:
                row = {"revision": label, "commit": commit, **run_tier(
                    Path(folder) / "checkout", tier, args.cold)}
                print(f"{label} {commit} {tier}: {row['summary']}, {row['seconds']:.0f} s, "
                      f"exit status {row['exit_status']}", flush=True)
                results.append(row)
    write_result(args.out, "# The test tiers on a clean clone", table(results, args), stamp,
                 {"tiers": results, "cold_numba_cache": args.cold})
    return 0 if all(r["exit_status"] == 0 for r in results) else 1


def table(results: list[dict], args) -> list[str]:
    cache = "an empty numba cache per tier" if args.cold else "the test command's numba cache"
    lines = [f"Each tier as `.ci/run` runs it, on a clean clone, with {cache}.", "",
             "| revision | commit | tier | command | result | wall time |",
             "|---|---|---|---|---|---:|"]
    for r in results:
        command = " ".join(["python -m pytest", *(f'"{a}"' if " " in a else a
                                                   for a in TIERS[r["tier"]][0])])
        lines.append(f"| {r['revision']} | `{r['commit']}` | {r['tier']} | `{command}` | "
                     f"{r['summary']} (exit {r['exit_status']}) | {r['seconds'] / 60:.1f} min |")
    lines += ["", "What each tier holds:", ""]
    lines += [f"- **{name}**: {what}" for name, (_, what) in TIERS.items()]
    for r in results:
        lines += ["", f"The 25 slowest of {r['revision']} `{r['commit']}`, {r['tier']}:", "",
                  "```", *r["slowest"], "```"]
    return lines


if __name__ == "__main__":
    sys.exit(main())
