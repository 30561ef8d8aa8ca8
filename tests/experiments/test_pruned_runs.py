"""The committed runs keep what is read from them (``experiments/runs/README.md``): what the
catalogue's jobs read, a replayable run for every game the browser lists, and every run that
lost files still a run, its pruned tables compared through ``experiments/runs/pruned.csv``."""

import csv
import shutil
from collections import defaultdict

import pytest

from engine.web.run_files import is_run
from engine.web.runs import RunCatalogue
from experiments.catalogue import ELO_ANCHOR_RUNS, JOBS
from experiments.provenance import FILE, RUNS
from experiments.stamp import ROOT
from experiments.strength.goals import GOALS
from tests.evolve.ga import test_committed_runs as committed


def pruned() -> dict[str, dict[str, tuple[int, str]]]:
    tables: dict[str, dict[str, tuple[int, str]]] = defaultdict(dict)
    with open(committed.PRUNED, newline="") as f:
        for r in csv.DictReader(f):
            tables[r["path"]][r["part"]] = (int(r["rows"]), r["sha256"])
    return tables


def named_runs_files() -> set[str]:
    """Every ``experiments/runs/...`` path a job's command or a strength goal names."""
    words = [w for j in JOBS for part in j.command for w in part.replace("=", " ").split()]
    words += [p for g in GOALS for p in (g.champion, *g.opponents)]
    return {w for w in words if w.startswith("experiments/runs/")}


def test_what_the_catalogue_reads_from_the_committed_runs_is_kept():
    assert named_runs_files(), "no job names a committed run: the check would check nothing"
    for path in named_runs_files():
        assert (ROOT / path).exists(), path
    for run in ELO_ANCHOR_RUNS.split():  # elo_anchors reads their yardstick games
        assert (ROOT / run / "yardstick_games.csv").is_file(), run
    progress = [j for j in JOBS if "experiments.learning.progress" in j.command]
    assert progress
    for job in progress:  # learning.progress reads the champions of these generations
        run, after = job.command[3], job.command[job.command.index("--generations") + 1:]
        generations = [int(w) for w in after[:next((i for i, w in enumerate(after)
                                                     if w.startswith("--")), len(after))]]
        for g in generations:
            assert (ROOT / run / "champions" / f"gen_{g:04d}.json").is_file(), (run, g)


def test_a_run_that_lost_files_is_still_a_run_and_its_tables_have_digests():
    tables = pruned()
    assert tables
    for path, parts in tables.items():
        run = (RUNS / path).parent
        assert not (RUNS / path).exists(), f"{path} is committed: drop it from pruned.csv"
        assert is_run(run) and (run / FILE).is_file() and (run / ".hydra" / "config.yaml") \
            .is_file(), f"{run} is no longer a run for the browser and experiments.provenance"
        generations = [p for p in parts if p not in ("file", "header")]
        assert generations == [str(g) for g in range(len(generations))], path
        assert sum(parts[g][0] for g in generations) == parts["file"][0], path


def test_every_game_opens_its_replays_on_a_run_it_can_replay():
    """The browser opens a game's replays on the first run it lists with tables."""
    first: dict[str, object] = {}
    for run in RunCatalogue([RUNS]).runs():
        if run.tables() and run.game not in first:
            first[run.game] = run
    assert {"othello", "reversed_reversi", "pentago_twist", "hexifence"} <= set(first)
    for game, run in first.items():
        assert run.replayable(), f"{game}: {run.id} has no moves to replay"


@pytest.fixture
def digests_of(tmp_path, monkeypatch):
    """``pruned.csv`` as if ``path`` (a committed table) had been pruned."""
    def made(path):
        manifest = tmp_path / "pruned.csv"
        with open(manifest, "w", newline="") as f:
            w = csv.DictWriter(f, ["path", "part", "rows", "sha256"], lineterminator="\n")
            w.writeheader()
            w.writerows(committed.manifest_rows(path))
        monkeypatch.setattr(committed, "PRUNED", manifest)
    return made


def test_a_pruned_table_is_compared_cell_by_cell(digests_of, tmp_path):
    table = RUNS / "hexifence" / "games.csv"
    digests_of(table)
    header, *body = committed.rows(table)
    got = tmp_path / "games.csv"

    def write(rows):
        with open(got, "w", newline="") as f:
            csv.writer(f, lineterminator="\n").writerows(rows)

    shutil.copy(table, got)
    committed.assert_same_digests(table, got, None)
    write([[*header, "added"], *([*r, "x"] for r in body if int(r[0]) < 2)])
    committed.assert_same_digests(table, got, 2)  # a column added later is not compared
    changed, winner = [list(r) for r in body], header.index("winner")
    changed[-1][winner] = "draw" if changed[-1][winner] != "draw" else "blue"
    write([header, *changed])
    with pytest.raises(AssertionError, match=rf"\b{body[-1][0]} differ"):
        committed.assert_same_digests(table, got, None)
    write([header, *sorted(body, key=lambda r: -int(r[0]))])
    with pytest.raises(AssertionError, match="order of the generations"):
        committed.assert_same_digests(table, got, None)
