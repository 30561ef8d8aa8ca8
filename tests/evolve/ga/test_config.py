"""Config: the composed defaults and experiments are valid; each bad value is refused with one
line naming the key and what is allowed."""

from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

from evolve.ga.configuration.config import Config, ConfigError, config_hash, to_config

CONF = str(Path(__file__).resolve().parents[3] / "conf")


def composed(*overrides):
    with initialize_config_dir(config_dir=CONF, version_base="1.3"):
        return compose("config", overrides=list(overrides))


@pytest.mark.parametrize("experiment", ["smoke", "reversed_reversi", "othello"])
def test_experiments_compose_into_valid_typed_configs(experiment):
    c = to_config(composed(f"+experiment={experiment}"))
    assert isinstance(c, Config)
    assert 0 <= c.ga.elites < c.ga.population


def test_experiments_pick_their_game():
    assert to_config(composed("+experiment=othello")).game.name == "othello"
    assert to_config(composed("+experiment=reversed_reversi")).game.name == "reversed_reversi"
    assert to_config(composed("game=othello")).game.seed_references == ["course", "wpc"]


def test_command_line_overrides_reach_the_typed_config():
    c = to_config(composed("ga.population=20", "ga.generations=30", "ga.elites=2",
                           "search.depth=4", "game.genome.phases=4", "backend=serial"))
    got = (c.ga.population, c.ga.generations, c.ga.elites, c.search.depth,
           c.game.settings["genome"]["phases"])
    assert got == (20, 30, 2, 4, 4)


@pytest.mark.parametrize("override, message", [
    ("ga.population=1", "ga.population=1 must satisfy population >= 2"),
    ("ga.elites=14", "ga.elites=14 must satisfy 0 <= elites < population (14)"),
    ("ga.elites=-1", "ga.elites=-1 must satisfy 0 <= elites < population (14)"),
    ("ga.generations=0", "ga.generations=0 must satisfy generations >= 1"),
    ("search.depth=0", "search.depth=0 must satisfy depth >= 1"),
    ("ga.mutation_prob=1.5", "ga.mutation_prob=1.5 must satisfy 0 <= value <= 1"),
    ("ga.crossover_prob=-0.1", "ga.crossover_prob=-0.1 must satisfy 0 <= value <= 1"),
    ("games.min_plies=9", "games.max_plies=8 must satisfy 1 <= min_plies (9) <= max_plies <= 20"),
    ("games.loss=10", "games.win=5.0 must satisfy win >= draw (0.0) >= loss (10.0) and win > loss"),
    ("backend=spark", "backend=spark must be one of: serial, ray"),
    ("ga.selection=roulette", "ga.selection=roulette must be one of: tournament, rank"),
    ("game.name=chess", "game.name=chess must be one of: reversed_reversi, "),
    ("ga.population=many", "ga.population"),
    ("game.genome.symmetric=maybe", "game.genome.symmetric=maybe must be true or false"),
    ("game.genome.phases=0", "game.genome.phases=0 must satisfy 1 <= phases <= 60"),
    ("+game.genome.colour=1", "game.genome.colour: unknown key (allowed: phases"),
    ("seed=-1", "seed=-1 must satisfy seed >= 0"),
    ("ga.tournament_size=1", "ga.tournament_size=1 must satisfy tournament_size >= 2"),
    ("yardstick.panel=[greedy,foo]", "yardstick.panel: unknown agent spec 'foo' (allowed: random"),
    ("yardstick.panel=[missing.json]", "yardstick.panel: weights file not found: missing.json"),
    ("game.seed_references=[bogus]",
     "game.seed_references: unknown reference 'bogus' (allowed: course, wpc, wpc_negated, "
     "zero, or a champion file .json of the same genome)"),
    ("game.genome.phase_bounds=[40,20]",
     "game.genome.phase_bounds=[40, 20] must satisfy strictly increasing"),
    ("game.genome.phase_bounds=[4,20]",
     "game.genome.phase_bounds=[4, 20] must satisfy strictly increasing"),
    ("game.genome.phase_bounds=[20,65]",
     "game.genome.phase_bounds=[20, 65] must satisfy strictly increasing"),
    ("game.genome.phase_bounds=[30]",
     "game.genome.phase_bounds=[30] must satisfy one bound per phase after the first: 2 bounds "
     "for game.genome.phases=3 (set game.genome.phases=2"),
])
def test_bad_values_are_refused_with_one_line_naming_the_key(override, message):
    with pytest.raises(ConfigError) as err:
        to_config(composed(override))
    text = str(err.value)
    assert message in text and "\n" not in text


