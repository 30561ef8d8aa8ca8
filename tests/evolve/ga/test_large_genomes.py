"""Genomes of thousands of genes (the toy game's 3-tuple network: 84 lookup tables, 2,268
weights): separable CMA-ES (and full CMA-ES refused there), the ES coevolving against the hall of
fame, the GA with sparse mutation, each resumed exactly after a crash; the outputs stay usable
(diversity by phase, not a column per table)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evolve.ga.cmaes import MAX_FULL_GENES, CmaSearch
from evolve.ga.configuration.config import ConfigError, to_config
from evolve.ga.loop import run
from evolve.ga.run_files import checkpoint
from tests.evolve.ga import toy_game
from tests.evolve.ga.test_determinism import (
    FlakyBackend,
    Interrupted,
    assert_same_run,
    kill_at_the_first_checkpoint,
)
from tests.evolve.ga.test_local_search import KILLED

ROOT = Path(__file__).resolve().parents[3]

GENES = 84 * 27
BASE = {"game": {"name": toy_game.NAME, "genome": {"n": 3}}, "backend": "serial", "plot": False,
        "progress": False, "search": {"depth": 1, "endgame_empties": 0},
        "ga": {"population": 7, "generations": 5, "elites": 1},
        "games": {"openings": 1, "min_plies": 1, "max_plies": 2},
        "yardstick": {"openings": 2, "hall_of_fame_every": 1},
        "playoff": {"openings": 1}}
SETUPS = {
    "sep_cmaes": {"ga": {"algorithm": "cmaes", "cma_diagonal": True, "generations": 3}},
    "es_hall_of_fame": {"ga": {"algorithm": "es", "es_sigma": 0.1, "es_learning_rate": 0.05},
                        "fitness": {"hall_of_fame": 1.0, "references": 1.0, "openings": 1}},
    "ga_sparse": {"ga": {"mutation_genes": 20, "generations": 3}},
}


def config(setup: str, **changes) -> dict:
    out = json.loads(json.dumps(BASE))
    for extra in (SETUPS[setup], changes):
        for section, values in extra.items():
            if isinstance(values, dict):
                out.setdefault(section, {}).update(values)
            else:
                out[section] = values
    return out


@pytest.fixture(scope="module", autouse=True)
def toy():
    with toy_game.registered() as game:
        yield game


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    out = {}
    for setup in SETUPS:
        out[setup] = tmp_path_factory.mktemp(setup)
        run(config(setup), run_dir=out[setup])
    return out


def test_the_toy_genome_is_large():
    assert toy_game.Toy(3).genome_spec().size == GENES > MAX_FULL_GENES


def test_full_cma_es_is_refused_for_thousands_of_genes_in_one_line():
    with pytest.raises(ConfigError) as err:
        to_config(config("sep_cmaes", ga={"cma_diagonal": False}))
    assert str(err.value) == (f"ga.cma_diagonal=false allows genomes of up to {MAX_FULL_GENES} "
                              f"genes (full CMA-ES keeps a {GENES} x {GENES} covariance); set "
                              f"ga.cma_diagonal=true (separable CMA-ES) for this genome of "
                              f"{GENES}")


def sample_correlation(diagonal: bool) -> float:
    """CMA-ES on a function whose genes 0 and 1 are correlated; the correlation of genes 0 and
    1 in the distribution it ends with (from many samples)."""
    inverse = np.linalg.inv(np.array([[1, 0.9, 0], [0.9, 1, 0], [0, 0, 1]]))
    search = CmaSearch(1, (np.zeros(3), np.ones(3)), np.full(3, 0.5), 0.2, 8, diagonal)
    for _ in range(60):
        x = search.ask()
        search.tell([-(g - 0.3) @ inverse @ (g - 0.3) for g in x])
    samples = np.array(search.es.ask(4000))
    return float(np.corrcoef(samples[:, 0], samples[:, 1])[0, 1])


def test_separable_cma_es_keeps_a_diagonal_covariance_where_full_cma_es_learns_correlation():
    assert sample_correlation(diagonal=False) > 0.5
    assert abs(sample_correlation(diagonal=True)) < 0.1


def test_separable_cma_es_samples_come_from_the_seed_alone():
    bounds = (np.full(GENES, -1.0), np.full(GENES, 1.0))
    a = CmaSearch(3, bounds, np.zeros(GENES), 0.2, 6, diagonal=True).ask()
    b = CmaSearch(3, bounds, np.zeros(GENES), 0.2, 6, diagonal=True).ask()
    assert np.array_equal(a, b) and a.shape == (6, GENES)


# waits of a run of G generations: fitness games of generation 0, then of generation g + 1
# before the yardstick of generation g (the checkpoint of g follows it), the last yardstick
@pytest.mark.parametrize("setup, fail_at", [("sep_cmaes", 4), ("sep_cmaes", 6),
                                            ("es_hall_of_fame", 7), ("es_hall_of_fame", 10),
                                            ("ga_sparse", 5)])
def test_resume_after_a_crash_equals_the_uninterrupted_run(runs, tmp_path, setup, fail_at):
    with pytest.raises(Interrupted):
        run(config(setup), run_dir=tmp_path, backend=FlakyBackend(fail_at))
    run(config(setup, resume=str(tmp_path)))
    assert_same_run(runs[setup], tmp_path)


@pytest.mark.parametrize("setup", ["sep_cmaes", "es_hall_of_fame"])
def test_kill_9_then_resume_equals_the_uninterrupted_run(runs, tmp_path, setup):
    run_dir = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT),
                                                        os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-c", KILLED, json.dumps(config(setup)),
                             str(run_dir)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    kill_at_the_first_checkpoint(proc, run_dir, last=config(setup)["ga"]["generations"] - 1)
    run(config(setup, resume=str(run_dir)))
    assert_same_run(runs[setup], run_dir)


def test_the_es_coevolves_against_hall_of_fame_members_of_thousands_of_genes(runs):
    games = pd.read_csv(runs["es_hall_of_fame"] / "games.csv")
    members = sorted({p for p in pd.concat([games["x_id"], games["o_id"]]).astype(str)
                      if p.startswith("hof_gen")})
    assert members
    saved = checkpoint.load(runs["es_hall_of_fame"])
    assert all(len(m["genome"]) == GENES for m in saved.hall_of_fame)
    assert len(saved.algorithm_state["es"]["centre"]) == GENES


def genomes_by_id(run_dir: Path) -> dict[tuple[int, int], np.ndarray]:
    """Every individual's genome: a large genome's genes are kept out of individuals.csv, one
    array file per generation (individuals/gen_XXXX.npz, loaded without pickle)."""
    out = {}
    for path in sorted((run_dir / "individuals").glob("gen_*.npz")):
        g = int(path.stem.removeprefix("gen_"))
        with np.load(path, allow_pickle=False) as z:
            out |= {(g, int(i)): row for i, row in zip(z["ids"], z["genomes"], strict=True)}
    return out


def test_a_large_genome_keeps_its_genes_out_of_individuals_csv(runs):
    ind = pd.read_csv(runs["ga_sparse"] / "individuals.csv")
    assert not [c for c in ind.columns if c.startswith("p0.")]
    genomes = genomes_by_id(runs["ga_sparse"])
    assert set(genomes) == set(zip(ind["generation"], ind["id"], strict=True))
    assert all(g.shape == (GENES,) for g in genomes.values())


def test_sparse_mutation_leaves_most_of_a_childs_genes_as_crossover_made_them(runs):
    ind = pd.read_csv(runs["ga_sparse"] / "individuals.csv")
    by_id = genomes_by_id(runs["ga_sparse"])
    clones = ind[ind["operator"] == "clone+mutation"]  # no crossover: a parent's copy
    assert len(clones)
    for _, child in clones.iterrows():
        g = child["generation"] - 1
        parents = [by_id[(g, child[p])] for p in ("parent_a", "parent_b")]
        mine = by_id[(child["generation"], child["id"])]
        assert min(np.count_nonzero(mine != p) for p in parents) == 20


def test_diversity_is_reported_by_phase_not_per_lookup_table(runs):
    gens = pd.read_csv(runs["ga_sparse"] / "generations.csv")
    assert [c for c in gens.columns if c.startswith("diversity_")] == ["diversity_p0"]
