"""End to end: the smoke experiment composed through Hydra produces every output, and the
outputs agree with each other."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hydra import compose, initialize_config_dir

from engine.reversi.weights import GenomeLayout, load_weights
from evolve import checkpoint, run
from evolve.execution import SerialBackend
from evolve.outputs import GAME_COLUMNS, GENERATION_COLUMNS, INDIVIDUAL_COLUMNS

CONF = str(Path(__file__).resolve().parent.parent / "conf")


def smoke_config(*overrides):
    with initialize_config_dir(config_dir=CONF, version_base="1.3"):
        return compose("config", overrides=["+experiment=smoke", *overrides])


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("smoke")
    return run(smoke_config("ga.generations=3"), run_dir=run_dir)


def test_smoke_run_writes_every_output(smoke_run):
    d = smoke_run.run_dir
    for name in ("generations.csv", "individuals.csv", "games.csv", "champion.json",
                 "fitness.png", "checkpoint/checkpoint.json"):
        assert (d / name).is_file(), name
    names = sorted(p.name for p in (d / "champions").iterdir())
    assert names == [f"gen_000{g}.json" for g in range(3)]


def test_csv_columns_follow_the_contract(smoke_run):
    d = smoke_run.run_dir
    gens = pd.read_csv(d / "generations.csv")
    panel = ["course", "wpc_negated", "greedy", "random"]
    assert list(gens.columns) == GENERATION_COLUMNS + [f"yardstick_{p}" for p in panel]
    assert list(gens["generation"]) == [0, 1, 2]
    ind = pd.read_csv(d / "individuals.csv")
    assert list(ind.columns) == INDIVIDUAL_COLUMNS + GenomeLayout(2, True).names
    assert list(pd.read_csv(d / "games.csv").columns) == GAME_COLUMNS


def test_fitness_table_agrees_with_the_games(smoke_run):
    d = smoke_run.run_dir
    ind, games = pd.read_csv(d / "individuals.csv"), pd.read_csv(d / "games.csv")
    for (g, ident), row in ind.set_index(["generation", "id"]).iterrows():
        mine = (games.black_id == ident) | (games.white_id == ident)
        played = games[(games.generation == g) & mine]
        colour = np.where(played.black_id == ident, "black", "white")
        won = (played.winner == colour).sum()
        drawn = (played.winner == "draw").sum()
        lost = len(played) - won - drawn
        assert (row.wins, row.draws, row.losses) == (won, drawn, lost)
        assert row.fitness == 5 * won - 5 * lost
    gens = pd.read_csv(d / "generations.csv")
    by_gen = ind.groupby("generation").fitness
    assert np.allclose(gens.best_fitness, by_gen.max())
    assert np.allclose(gens.mean_fitness, by_gen.mean())
    assert np.all(gens.games == games.groupby("generation").size() + 4 * 2)  # + yardstick games


def test_every_pair_plays_both_colours_each_generation(smoke_run):
    games = pd.read_csv(smoke_run.run_dir / "games.csv")
    for _, gen in games.groupby("generation"):
        assert len(gen) == 4 * 3 // 2 * 2
        pairs = {(b, w) for b, w in zip(gen.black_id, gen.white_id, strict=True)}
        assert all((w, b) in pairs for b, w in pairs)
        assert gen.opening.nunique() == 1  # same opening for every pair within a generation


def test_elites_carry_over_unchanged(smoke_run):
    ind = pd.read_csv(smoke_run.run_dir / "individuals.csv")
    genes = GenomeLayout(2, True).names
    for g in (1, 2):
        elite = ind[(ind.generation == g) & (ind.operator == "elite")]
        assert len(elite) == 1
        prev = ind[(ind.generation == g - 1) & (ind.id == elite.id.iloc[0])]
        assert prev.fitness.iloc[0] == ind[ind.generation == g - 1].fitness.max()
        assert np.array_equal(prev[genes].to_numpy(), elite[genes].to_numpy())


def test_champion_file_is_a_weights_file_with_provenance(smoke_run):
    d = smoke_run.run_dir
    champion = load_weights(d / "champion.json")
    meta = champion.metadata
    assert meta["variant"] == "reversed"
    assert meta["search"] == {"depth": 1, "endgame_empties": 4}
    prov = meta["provenance"]
    assert prov["generation"] == 2 and prov["seed"] == 0 and len(prov["config_hash"]) == 16
    ind = pd.read_csv(d / "individuals.csv")
    last = ind[ind.generation == 2]
    best = last.loc[last.fitness.idxmax()]
    assert prov["fitness"] == best.fitness and prov["individual_id"] == best.id
    genes = GenomeLayout(2, True).names
    assert np.allclose(champion.to_genome(), best[genes].to_numpy(dtype=float))
    last = json.loads((d / "champions/gen_0002.json").read_text())
    assert last == json.loads((d / "champion.json").read_text())
    assert np.array_equal(smoke_run.champion.to_genome(), champion.to_genome())


def test_yardstick_scores_are_fractions_from_the_yardstick_games(smoke_run):
    d = smoke_run.run_dir
    gens, yard = pd.read_csv(d / "generations.csv"), pd.read_csv(d / "yardstick_games.csv")
    for _, row in gens.iterrows():
        games = yard[yard.generation == row.generation]
        for p, spec in enumerate(["course", "wpc_negated", "greedy", "random"]):
            mine = games[games.pairing == p]
            champ_colour = np.where(mine.black_id == spec, "white", "black")
            score = ((mine.winner == champ_colour) + 0.5 * (mine.winner == "draw")).mean()
            assert row[f"yardstick_{spec}"] == pytest.approx(score)


@pytest.mark.parametrize("overrides, bounds", [
    (["ga.phases=3", "ga.phase_bounds=[20,40]"], (20, 40)),
    (["ga.phases=60"], tuple(range(5, 64))),  # one phase per move
])
def test_phase_bounds_reach_the_champion_and_the_genome(tmp_path, overrides, bounds):
    result = run(smoke_config("ga.generations=1", "yardstick.enabled=false", "plot=false",
                              *overrides), run_dir=tmp_path)
    champion = load_weights(tmp_path / "champion.json")
    assert champion.phase_bounds == bounds == result.champion.phase_bounds
    ind = pd.read_csv(tmp_path / "individuals.csv")
    genes = GenomeLayout(len(bounds) + 1, True).names
    assert set(genes) <= set(ind.columns)


def test_a_population_of_two_runs_with_the_default_tournament_size(tmp_path):
    run(smoke_config("ga.population=2", "ga.elites=1", "ga.tournament_size=3", "plot=false"),
        run_dir=tmp_path)
    ind = pd.read_csv(tmp_path / "individuals.csv")
    assert ind.groupby("generation").size().tolist() == [2, 2]
    games = pd.read_csv(tmp_path / "games.csv")
    assert games.groupby("generation").size().tolist() == [2, 2]  # one pair, both colours


class RecordingBackend(SerialBackend):
    """Records every submit and collect: the games in each batch and which generation was
    checkpointed at that moment."""

    def __init__(self, run_dir: Path):
        self.run_dir, self.calls = run_dir, []

    def record(self, what: str, batches) -> None:
        state = self.run_dir / "checkpoint" / "checkpoint.json"
        done = json.loads(state.read_text())["generation"] if state.exists() else None
        self.calls.append((what, [len(tasks) for _, tasks in batches], done))

    def submit(self, batches):
        self.record("submit", batches)
        return super().submit(batches)

    def collect(self, job):
        self.record("collect", job)
        return super().collect(job)


def test_a_generations_yardstick_goes_out_with_the_next_round_robin_before_its_outputs(tmp_path):
    backend = RecordingBackend(tmp_path)
    run(smoke_config("ga.generations=3", "plot=false"), run_dir=tmp_path, backend=backend)
    rr, yard = 4 * 3 // 2 * 2, 4 * 2  # 6 pairs x 2 colours; 4 panel opponents x 2 colours
    # generation g is checkpointed after its yardstick is back, while the next batch is out
    assert backend.calls == [
        ("submit", [rr], None), ("collect", [rr], None),
        ("submit", [yard, rr], None), ("collect", [yard, rr], None),
        ("submit", [yard, rr], None), ("collect", [yard, rr], 0),
        ("submit", [yard], 0), ("collect", [yard], 1)]
    assert checkpoint.load(tmp_path).generation == 2


def test_without_a_panel_a_generations_outputs_are_written_while_the_next_one_plays(tmp_path):
    backend = RecordingBackend(tmp_path)
    run(smoke_config("ga.generations=3", "plot=false", "yardstick.enabled=false"),
        run_dir=tmp_path, backend=backend)
    assert backend.calls == [
        ("submit", [12], None), ("collect", [12], None),
        ("submit", [12], None), ("collect", [12], 0),
        ("submit", [12], 0), ("collect", [12], 1)]
    assert checkpoint.load(tmp_path).generation == 2