def test_infeasible_openings_are_refused_at_start_naming_the_key():
    # one ply from the start reaches only 4 distinct positions
    with pytest.raises(ConfigError) as err:
        to_config(composed("games.openings=5", "games.min_plies=1", "games.max_plies=1"))
    text = str(err.value)
    assert text.startswith("games.openings=5 must satisfy openings <= the distinct positions "
                           "reachable in 1..1 plies") and "\n" not in text
    assert to_config(composed("games.openings=4", "games.min_plies=1", "games.max_plies=1",
                              "yardstick.openings=4"))
    with pytest.raises(ConfigError, match="^yardstick.openings=5 must satisfy"):
        to_config(composed("games.openings=4", "games.min_plies=1", "games.max_plies=1",
                           "yardstick.openings=5"))


def test_panel_specs_are_not_built_when_the_yardstick_is_off():
    assert to_config(composed("yardstick.panel=[foo]", "yardstick.enabled=false"))


def test_population_two_is_allowed_with_the_default_tournament_size():
    c = to_config(composed("ga.population=2", "ga.elites=1"))
    assert (c.ga.population, c.ga.tournament_size) == (2, 3)


def test_phase_bounds_give_the_phases_or_default_to_the_equal_split():
    from engine.reversi.genome.weights import default_phase_bounds
    from evolve.ga.configuration.config import make_game

    def bounds(*overrides):
        return make_game(to_config(composed(*overrides))).phase_bounds

    assert bounds("game.genome.phase_bounds=[20,40]") == (20, 40)
    assert bounds("game.genome.phases=4") == default_phase_bounds(4)
    every_move = ",".join(str(d) for d in range(5, 64))
    one_per_move = bounds("game.genome.phases=60", f"game.genome.phase_bounds=[{every_move}]")
    assert one_per_move == tuple(range(5, 64)) == default_phase_bounds(60)


@pytest.mark.parametrize("key", ["phases", "phase_bounds", "symmetric"])
def test_genome_keys_under_ga_name_their_new_place(key):
    with pytest.raises(ConfigError, match=f"^ga.{key} moved to game.genome.{key} "):
        to_config({"ga": {key: 3}})


def test_a_config_saved_before_the_genome_moved_is_migrated():
    from evolve.ga.configuration.config import from_dict, to_dict

    old = to_dict(to_config(composed("+experiment=smoke")))
    old["ga"]["phases"] = old["game"].pop("genome")["phases"]
    migrated = from_dict(old)
    assert migrated.game.settings["genome"]["phases"] == 2


def test_unknown_keys_are_refused():
    with pytest.raises(ConfigError, match="populaton"):
        to_config({"ga": {"populaton": 3}})


def test_config_hash_ignores_where_the_run_executes_but_not_what_it_computes():
    base = to_config(composed("+experiment=smoke"))
    assert config_hash(base) == config_hash(to_config(composed("+experiment=smoke", "backend=ray")))
    assert config_hash(base) != config_hash(to_config(composed("+experiment=smoke", "seed=1")))
    # generation g never depends on how many follow: an extended run keeps its hash
    longer = to_config(composed("+experiment=smoke", "ga.generations=9"))
    assert config_hash(base) == config_hash(longer)


