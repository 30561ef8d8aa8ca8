"""End to end: the smoke experiment composed through Hydra produces every output, and the
outputs agree with each other."""

import json
import logging
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hydra import compose, initialize_config_dir

from engine.core.registry import get_game
from engine.reversi.files import load_weights
from engine.reversi.genome.weights import GenomeLayout
from evolve.execution.backends import SerialBackend
from evolve.ga.loop import run
from evolve.ga.run_files import checkpoint
from evolve.ga.run_files.hooks import (
    GENERATION_COLUMNS,
    INDIVIDUAL_COLUMNS,
    PROGRESS_COLUMNS,
    game_columns,
)

PANEL = ["wpc_negated", "wpc_negated@d+1", "wpc_negated@d+2", "course"]
DIVERSITY = ["mobility", "positional", "stability", "p0", "p1"]

CONF = str(Path(__file__).resolve().parents[3] / "conf")


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
    assert list(gens.columns) == (GENERATION_COLUMNS + [f"yardstick_{p}" for p in PANEL]
                                  + PROGRESS_COLUMNS + [f"diversity_{g}" for g in DIVERSITY])
    assert list(gens["generation"]) == [0, 1, 2]
    ind = pd.read_csv(d / "individuals.csv")
    assert list(ind.columns) == INDIVIDUAL_COLUMNS + GenomeLayout(2, True).names
    columns = ["generation", "pairing", "game", "black_id", "white_id", "opening", "black_discs",
               "white_discs", "black_score", "winner", "plies", "moves"]
    assert list(pd.read_csv(d / "games.csv").columns) == columns
    assert game_columns(get_game("reversed_reversi")) == columns


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
    yard = pd.read_csv(d / "yardstick_games.csv")
    assert np.all(gens.games == games.groupby("generation").size()
                  + yard.groupby("generation").size())
    assert list(yard.groupby("generation").size()) == [4 * 2, 4 * 2, 5 * 2]  # + hall of fame


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
    champion = load_weights(d / "champions" / "gen_0002.json")
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
    assert meta["selection"] == {"method": "round_robin", "generation": 2}


def test_the_exported_champion_wins_the_playoff_of_the_last_champions(smoke_run):
    d = smoke_run.run_dir
    final = json.loads((d / "champion.json").read_text())
    selection = final["metadata"].pop("selection")
    assert selection["method"] == "playoff" and selection["table"] == "playoff.csv"
    table = pd.read_csv(d / "playoff.csv")
    assert list(table.generation) == selection["candidates"]
    assert set(selection["candidates"]) <= {0, 1, 2}
    chosen = table[table.chosen == 1].iloc[0]
    assert chosen.generation == selection["generation"]
    assert chosen.score == table.score.max() == selection["score"]
    source = json.loads((d / "champions" / f"gen_{int(chosen.generation):04d}.json").read_text())
    source["metadata"].pop("selection")
    assert final == source  # the same weights and provenance, only the selection differs
    assert np.array_equal(smoke_run.champion.genome,
                          load_weights(d / "champion.json").to_genome())
    genomes = {tuple(load_weights(d / "champions" / f"gen_{g:04d}.json").to_genome())
               for g in table.generation}
    assert len(genomes) == len(table)  # distinct candidates


def test_yardstick_scores_are_fractions_from_the_yardstick_games(smoke_run):
    d = smoke_run.run_dir
    gens, yard = pd.read_csv(d / "generations.csv"), pd.read_csv(d / "yardstick_games.csv")
    for _, row in gens.iterrows():
        games = yard[yard.generation == row.generation]
        for p, spec in enumerate(PANEL):
            mine = games[games.pairing == p]
            champ_colour = np.where(mine.black_id == spec, "white", "black")
            score = ((mine.winner == champ_colour) + 0.5 * (mine.winner == "draw")).mean()
            assert row[f"yardstick_{spec}"] == pytest.approx(score)


