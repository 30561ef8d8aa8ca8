"""Every committed run says which command reproduces it with today's code
(``PROVENANCE.md``, ``experiments/provenance.py``), and that command composes exactly the
config the run recorded."""

import shutil

import pytest

from experiments.provenance import RUNS, check, compare, recorded, today_command

# with tests/evolve/ga/test_committed_hashes.py, which composes the same commands (cached)
pytestmark = pytest.mark.xdist_group("committed-run-configs")

# what the old default studies did before hall of fame, playoff, the deeper panel, the PVS
# solver and the diversity settings existed (tests/data/expected_runs were made the same way)
LEGACY_REVERSED_REVERSI = {
    "yardstick.hall_of_fame_every=0", "playoff.enabled=false", "game.endgame_solver=negamax",
    "yardstick.panel=[course,wpc_negated,greedy,random]", "ga.elite_copies=0",
    "ga.sigma_min=0.01", "ga.mutation_prob=0.1"}


def test_every_committed_run_has_a_provenance_whose_command_composes_its_config():
    assert check() == []


def test_an_old_default_run_is_pinned_back_to_what_it_did():
    run = RUNS / "legacy" / "reversed_reversi"
    overrides, _ = recorded(run)
    assert overrides == ["+experiment=reversed_reversi", "backend=ray"]
    assert set(today_command(run)) - set(overrides) == LEGACY_REVERSED_REVERSI


def test_a_run_made_with_todays_defaults_needs_no_pin():
    for study in ("reversed_reversi", "othello", "othello_league"):
        overrides, _ = recorded(RUNS / study)
        assert today_command(RUNS / study) == overrides == [f"+experiment={study}"]


def test_a_run_whose_experiment_file_changed_gets_the_old_values_back():
    """The 1-ply study of population 20 was made when that was the experiment's default."""
    assert today_command(RUNS / "reversed_reversi_1ply")[-1] == "ga.population=20"


def test_a_replay_that_differs_is_named_by_its_generation_and_column(tmp_path):
    run = RUNS / "reversed_reversi_1ply"
    shutil.copy(run / "generations.csv", tmp_path / "generations.csv")
    assert compare(run, tmp_path, 3) is None
    lines = (tmp_path / "generations.csv").read_text().splitlines()
    cells = lines[2].split(",")
    cells[6] = "0.5"  # generation 1's diversity
    lines[2] = ",".join(cells)
    (tmp_path / "generations.csv").write_text("\n".join(lines) + "\n")
    assert compare(run, tmp_path, 3).startswith("generation 1 diversity: committed ")
