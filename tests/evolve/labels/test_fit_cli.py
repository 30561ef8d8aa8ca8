"""python -m evolve.fit: a network fitted to a dataset of positions from random play, labelled
by a known network, recovers it, saves a champion that loads and plays, repeats itself bit for
bit, and refuses bad input in one line (exit 2)."""

import json

import numpy as np
import pytest

from engine.core.champions.files import load_champion
from engine.core.records import SearchSettings
from engine.core.registry import get_game
from engine.kernels.ntuple import fit
from engine.reversi.genome.layout import MIN_DISCS, phase_of_discs_table
from engine.reversi.genome.network import index_tables
from engine.reversi.rules.state import Position
from evolve import fit as fit_cli
from evolve.labels.dataset import write_batch, write_manifest

GENOME = {"kind": "ntuple", "layout": "hv2+diag4", "phases": 2, "features": []}
SETTINGS = json.dumps({"genome": GENOME})


def random_positions(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions of random games, side-to-move view (0 empty, 1 own, 2 opponent)."""
    rng = np.random.default_rng(seed)
    cells, plies = [], []
    while len(cells) < n:
        position, ply = Position.start(), 0
        while not position.is_game_over() and len(cells) < n:
            own = [(position.player >> s) & 1 for s in range(64)]
            opp = [(position.opponent >> s) & 1 for s in range(64)]
            cells.append(np.array(own) + 2 * np.array(opp))
            plies.append(bin(position.player | position.opponent).count("1") - MIN_DISCS)
            moves = position.legal_moves()
            position = position.play(moves[rng.integers(len(moves))])
            ply += 1
    return np.array(cells, dtype=np.uint8), np.array(plies, dtype=np.int16)


def truth_values(game, cells, ply, truth) -> np.ndarray:
    layout = game.network.layout
    phase = phase_of_discs_table(game.phase_bounds)[ply.astype(np.int64) + MIN_DISCS]
    idx = fit.position_indices(cells, phase, index_tables(layout), layout.n_weights,
                               game.network.phases)
    return fit.predict(idx, truth.ravel())


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """600 positions in two batches, labelled by a known network plus a little noise."""
    folder = tmp_path_factory.mktemp("data")
    game = get_game("othello", {"genome": GENOME})
    cells, ply = random_positions(600, 1)
    truth = np.random.default_rng(2).normal(0, 3, (2, game.network.layout.n_weights))
    target = truth_values(game, cells, ply, truth)
    target += np.random.default_rng(3).normal(0, 0.01, len(target))
    entries = []
    for k, part in enumerate((slice(0, 350), slice(350, 600))):
        entries.append(write_batch(folder, k, {
            "cells": cells[part], "ply": ply[part], "target": target[part],
            "source": np.ones(part.stop - part.start), "depth": np.full(
                part.stop - part.start, 4)}))
    write_manifest(folder, {"game": "othello", "batches": entries})
    return folder, target


def test_fits_saves_a_champion_that_loads_and_plays(dataset, tmp_path, capsys):
    folder, target = dataset
    out = tmp_path / "fitted.json"
    assert fit_cli.main([str(folder), "--game", "othello", "--settings", SETTINGS, "--out",
                         str(out), "--l2", "0.01", "--iterations", "200"]) == 0
    printed = capsys.readouterr().out
    assert "held-out RMSE" in printed and "all" in printed
    report = json.loads(out.with_name("fitted.report.json").read_text())
    assert report["positions"] == 600 and len(report["phases"]) == 2
    assert report["overall"]["train_rmse"] < 0.1  # the known network, up to its noise
    assert report["overall"]["held_out_rmse"] < report["overall"]["held_out_rmse_of_zero"]
    champion = load_champion(out)
    assert champion.game == "othello"
    assert champion.metadata["fit"]["positions"] == 600
    assert len(champion.metadata["fit"]["dataset_sha256"]) == 64
    game = get_game("othello").with_settings(champion.settings)
    agent = game.champion_agent(champion, SearchSettings(depth=1, endgame_empties=0))
    outcome = game.play(agent, agent)
    position = Position.start()
    for move in outcome.moves:  # every move legal (play raises otherwise), to the end
        position = position.play(move)
    assert position.is_game_over()


def test_the_same_bits_twice_and_npz_loads_the_same(dataset, tmp_path):
    folder, _ = dataset
    genomes = []
    for out in (tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.npz"):
        assert fit_cli.main([str(folder), "--settings", SETTINGS, "--out", str(out),
                             "--seed", "5", "--iterations", "30", "--limit", "500"]) == 0
        genomes.append(load_champion(out).genome)
    assert genomes[0].tobytes() == genomes[1].tobytes() == genomes[2].tobytes()
    assert genomes[0].any()


def test_a_stronger_penalty_shrinks_the_weights(dataset, tmp_path):
    folder, _ = dataset
    norms = []
    for l2 in ("0.1", "100"):
        out = tmp_path / f"l2_{l2}.json"
        assert fit_cli.main([str(folder), "--settings", SETTINGS, "--out", str(out),
                             "--l2", l2, "--iterations", "50"]) == 0
        norms.append(np.linalg.norm(load_champion(out).genome))
    assert norms[0] > norms[1] > 0


@pytest.mark.parametrize("change, message", [
    ({"dataset": "missing"}, "dataset.json: no such file"),
    ({"--settings": "{"}, "--settings is not JSON"),
    ({"--settings": '{"genome": {"phases": 2}}'}, "n-tuple genome"),
    ({"--settings": '{"genome": {"kind": "ntuple", "layout": "diag9"}}'}, "diag9"),
    ({"--game": "chess"}, "--game 'chess'"),
    ({"--game": "reversed_reversi"}, "a dataset of othello"),
    ({"--out": "x.txt"}, ".json or .npz"),
    ({"--holdout": "1.5"}, "holdout"),
    ({"--limit": "0"}, "--limit"),
    ({"--exact-only": None}, "no exact label"),
])
def test_bad_input_is_one_line_and_exit_2(dataset, tmp_path, capsys, change, message):
    folder, _ = dataset
    args = {"dataset": str(folder), "--settings": SETTINGS, "--out": str(tmp_path / "x.json")}
    args.update(change)
    argv = [args.pop("dataset")]
    for key, value in args.items():
        argv += [key] if value is None else [key, value if key != "--out" or "/" in value
                                             else str(tmp_path / value)]
    assert fit_cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error:") and message in err


def test_reversed_reversi_fits_its_own_dataset(tmp_path):
    folder = tmp_path / "reversed"
    folder.mkdir()
    cells, ply = random_positions(200, 4)
    target = (cells == 2).sum(axis=1) - (cells == 1).sum(axis=1)  # fewer discs is better
    entry = write_batch(folder, 0, {"cells": cells, "ply": ply, "target": target,
                                    "source": np.zeros(200), "depth": np.zeros(200)})
    write_manifest(folder, {"game": "reversed_reversi", "batches": [entry]})
    out = tmp_path / "reversed.npz"
    assert fit_cli.main([str(folder), "--settings", SETTINGS, "--out", str(out),
                         "--exact-only"]) == 0
    champion = load_champion(out)
    assert champion.game == "reversed_reversi"
    assert champion.metadata["report"]["options"]["exact_only"] is True
