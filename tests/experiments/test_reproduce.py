"""``python -m experiments.reproduce``: the quickest job run for real (seconds) must write the
same figures as the committed result; a failing job is named in one line and the others keep
their results; every result file comes from a job (or says why not)."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from experiments import reproduce
from experiments.catalogue import JOBS, KEPT, NOT_JOBS, Job, by_name
from experiments.results_page import BEGIN, END
from experiments.stamp import ROOT, STAMP_MARK

RESULTS = ROOT / "experiments" / "results"


def body(path: Path) -> list[str]:
    """A result's lines after its stamp (the title, then the stamp's list, then the body)."""
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(STAMP_MARK))
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("- "))
    return [lines[0], *lines[end:]]


def test_the_quickest_job_reproduces_the_committed_figures_and_the_tables(tmp_path):
    readme, page = tmp_path / "README.md", tmp_path / "RESULTS.md"
    readme.write_text((ROOT / "README.md").read_text())
    done = subprocess.run([sys.executable, "-m", "experiments.reproduce", "--only", "elo_anchors",
                           "--results", str(tmp_path / "results"), "--readme", str(readme),
                           "--page", str(page), "--logs", str(tmp_path / "logs")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    made = tmp_path / "results" / "elo_anchors.md"
    stamp = made.read_text().splitlines()[2:8]
    assert stamp[0].startswith("- command: `python -m experiments.learning.elo_anchors ")
    assert stamp[1] == "- run by: `python -m experiments.reproduce --only elo_anchors " \
        f"--results {tmp_path / 'results'} --readme {readme} --page {page} " \
        f"--logs {tmp_path / 'logs'}`"
    assert [s.split(":")[0] for s in stamp[2:]] == [
        "- commit", "- machine", "- load average (1/5/15 min)", "- date"]
    assert body(made) == body(RESULTS / "elo_anchors.md")  # the same games, the same figures
    old, new = (ROOT / "README.md").read_text(), readme.read_text()
    assert old.split(BEGIN)[0] == new.split(BEGIN)[0] and old.split(END)[1] == new.split(END)[1]
    table = new.split(BEGIN)[1].split(END)[0]
    assert "| Reversi exact endgame solver, FFO #20-#39 (one thread) | to be measured: " \
        "`python -m experiments.reproduce --only bench_solve` |" in table  # not made here
    assert "| exact solve of FFO #20-#39, one thread | to be measured: `python -m " \
        "experiments.reproduce --only bench_solve` |" in page.read_text()


def fake(name: str, code: str, outputs: str = "") -> Job:
    return Job(name, ("python", "-c", code), tuple(outputs.split()), 1, "exact", name)


def writes(folder: Path) -> str:
    """Code that writes a stamped ``ok.md`` into ``folder``, as every script does."""
    return ("from pathlib import Path; from experiments.stamp import Stamp, write_markdown; "
            f"write_markdown(Path({str(folder)!r}) / 'ok.md', '# ok', ['fine'], "
            "Stamp.begin(['-c', 'ok']))")


def test_a_failing_job_fails_the_command_in_one_line_and_the_others_keep_results(
        tmp_path, capsys):
    jobs = [fake("breaks", "import sys; print('boom: no such file', file=sys.stderr); "
                 "sys.exit(3)"),
            fake("works", writes(tmp_path), "ok.md"),
            fake("forgets", "pass", "missing.md"),
            fake("leaves_old", "pass", "old.md")]
    (tmp_path / "old.md").write_text("# from an earlier run\n")
    os.utime(tmp_path / "old.md", (0, 0))
    status = reproduce.main(["--results", str(tmp_path), "--no-readme",
                             "--logs", str(tmp_path / "logs")], jobs=jobs)
    errors = [line for line in capsys.readouterr().err.splitlines()
              if line.startswith("error:")]
    assert status == 1 and (tmp_path / "ok.md").read_text().startswith("# ok")
    assert errors == [
        f"error: breaks failed: exit status 3: boom: no such file (log: {tmp_path}/logs/"
        "breaks.log)",
        f"error: forgets failed: did not write missing.md (log: {tmp_path}/logs/forgets.log)",
        f"error: leaves_old failed: did not write old.md (log: {tmp_path}/logs/leaves_old.log)"]


def test_an_output_without_the_stamp_fails_its_job(tmp_path, capsys):
    job = fake("plain", f"open('{tmp_path}/r.md', 'w').write('# r')", "r.md")
    assert reproduce.main(["--results", str(tmp_path), "--no-readme",
                           "--logs", str(tmp_path / "logs")], jobs=[job]) == 1
    assert "wrote r.md without the stamp" in capsys.readouterr().err


def test_list_shows_each_job_its_command_and_estimate(capsys):
    assert reproduce.main(["--list", "--quick"]) == 0
    out = capsys.readouterr().out
    quick = [j for j in JOBS if j.quick]
    for j in quick:
        assert j.name in out and "$ python " in out
    assert "strength_reversed_reversi" not in out
    assert out.splitlines()[-1].startswith(f"{len(quick)} jobs, about ")
    assert "--out experiments/results/bench_perft.md" in out


def test_a_goal_runs_after_the_job_that_writes_its_champion():
    import argparse

    chosen = reproduce.select(argparse.Namespace(quick=False, only=[
        "strength_othello_ntuple_vs_square2", "champion_othello_ntuple"]), JOBS)
    assert [j.name for j in chosen] == ["champion_othello_ntuple",
                                        "strength_othello_ntuple_vs_square2"]
    assert "champions/othello_ntuple.json" in by_name()["strength_othello_ntuple_vs_square2"].needs
    everything = reproduce.select(argparse.Namespace(quick=False, only=None), JOBS)
    assert sorted(j.name for j in everything) == sorted(j.name for j in JOBS)
    position = {j.name: k for k, j in enumerate(everything)}
    writer = {out: j.name for j in JOBS for out in j.outputs}
    for j in JOBS:
        for need in j.needs:
            if need in writer:
                assert position[writer[need]] < position[j.name], (j.name, need)


def test_help_gives_the_whole_first_paragraph_and_the_examples(capsys):
    with pytest.raises(SystemExit):
        reproduce.main(["--help"])
    out = capsys.readouterr().out
    assert "README's headline table (between <!-- results:begin --> and" in " ".join(out.split())
    assert "``" not in out
    assert "python -m experiments.reproduce --quick" in out


def test_only_takes_names_and_patterns_and_refuses_an_unknown_one():
    args = reproduce.parse(["--only", "strength_*", "bench_perft"])
    names = [j.name for j in reproduce.select(args, JOBS)]
    assert names[0] == "bench_perft" and "strength_othello" in names
    assert all(n == "bench_perft" or n.startswith("strength_") for n in names)
    done = subprocess.run([sys.executable, "-m", "experiments.reproduce", "--only", "perft2"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr.strip().count("\n") == 0
    assert "--only perft2: no such job" in done.stderr


def test_every_result_file_comes_from_one_job_or_says_why_not():
    outputs = [o for j in JOBS for o in j.outputs]
    assert len(outputs) == len(set(outputs)), "two jobs write the same file"
    committed = {str(p.relative_to(RESULTS)) for p in RESULTS.rglob("*") if p.is_file()}
    in_progress = {part.removeprefix("{results}/") for j in JOBS for part in j.command
                   if part.startswith("{results}/checkpoints/")}  # a resumable job's, until done
    assert committed - set(outputs) - set(KEPT) - in_progress == set()
    assert set(KEPT) <= committed


@pytest.mark.parametrize("job", JOBS, ids=lambda j: j.name)
def test_every_job_runs_a_script_that_exists_and_writes_under_results(job):
    script = job.command[1]
    if script == "-m":
        module = job.command[2].replace(".", "/")
        assert (ROOT / f"{module}.py").is_file() or (ROOT / module).is_dir() or \
            importlib.util.find_spec(job.command[2]) is not None  # a tool: pytest
    else:
        assert (ROOT / script).is_file()
    assert job.kind in ("timing", "games", "exact") and job.seconds > 0
    assert job.capture or any("{results}" in part for part in job.command)
    assert by_name()[job.name] is job


def test_a_command_that_only_prints_gets_its_output_written_with_the_stamp(tmp_path):
    job = Job("prints", ("python", "-c", "print('| a | b |')"), ("printed.md",), 1, "timing",
              "prints", capture="What it printed")
    assert reproduce.main(["--results", str(tmp_path), "--no-readme",
                           "--logs", str(tmp_path / "logs")], jobs=[job]) == 0
    text = (tmp_path / "printed.md").read_text()
    assert text.startswith("# What it printed\n\n- command: `python -c ")
    assert text.endswith("\n| a | b |\n") and "- date: " in text


def test_every_script_of_experiments_is_a_job_and_runs_as_a_module():
    files = [p for p in (ROOT / "experiments").rglob("*.py") if "results" not in p.parts]
    modules = {".".join(p.relative_to(ROOT / "experiments").with_suffix("").parts)
               for p in files}
    scripts = {j.command[2].removeprefix("experiments.") for j in JOBS
               if j.command[1:2] == ("-m",) and j.command[2].startswith("experiments.")}
    assert modules - scripts == set(NOT_JOBS) and scripts <= modules
    assert [p for p in files if "sys.path.insert" in p.read_text()] == []


def test_the_benchmark_driver_has_a_job_per_game_of_its_plan():
    from experiments.bench.engine.contract import PLANS

    assert {j.name for j in JOBS if j.name.startswith("bench_contract_")} == {
        f"bench_contract_{game}" for game in PLANS}