@pytest.mark.parametrize("overrides, bounds", [
    (["game.genome.phases=3", "game.genome.phase_bounds=[20,40]"], (20, 40)),
    (["game.genome.phases=60"], tuple(range(5, 64))),  # one phase per move
])
def test_phase_bounds_reach_the_champion_and_the_genome(tmp_path, overrides, bounds):
    result = run(smoke_config("ga.generations=1", "yardstick.enabled=false", "plot=false",
                              *overrides), run_dir=tmp_path)
    champion = load_weights(tmp_path / "champion.json")
    assert champion.phase_bounds == bounds
    assert np.array_equal(champion.to_genome(), result.champion.genome)
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
    """Records every submit and wait: the games in the batch and which generation was
    checkpointed at that moment."""

    def __init__(self, run_dir: Path):
        super().__init__()
        self.run_dir, self.calls = run_dir, []

    def record(self, what: str, tasks) -> None:
        state = self.run_dir / "checkpoint" / "checkpoint.json"
        done = json.loads(state.read_text())["generation"] if state.exists() else None
        self.calls.append((what, len(tasks), done))

    def submit(self, context, tasks):
        self.record("submit", tasks)
        return super().submit(context, tasks)

    def wait(self, future):
        self.record("wait", future.tasks)
        return super().wait(future)


def test_a_generations_yardstick_goes_out_with_the_next_round_robin_before_its_outputs(tmp_path):
    backend = RecordingBackend(tmp_path)
    run(smoke_config("ga.generations=3", "plot=false", "playoff.enabled=false"), run_dir=tmp_path,
        backend=backend)
    rr, yard = 4 * 3 // 2 * 2, 4 * 2  # 6 pairs x 2 colours; 4 panel opponents x 2 colours
    hof = 5 * 2  # generation 2: the panel and generation 0's champion from the hall of fame
    # generation g is checkpointed after its yardstick is back, while the next batch is out
    assert backend.calls == [
        ("submit", rr, None),
        ("wait", rr, None), ("submit", yard, None), ("submit", rr, None),
        ("wait", rr, None), ("submit", yard, None), ("submit", rr, None), ("wait", yard, None),
        ("wait", rr, 0), ("submit", hof, 0), ("wait", yard, 0),
        ("wait", hof, 1)]
    assert checkpoint.load(tmp_path).generation == 2


def test_without_a_panel_a_generations_outputs_are_written_while_the_next_one_plays(tmp_path):
    backend = RecordingBackend(tmp_path)
    run(smoke_config("ga.generations=3", "plot=false", "yardstick.enabled=false",
                     "playoff.enabled=false"), run_dir=tmp_path, backend=backend)
    assert backend.calls == [
        ("submit", 12, None),
        ("wait", 12, None), ("submit", 12, None),
        ("wait", 12, None), ("submit", 12, None),
        ("wait", 12, 0)]
    assert checkpoint.load(tmp_path).generation == 2


def test_a_checkpoint_whose_population_file_is_missing_is_one_line(tmp_path):
    from evolve.ga.configuration.config import ConfigError

    run(smoke_config("ga.generations=1", "plot=false"), run_dir=tmp_path)
    for npz in (tmp_path / "checkpoint").glob("population_*.npz"):
        npz.unlink()
    with pytest.raises(checkpoint.CheckpointError, match="population file named by"):
        checkpoint.load(tmp_path)
    with pytest.raises(ConfigError) as err:
        run(smoke_config(f"resume={tmp_path}"))
    assert str(err.value).startswith(f"resume={tmp_path}: ") and "\n" not in str(err.value)


def champion_counts(games: pd.DataFrame) -> dict[str, list[int]]:
    """(losses, draws, wins) of the champion against each opponent, read from yardstick games
    (the champion is the one numeric id)."""
    counts = {}
    for _, game in games.iterrows():
        champion_black = str(game.black_id).isdigit()
        opponent = str(game.white_id if champion_black else game.black_id)
        won = game.winner == ("black" if champion_black else "white")
        c = counts.setdefault(opponent, [0, 0, 0])
        c[2 if won else 1 if game.winner == "draw" else 0] += 1
    return counts


