"""The game-neutral GA reproduces, bit for bit, two short Reversi studies made by the code
before the refactor (``tests/data/expected_runs``, committed before any GA code moved).

What may differ is only what was deliberately added or cannot be kept: ``wall_seconds``, the
champion's run directory, config hash (the config's shape changed) and ``selection``, the new
``generations.csv`` columns after the old ones, and the new ``plies`` / ``moves`` columns of the
game tables, which are checked against the recorded results instead (replaying the moves must
end in exactly the recorded disc counts). Settings added since then are set to what those runs
did (``LEGACY``): the old default panel, no hall of fame, no playoff.
"""

import csv
import json
from pathlib import Path

import pytest
import yaml
from hydra import compose, initialize_config_dir

from engine.core.game import parse_moves
from engine.core.matches.runner import replay
from engine.core.registry import get_game
from evolve.ga.configuration.config import moved_key_message
from evolve.ga.loop import run

ROOT = Path(__file__).resolve().parents[3]
EXPECTED = ROOT / "tests" / "data" / "expected_runs"
OLD_COLUMNS = 10  # games.csv columns before the refactor
LEGACY = ["yardstick.hall_of_fame_every=0", "playoff.enabled=false", "ga.elite_copies=0",
          "ga.immigrants=0", "game.endgame_solver=negamax"]
PANELS = {"rr": "[course,wpc_negated,greedy,random]", "oth": "[course,wpc,greedy,random]"}


def overrides(name: str) -> list[str]:
    """The recorded command line, with the genome keys at their new place."""
    moved = {f"ga.{k}": f"game.genome.{k}" for k in ("phases", "phase_bounds", "symmetric")}
    out = []
    for o in yaml.safe_load((EXPECTED / name / "overrides.yaml").read_text()):
        key, _, value = o.partition("=")
        out.append(f"{moved.get(key, key)}={value}" if key in moved else o)
    return [*out, *LEGACY, f"yardstick.panel={PANELS[name]}"]


def rows(path: Path) -> list[list[str]]:
    with open(path, newline="") as f:
        return list(csv.reader(f))


def champion_without_provenance_hashes(path: Path) -> dict:
    d = json.loads(path.read_text())
    provenance = d["metadata"]["provenance"]
    provenance.pop("run_dir")
    provenance.pop("config_hash")
    d["metadata"].pop("selection", None)
    return d


@pytest.fixture(scope="module", params=["rr", "oth"])
def reproduced(request, tmp_path_factory):
    name = request.param
    run_dir = tmp_path_factory.mktemp(f"expected_{name}")
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        cfg = compose("config", overrides=overrides(name))
    run(cfg, run_dir=run_dir)
    return EXPECTED / name, run_dir


def test_fitness_genomes_and_champion_are_bit_identical(reproduced):
    expected, got = reproduced
    assert rows(got / "individuals.csv") == rows(expected / "individuals.csv")
    old = rows(expected / "generations.csv")
    width = len(old[0])
    drop_wall = [r[:8] + r[9:width] for r in rows(got / "generations.csv")]
    assert drop_wall == [r[:8] + r[9:] for r in old]
    assert champion_without_provenance_hashes(got / "champion.json") == \
        champion_without_provenance_hashes(expected / "champion.json")


@pytest.mark.parametrize("table", ["games.csv", "yardstick_games.csv"])
def test_every_game_is_the_same_and_its_recorded_moves_replay_to_its_result(reproduced, table):
    expected, got = reproduced
    new = rows(got / table)
    assert [r[:OLD_COLUMNS] for r in new] == rows(expected / table)
    header = new[0]
    assert header[OLD_COLUMNS:] == ["plies", "moves"]
    game_name = "othello" if expected.name == "oth" else "reversed_reversi"
    game = get_game(game_name)
    for row in new[1:40]:
        record = dict(zip(header, row, strict=True))
        moves = parse_moves(game, record["moves"])
        assert len(moves) == int(record["plies"])
        assert " ".join(game.move_text(m) for m in moves).startswith(record["opening"])
        outcome = game.outcome(replay(game, moves), moves)
        assert game.is_terminal(replay(game, moves))
        assert outcome.details == {"black_discs": int(record["black_discs"]),
                                   "white_discs": int(record["white_discs"]),
                                   "black_score": int(record["black_score"])}


def test_the_old_genome_keys_are_refused_with_their_new_place():
    assert moved_key_message("ga.phases").startswith("ga.phases moved to game.genome.phases")