def test_resume_takes_the_saved_config_and_only_the_allowed_command_line_changes():
    from evolve.ga.configuration.config import to_dict
    from evolve.ga.run_files.resume import merged_config

    saved = to_dict(to_config(composed("+experiment=smoke", "ga.generations=3")))
    # what `python -m evolve resume=x backend=ray ray.workers=2 ga.generations=5` composes
    current = to_config(composed("resume=x", "backend=ray", "ray.workers=2", "ga.generations=5"))
    touched = {"resume", "backend", "ray.workers", "ga.generations"}
    c = merged_config(saved, current, touched)
    assert (c.backend, c.ray.workers, c.ga.generations, c.resume) == ("ray", 2, 5, None)
    assert (c.ga.population, c.search.depth, c.plot) == (4, 1, True)  # the saved smoke run's
    # backend not on the command line: the saved one, although the defaults say ray
    c = merged_config(saved, current, {"resume"})
    assert (c.backend, c.ray.workers, c.ga.generations) == ("serial", None, 3)
    with pytest.raises(ConfigError, match=r"ga.population=14 \(saved: 4\)"):
        merged_config(saved, current, {"resume", "ga.population"})
    with pytest.raises(ConfigError, match=r"ga.population=14 \(saved: 4\); search.depth=2"):
        merged_config(saved, current, {"resume", "ga", "search"})  # a whole group: every key


def hash_before_the_later_keys(config) -> str:
    """``config_hash`` as it was computed before ``LATER_KEYS`` existed: the config without
    the runtime keys and ``ga.generations``, and without those keys (they did not exist)."""
    import hashlib
    import json

    from evolve.ga.configuration.config import LATER_GAME_KEYS, LATER_KEYS, RUNTIME_KEYS, to_dict

    d = to_dict(config)
    for key in RUNTIME_KEYS:
        d.pop(key)
    d["ga"].pop("generations")
    for section, keys in LATER_KEYS.items():
        for key in keys:
            d[section].pop(key)
    for group, keys in LATER_GAME_KEYS.items():
        for key in keys:
            d["game"].get(group, {}).pop(key, None)
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


@pytest.mark.parametrize("experiment", ["smoke", "reversed_reversi", "othello_league"])
def test_settings_added_later_leave_the_hash_of_configs_that_do_not_use_them(experiment):
    c = to_config(composed(f"+experiment={experiment}"))
    assert config_hash(c) == hash_before_the_later_keys(c)
    for override in ("games.epsilon=0.1", "ga.mutation_genes=3", "ga.es_sigma=0.2",
                     "ga.cma_diagonal=true", "ga.td_games=5"):
        changed = to_config(composed(f"+experiment={experiment}", override))
        assert config_hash(changed) != config_hash(c), override


def test_the_default_study_hashes_as_its_committed_run_recorded():
    """``experiments/runs/reversed_reversi`` was made before ``game.genome.kind``, ``layout``
    and ``symmetry`` existed; its champion names this hash. A network genome still counts."""
    c = to_config(composed("+experiment=reversed_reversi"))
    assert config_hash(c) == "3390f14991192a79"
    ntuple = ("+experiment=reversed_reversi", "game.genome.kind=ntuple")
    hashes = {config_hash(to_config(composed(*ntuple, *more)))
              for more in ((), ("game.genome.symmetry=c4",), ("game.genome.layout=straight2",))}
    assert len(hashes) == 3 and config_hash(c) not in hashes


def test_a_checkpoint_saved_before_the_later_keys_resumes_with_their_defaults():
    from evolve.ga.configuration.config import LATER_GAME_KEYS, LATER_KEYS, to_dict
    from evolve.ga.run_files.resume import merged_config

    saved = to_dict(to_config(composed("+experiment=smoke", "ga.generations=3")))
    for section, keys in LATER_KEYS.items():
        for key in keys:
            del saved[section][key]
    for key in LATER_GAME_KEYS["genome"]:
        del saved["game"]["genome"][key]
    current = to_config(composed("+experiment=smoke", "resume=x", "ga.generations=3"))
    c = merged_config(saved, current, None)
    assert (c.ga.algorithm, c.ga.local_search, c.ga.mutation_genes, c.games.epsilon) == \
        ("ga", "none", 0, 0.0)
    assert config_hash(c) == hash_before_the_later_keys(c)