def test_champion_elo_is_its_score_against_the_panel_alone_and_the_hall_of_fame_apart(
        smoke_run):
    """Recomputed from yardstick_games.csv by hand: the Elo is the logistic Elo of the pooled
    score against the panel; the hall-of-fame games (generation 0's champion plays generation
    2's) give ``hall_of_fame_score`` and do not move the Elo."""
    from evolve.arena.elo import elo_estimate

    d = smoke_run.run_dir
    gens, yard = pd.read_csv(d / "generations.csv"), pd.read_csv(d / "yardstick_games.csv")
    assert "hof_gen0000" in set(yard[["black_id", "white_id"]].astype(str).to_numpy().ravel())
    for _, row in gens.iterrows():
        counts = champion_counts(yard[yard.generation == row.generation])
        panel = [c for o, c in counts.items() if o in PANEL]
        hof = [c for o, c in counts.items() if o.startswith("hof_gen")]
        assert len(panel) == len(PANEL) and len(hof) == (row.generation == 2)
        losses, draws, wins = (sum(c[k] for c in panel) for k in range(3))
        score = (wins + draws / 2) / (losses + draws + wins)
        elo = -400 * np.log10(1 / score - 1) if 0 < score < 1 else np.copysign(np.inf, score - .5)
        assert row.champion_elo == pytest.approx(elo)
        ci = elo_estimate(wins, draws, losses)
        assert (row.champion_elo_low, row.champion_elo_high) == pytest.approx(
            (ci.elo_low, ci.elo_high))
        if hof:
            (h_losses, h_draws, h_wins), = hof
            assert row.hall_of_fame_score == (h_wins + h_draws / 2) / sum(hof[0])
        else:
            assert np.isnan(row.hall_of_fame_score)


def test_resuming_a_run_written_before_a_column_existed_keeps_its_rows(tmp_path):
    run(smoke_config("ga.generations=2", "plot=false"), run_dir=tmp_path)
    before = pd.read_csv(tmp_path / "generations.csv").drop(columns="hall_of_fame_score")
    before.to_csv(tmp_path / "generations.csv", index=False)  # as an older version wrote it
    run(smoke_config("ga.generations=3", "plot=false", f"resume={tmp_path}"))
    after = pd.read_csv(tmp_path / "generations.csv")
    assert list(after.generation) == [0, 1, 2]
    pd.testing.assert_frame_equal(after.drop(columns="hall_of_fame_score")[:2], before)
    assert after.hall_of_fame_score[:2].isna().all() and after.hall_of_fame_score[2] >= 0


def test_a_single_candidate_gets_no_playoff(tmp_path, caplog):
    """``playoff.generations=1``: one candidate, the last generation's champion, is exported as
    it is (no games, no playoff.csv), and the log says why."""
    caplog.set_level(logging.INFO, logger="evolve")
    run(smoke_config("ga.generations=2", "playoff.generations=1", "plot=false"),
        run_dir=tmp_path)
    assert not (tmp_path / "playoff.csv").exists()
    selection = json.loads((tmp_path / "champion.json").read_text())["metadata"]["selection"]
    assert selection == {"method": "round_robin", "generation": 1}
    assert "no playoff: generation 1 had one distinct champion" in caplog.text


def test_elapsed_time_counts_from_the_start_of_the_command(tmp_path):
    """As if the command had started 1000 s before the run, then 500 s before its resume: the
    elapsed time (checkpointed, logged) includes the start-up, and a resumed run adds on."""
    quick = ("plot=false", "playoff.enabled=false")
    run(smoke_config("ga.generations=1", *quick), run_dir=tmp_path,
        started=time.monotonic() - 1000)
    first = checkpoint.load(tmp_path).elapsed
    assert first >= 1000
    run(smoke_config("ga.generations=2", f"resume={tmp_path}", *quick),
        started=time.monotonic() - 500)
    assert checkpoint.load(tmp_path).elapsed >= first + 500


def test_a_playoff_in_parts_for_its_progress_bar_gives_the_same_results():
    from engine.core.game import SearchSettings
    from evolve.ga.scoring.playoff import play, playoff_tasks
    from evolve.ga.scoring.tournament import PLAYOFF_GENERATION, Context, openings_for

    game = get_game("reversed_reversi")
    genomes = np.stack([game.reference_genome(r) for r in ("course", "wpc_negated")])
    ctx = Context("reversed_reversi", {}, SearchSettings(1, 4), genomes)
    openings = openings_for(game, 0, PLAYOFF_GENERATION, 3, 4, 8)
    tasks = playoff_tasks(2, ["greedy", "random"], openings, 0, PLAYOFF_GENERATION)

    class Bar:
        n = 0

        def update(self, k: int) -> None:
            self.n += k

    bar = Bar()
    assert play(SerialBackend(), ctx, tasks, bar) == play(SerialBackend(), ctx, tasks, None)
    assert bar.n == len(tasks) == 6 + 2 * 2 * 6
