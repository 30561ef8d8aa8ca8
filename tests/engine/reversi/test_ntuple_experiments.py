"""The network experiments compose and run: a tiny version of each study evolves the network's
weights, seeded from the references spread over the tuples, and writes a network champion the
game, the report and the CS303 export read."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hydra import compose, initialize_config_dir

from engine.core.registry import get_game
from evolve.ga.configuration.config import ConfigError, make_game, to_config

ROOT = Path(__file__).resolve().parents[3]
TINY = ["ga.population=4", "ga.generations=2", "games.openings=1", "yardstick.openings=1",
        "playoff.openings=1", "backend=serial", "plot=false"]


def composed(*overrides):
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        return compose("config", overrides=list(overrides))


@pytest.mark.parametrize("experiment, name, size", [("othello_ntuple", "othello", 816),
                                                    ("reversed_reversi_ntuple",
                                                     "reversed_reversi", 3 * 288)])
def test_the_experiments_configure_a_network_at_one_ply(experiment, name, size):
    c = to_config(composed(f"+experiment={experiment}"))
    game = make_game(c)
    assert game.name == name and game.kind == "ntuple" and game.learns_by_td()
    assert game.genome_spec().size == size and c.search.depth == 1


def test_kind_and_layout_are_command_line_keys_and_bad_values_name_them():
    c = to_config(composed("game.genome.kind=ntuple", "game.genome.layout=corner3+edge2x",
                           "game.genome.features=[]", "game.genome.phases=1"))
    assert make_game(c).genome_spec().size == 19683 + 59049
    with pytest.raises(ConfigError) as err:
        to_config(composed("game.genome.kind=ntuple", "game.genome.layout=edges9"))
    assert str(err.value).startswith("game.genome.layout=edges9: pattern: unknown family")


def test_a_tiny_study_evolves_a_network_champion(tmp_path):
    from evolve.analysis.report import write_run_report
    from evolve.analysis.rundata import load_run
    from evolve.export import export
    from evolve.ga.loop import run

    run(composed("+experiment=reversed_reversi_ntuple", *TINY), run_dir=tmp_path)
    champion = json.loads((tmp_path / "champion.json").read_text())
    assert champion["kind"] == "ntuple" and champion["schema_version"] == 2
    assert champion["settings"]["genome"]["layout"] == "straight2"
    loaded = get_game("reversed_reversi").load_champion(tmp_path / "champion.json")
    assert loaded.settings["genome"]["kind"] == "ntuple"
    individuals = pd.read_csv(tmp_path / "individuals.csv")
    genes = individuals.filter(like="p0.t0.").to_numpy()
    assert genes.shape[1] == 9 and np.any(genes != 0)
    write_run_report(load_run(tmp_path))
    assert "Tables of largest spread" in (tmp_path / "report.md").read_text()
    assert (tmp_path / "report_patterns.png").is_file()
    out = export(tmp_path, "cs303", tmp_path / "ai.py", depth=1, endgame_empties=3)
    assert "def network_value(" in out.read_text()
