"""Players' short names: a run's champion by experiment and generation, other files by name,
distinct names for distinct players, and the legend line with the path."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from evolve.arena.labels import describe, file_label, player_labels

reversi = pytest.importorskip("engine.reversi.files")


def champion(path: Path, generation: int | None = None) -> Path:
    """A Reversed Reversi champion file, with a run's provenance when ``generation`` is given."""
    weights = reversi.reference_weights("course")
    if generation is not None:
        provenance = {"generation": generation, "seed": 0}
        weights = dataclasses.replace(weights, metadata={**weights.metadata,
                                                         "provenance": provenance})
    path.parent.mkdir(parents=True, exist_ok=True)
    reversi.save_json(weights, path)
    return path


def run_dir(root: Path, name: str, overrides: list[str] | None, generation: int) -> Path:
    """A run directory like ``python -m evolve`` leaves: champion, champions/, .hydra/."""
    run = root / name
    champion(run / "champion.json", generation)
    champion(run / "champions" / f"gen_{generation:04d}.json", generation)
    if overrides is not None:
        (run / ".hydra").mkdir()
        (run / ".hydra" / "overrides.yaml").write_text("".join(f"- {o}\n" for o in overrides))
    return run


def test_a_runs_champion_is_named_by_experiment_and_generation(tmp_path):
    run = run_dir(tmp_path / "outputs" / "2026-11-26", "06-32-25",
                  ["+experiment=reversed_reversi", "seed=3"], generation=28)
    assert file_label(run / "champion.json") == "reversed_reversi gen 28"
    assert file_label(run / "champions" / "gen_0028.json") == "reversed_reversi gen 28"


def test_a_run_without_an_experiment_is_named_by_its_game(tmp_path):
    run = run_dir(tmp_path, "06-32-25", [], generation=0)  # plain `python -m evolve`
    assert file_label(run / "champion.json") == "reversed_reversi gen 0"


def test_a_file_outside_a_run_is_named_by_its_file_name(tmp_path):
    assert file_label(champion(tmp_path / "results" / "best.json", 9)) == "best.json"
    assert file_label(champion(tmp_path / "run" / "champion.json")) == "run"  # no provenance


def test_agent_specs_and_wrapped_files(tmp_path):
    run = run_dir(tmp_path, "a", ["+experiment=othello"], generation=3)
    file = str(run / "champion.json")
    labels = player_labels(["course", f"eps0.1:{file}", file])
    assert labels == {"course": "course", f"eps0.1:{file}": "eps0.1:othello gen 3",
                      file: "othello gen 3"}


def test_players_that_would_share_a_name_get_their_run_folder(tmp_path):
    a = run_dir(tmp_path, "06-32-25", ["+experiment=reversed_reversi"], generation=29)
    b = run_dir(tmp_path, "07-10-00", ["+experiment=reversed_reversi", "seed=1"], generation=29)
    specs = [str(a / "champion.json"), str(b / "champion.json"), "random"]
    labels = player_labels(specs)
    assert labels[specs[0]] == "reversed_reversi gen 29 [06-32-25]"
    assert labels[specs[1]] == "reversed_reversi gen 29 [07-10-00]"
    assert len(set(labels.values())) == 3


def test_the_legend_gives_the_path_generation_and_overrides(tmp_path):
    run = run_dir(tmp_path, "r", ["+experiment=reversed_reversi", "seed=3"], generation=28)
    file = str(run / "champion.json")
    assert describe(file, "reversed_reversi gen 28") == (
        f"reversed_reversi gen 28 = {file} (generation 28, run with "
        "+experiment=reversed_reversi seed=3)")
    assert describe("random", "random") is None
