"""A study's config is resolved once: one ``resolve`` validates it and builds its game, genome
spec, bounds and panel, and a whole study builds no other game from its config, from Python or
from the command line (``python -m evolve``, fresh and resumed). A champion file or run directory
in the panel or among the fitness opponents is read once, when the config is resolved, and its
``Champion`` travels in the game tasks; the outputs name it by the text the config gives."""

import inspect
import pickle
import runpy
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine.core import registry
from engine.core.champions import files
from engine.core.game import Champion
from evolve.execution.games import GameTask, play_tasks
from evolve.ga.configuration.config import ResolvedConfig, resolve
from evolve.ga.context import StudyContext
from evolve.ga.loop import run
from tests.evolve.ga.test_determinism import config

ROOT = Path(__file__).resolve().parents[3]
GA_DIR = ROOT / "evolve" / "ga"


def test_resolve_returns_the_config_with_its_game_spec_bounds_and_panel():
    r = resolve(config("ga.bound_scale=2.0"))
    assert isinstance(r, ResolvedConfig)
    assert r.game.name == r.config.game.name
    assert r.spec.names == r.game.genome_spec().names
    low, high = r.spec.default_bounds()
    np.testing.assert_array_equal(r.bounds[0], 2.0 * np.asarray(low, dtype=np.float64))
    np.testing.assert_array_equal(r.bounds[1], 2.0 * np.asarray(high, dtype=np.float64))
    assert r.panel == r.panel_labels == tuple(r.config.yardstick.panel or r.game.default_panel)
    assert resolve(config("yardstick.enabled=false")).panel == ()


@pytest.fixture
def count_builds(monkeypatch):
    """The files of every ``get_game`` call made from the study's own code (``evolve/ga``);
    the workers' game cache (``evolve.execution``) is not the config's."""
    real, callers = registry.get_game, []

    def counting(*args, **kwargs):
        callers.append(Path(inspect.stack()[1].filename).resolve())
        return real(*args, **kwargs)

    monkeypatch.setattr(registry, "get_game", counting)
    return lambda: [f for f in callers if f.is_relative_to(GA_DIR)]


def test_a_smoke_study_builds_its_game_from_the_config_once(tmp_path, count_builds):
    run(config("backend=serial"), run_dir=tmp_path)
    assert len(count_builds()) == 1, count_builds()


def evolve(cwd: Path, monkeypatch, *args: str) -> int:
    """``python -m evolve *args`` in this process (as tests/test_cli.py runs it)."""
    with monkeypatch.context() as patch:
        patch.chdir(cwd)
        patch.setattr(sys, "argv", ["evolve", *args])
        try:
            runpy.run_path(str(ROOT / "evolve" / "__main__.py"), run_name="__main__")
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    return 0


def test_the_command_line_builds_a_studys_game_once_fresh_and_resumed(tmp_path, monkeypatch,
                                                                      capsys, count_builds):
    """The preflight (its first line printed) resolves the config, the run takes it on."""
    run_dir = tmp_path / "run"
    assert evolve(tmp_path, monkeypatch, "+experiment=smoke", "plot=false", "progress=false",
                  f"hydra.run.dir={run_dir}") == 0
    assert capsys.readouterr().out.startswith("evolve: ")
    assert (run_dir / "champion.json").is_file()
    assert len(count_builds()) == 1, count_builds()
    assert evolve(tmp_path, monkeypatch, f"resume={run_dir}", "ga.generations=3",
                  f"hydra.run.dir={tmp_path / 'log'}") == 0
    assert capsys.readouterr().out.startswith(f"evolve: resuming {run_dir}")
    assert pd.read_csv(run_dir / "individuals.csv").generation.unique().tolist() == [0, 1, 2]
    assert len(count_builds()) == 2, count_builds()


@pytest.fixture
def champion_file(tmp_path):
    """A champion file of the smoke study's game and a run directory holding another."""
    game = resolve(config()).game
    path = tmp_path / "ref.json"
    game.save_champion(path, game.reference_genome(game.seed_references[0]), "ref")
    other = tmp_path / "earlier"
    other.mkdir()
    genome = np.asarray(game.reference_genome(game.seed_references[-1]), np.float64)
    game.save_champion(other / "champion.json", 0.5 * genome, "earlier")
    return path, other


@pytest.fixture
def reads(monkeypatch):
    """The resolved paths of every champion file read
    (``engine.core.champions.files.read_document``)."""
    real, paths = files.read_document, []

    def counting(path):
        paths.append(Path(path).resolve())
        return real(path)

    monkeypatch.setattr(files, "read_document", counting)
    return paths


def test_champion_files_in_the_panel_and_opponents_resolve_once_to_champions(champion_file,
                                                                            reads):
    path, run_dir = champion_file
    r = resolve(config(f"yardstick.panel=[{path},wpc_negated]", "fitness.references=1",
                       f"fitness.opponents=[{run_dir},greedy]"))
    assert [type(p) for p in r.panel] == [Champion, str]
    assert [type(p) for p in r.opponents] == [Champion, str]
    assert r.panel_labels == (str(path), "wpc_negated")
    assert r.opponent_labels == (str(run_dir), "greedy")
    assert r.label(r.panel[0]) == str(path) and r.label(r.opponents[0]) == str(run_dir)
    assert r.label("greedy") == "greedy" and r.label(3) == 3
    assert sorted(reads) == sorted([path.resolve(), (run_dir / "champion.json").resolve()])


def test_a_champion_plays_exactly_as_its_file_named_as_a_spec(champion_file):
    """The agent of a ``Champion`` (read once) is the one the file's path made: same games,
    also after the trip to a Ray worker (pickled)."""
    path, _ = champion_file
    r = resolve(config(f"yardstick.panel=[{path}]"))
    ctx = StudyContext(r, path.parent)
    openings = ctx.openings("games.openings", 0, 2)
    genome = r.game.reference_genome(r.game.seed_references[-1])

    def games(player):
        tasks = [GameTask(k, 0, k, *((player, 0) if k % 2 else (0, player)), tuple(o),
                          (0, 0, 0, k)) for k, o in enumerate(openings * 2)]
        return play_tasks(ctx.players(np.asarray(genome, np.float64)[None, :]), tasks)

    assert games(r.panel[0]) == games(str(path))
    assert games(pickle.loads(pickle.dumps(r.panel[0]))) == games(str(path))


def test_a_study_reads_its_panels_champion_files_once_and_names_them_as_written(
        tmp_path, champion_file, reads):
    path, run_dir = champion_file
    out = tmp_path / "out"
    run(config("backend=serial", f"yardstick.panel=[{path},wpc_negated]",
               "fitness.references=1", f"fitness.opponents=[{run_dir}]"), run_dir=out)
    assert reads.count(path.resolve()) == 1
    assert reads.count((run_dir / "champion.json").resolve()) == 1
    generations = pd.read_csv(out / "generations.csv")
    assert f"yardstick_{path}" in generations.columns and "yardstick_wpc_negated" in \
        generations.columns
    yardstick = pd.read_csv(out / "yardstick_games.csv", dtype=str)
    assert str(path) in set(yardstick.iloc[:, 3]) | set(yardstick.iloc[:, 4])
    fitness_games = pd.read_csv(out / "games.csv", dtype=str)
    assert str(run_dir) in set(fitness_games.iloc[:, 3]) | set(fitness_games.iloc[:, 4])
