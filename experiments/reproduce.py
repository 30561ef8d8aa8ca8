"""Rerun every benchmark and strength script, rewrite ``experiments/results/*``, then
``experiments/RESULTS.md`` and the README's headline table (between ``<!-- results:begin -->``
and ``<!-- results:end -->``) from them.

    python -m experiments.reproduce --list           # what would run, with time estimates
    python -m experiments.reproduce --quick          # the minutes-long subset (exact figures)
    python -m experiments.reproduce --only bench_perft 'strength_*'
    python -m experiments.reproduce --tables         # only rewrite the two tables, measure nothing
    python -m experiments.reproduce                  # everything: hours; run it on a quiet machine

Each job is one script of ``experiments/`` (``experiments/catalogue.py``); every file it writes
carries the stamp of ``experiments/stamp.py`` (commit, exact command, machine, load average
before and after, date). A job that fails is named in one line on stderr, the others still run
and keep their results, and the command exits 1.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import shlex
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from tqdm import tqdm

from engine.core.commands.helptext import summary, unquote
from experiments.catalogue import JOBS, Job
from experiments.results_page import RESULTS_PAGE, rewrite_readme, write_results_page
from experiments.stamp import ROOT, Stamp, is_stamped, write_markdown

RESULTS = ROOT / "experiments" / "results"
README = ROOT / "README.md"


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m experiments.reproduce",
                                description=textwrap.fill(summary(__doc__), 88),
                                epilog=unquote(__doc__.split("\n\n", 1)[1]),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="only the quick jobs (minutes)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="these jobs (names or patterns)")
    p.add_argument("--list", action="store_true", help="show the jobs and exit")
    p.add_argument("--results", type=Path, default=RESULTS, help="where results go")
    p.add_argument("--tables", action="store_true",
                   help="run nothing: rewrite experiments/RESULTS.md and the README's headline "
                        "from the result files as they are")
    p.add_argument("--readme", type=Path, default=None,
                   help="the README whose headline table to rewrite (default: README.md when "
                        "--results is experiments/results)")
    p.add_argument("--page", type=Path, default=None,
                   help="the results page to rewrite (default: experiments/RESULTS.md when "
                        "--results is experiments/results)")
    p.add_argument("--no-readme", action="store_true",
                   help="leave the README and the results page alone")
    p.add_argument("--logs", type=Path, default=None, help="job logs (default: a temp folder)")
    return p.parse_args(argv)


def in_order(jobs: list[Job]) -> list[Job]:
    """Catalogue order, except that a job runs after the chosen jobs that write a file it
    ``needs`` (a goal after the job that makes its champion)."""
    writer = {out: j.name for j in jobs for out in j.outputs}
    done: set[str] = set()
    ordered: list[Job] = []
    by_name = {j.name: j for j in jobs}

    def add(j: Job, path: tuple[str, ...] = ()) -> None:
        if j.name in done or j.name in path:  # a cycle is left in catalogue order
            return
        for need in j.needs:
            if need in writer and writer[need] != j.name:
                add(by_name[writer[need]], (*path, j.name))
        done.add(j.name)
        ordered.append(j)

    for j in jobs:
        add(j)
    return ordered


def select(args, jobs: list[Job]) -> list[Job]:
    """The jobs ``--quick`` / ``--only`` ask for, in catalogue order (``in_order``); an unknown
    name exits."""
    chosen = [j for j in jobs if j.quick] if args.quick else list(jobs)
    if args.only:
        unknown = [n for n in args.only if not any(fnmatch.fnmatch(j.name, n) for j in jobs)]
        if unknown:
            sys.exit(f"error: --only {' '.join(unknown)}: no such job (python -m "
                     "experiments.reproduce --list shows them)")
        chosen = [j for j in chosen if any(fnmatch.fnmatch(j.name, n) for n in args.only)]
    return in_order(chosen)


def show(jobs: list[Job], results: Path) -> None:
    width = max(len(j.name) for j in jobs)
    for j in jobs:
        flag = "quick" if j.quick else ""
        print(f"{j.name:<{width}}  {_duration(j.seconds):>6}  {j.kind:<6}  {flag:<5}  {j.what}")
        print(f"{'':<{width}}  $ {shlex.join(command(j, results))}")
    total = sum(j.seconds for j in jobs)
    print(f"{len(jobs)} jobs, about {_duration(total)} on an idle 2-core machine")


def command(job: Job, results: Path) -> list[str]:
    where = _rel(results)
    return [part.replace("{results}", where) for part in job.command]


def run_job(job: Job, results: Path, logs: Path, bar: tqdm, env: dict) -> str | None:
    """Run one job, advancing ``bar`` by its estimate; None if it worked, else why not."""
    cmd = command(job, results)
    stamp = Stamp.begin(cmd[1:] if cmd[0] == "python" else cmd)
    log = logs / f"{job.name}.log"
    start, shown, began = time.perf_counter(), 0.0, time.time() - 1
    with open(log, "w") as err, tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen([sys.executable if cmd[0] == "python" else cmd[0], *cmd[1:]],
                                cwd=ROOT, env=env, stderr=err,
                                stdout=out if job.capture else err, text=True)
        while proc.poll() is None:
            time.sleep(0.5)
            step = min(time.perf_counter() - start, job.seconds * 0.95) - shown
            bar.update(step)
            shown += step
        bar.update(job.seconds - shown)
        if proc.returncode != 0:
            return f"exit status {proc.returncode}: {_last_line(log)} (log: {log})"
        if job.capture:
            out.seek(0)
            write_markdown(results / job.outputs[0], f"# {job.capture}", out.read(), stamp)
    missing = [o for o in job.outputs  # a file left from an earlier run does not count
               if not (results / o).is_file() or (results / o).stat().st_mtime < began]
    if missing:
        return f"did not write {', '.join(missing)} (log: {log})"
    unstamped = [o for o in job.outputs if o.endswith((".md", ".json"))  # champion files
                 and not o.startswith("champions/") and not is_stamped(results / o)]  # say theirs
    if unstamped:
        return f"wrote {', '.join(unstamped)} without the stamp (experiments/stamp.py)"
    return None


def run_all(jobs: list[Job], results: Path, logs: Path, argv: list[str]) -> list[tuple]:
    env = dict(os.environ, REPRODUCE_COMMAND=shlex.join(
        ["python", "-m", "experiments.reproduce", *argv]))
    failed = []
    total, started = sum(j.seconds for j in jobs), time.perf_counter()
    # the bar counts estimated seconds, so its ETA is the estimate scaled by the pace so far;
    # without a terminal (a log) it stays off and each job's line says where the run is
    with tqdm(total=total, unit="s", desc="reproduce", dynamic_ncols=True, disable=None,
              bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining} {postfix}",
              file=sys.stderr) as bar:
        done = 0.0
        for i, job in enumerate(jobs, start=1):
            bar.set_postfix_str(job.name)
            start = time.perf_counter()
            why = run_job(job, results, logs, bar, env)
            took, done = time.perf_counter() - start, done + job.seconds
            pace = (time.perf_counter() - started) / done
            where = (f"[{i}/{len(jobs)}, ETA {_duration(pace * (total - done))}]"
                     if i < len(jobs) else f"[{i}/{len(jobs)}]")
            if why:
                failed.append((job.name, why))
                bar.write(f"{where} FAILED {job.name} after {_duration(took)}: {why}",
                          file=sys.stderr)
            else:
                bar.write(f"{where} done {job.name} in {_duration(took)}: "
                          f"{', '.join(job.outputs)}", file=sys.stderr)
    return failed


def main(argv: list[str] | None = None, jobs: list[Job] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse(argv)
    chosen = select(args, JOBS if jobs is None else jobs)
    if args.list:
        show(chosen, args.results)
        return 0
    if args.tables:
        rewrite_tables(args, args.results.resolve())
        return 0
    if not chosen:
        sys.exit("error: no job selected")
    results = args.results.resolve()
    results.mkdir(parents=True, exist_ok=True)
    logs = args.logs or Path(tempfile.mkdtemp(prefix="reproduce-logs-"))
    logs.mkdir(parents=True, exist_ok=True)
    print(f"reproduce: {len(chosen)} jobs (about {_duration(sum(j.seconds for j in chosen))} "
          f"on an idle 2-core machine) into {_rel(results)}; logs in {logs}", flush=True)
    failed = run_all(chosen, results, logs, argv)
    rewrite_tables(args, results)
    for name, why in failed:
        print(f"error: {name} failed: {why}", file=sys.stderr)
    return 1 if failed else 0


def rewrite_tables(args, results: Path) -> None:
    """The results page and the README's headline, from ``results`` (the committed folder's
    pages by default; another folder's only when ``--page`` / ``--readme`` name them)."""
    if args.no_readme:
        return
    ours = results == RESULTS.resolve()
    page = args.page or (RESULTS_PAGE if ours else None)
    if page is not None:
        write_results_page(page, results)
        print(f"reproduce: rewrote {_rel(page)}", flush=True)
    readme = args.readme or (README if ours else None)
    if readme is not None:
        rewrite_readme(readme, results)
        print(f"reproduce: rewrote the headline table of {_rel(readme)} (between its markers)",
              flush=True)


def _rel(path: Path) -> str:
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _last_line(log: Path) -> str:
    lines = [line.strip() for line in log.read_text(errors="replace").splitlines()
             if line.strip()]
    return lines[-1][:300] if lines else "no output"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


if __name__ == "__main__":
    sys.exit(main())
