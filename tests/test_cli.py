"""The command line: bad values exit non-zero with one clear line; multirun sweeps work.

Refused commands run ``evolve/__main__.py`` in this process (``evolve``: the same code as
``python -m evolve``, without a second or two of interpreter and import start-up each); what
runs a study, or needs a Ray of its own, runs in a real process (``evolve_process``)."""

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def evolve(monkeypatch, capsys):
    """``evolve(tmp_path, *args)``: ``python -m evolve *args`` run in ``tmp_path``, in this
    process; returns its exit status and what it printed."""

    def run(cwd: Path, *args: str) -> subprocess.CompletedProcess:
        capsys.readouterr()
        with monkeypatch.context() as patch:
            patch.chdir(cwd)
            patch.setattr(sys, "argv", ["evolve", *args])
            try:
                runpy.run_path(str(ROOT / "evolve" / "__main__.py"), run_name="__main__")
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(["evolve", *args], code, out, err)

    return run


def evolve_process(tmp_path, *args):
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path}
    return subprocess.run([sys.executable, "-m", "evolve", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("override, key", [
    ("ga.elites=12", "error: ga.elites=12 must satisfy 0 <= elites < population (4)"),
    ("search.depth=0", "error: search.depth=0 must satisfy depth >= 1"),
    ("ga.mutation_prob=2", "error: ga.mutation_prob=2.0 must satisfy 0 <= value <= 1"),
    ("backend=gpu", "error: backend=gpu must be one of: serial, ray"),
])
def test_a_bad_value_exits_non_zero_with_one_line(tmp_path, override, key, evolve):
    proc = evolve(tmp_path, "+experiment=smoke", override, f"hydra.run.dir={tmp_path / 'run'}")
    assert proc.returncode != 0
    assert proc.stderr.strip() == key
    assert "Traceback" not in proc.stdout + proc.stderr
    assert not (tmp_path / "run").exists()  # refused before Hydra made the run's folder


@pytest.mark.parametrize("address, message", [
    ("127.0.0.1:1", "error: ray.address=127.0.0.1:1: no Ray cluster reachable there"),
    ('"[::1]:1"', "error: ray.address=[::1]:1: no Ray cluster reachable there"),  # quoted for Hydra
    ("nonsense", "error: ray.address=nonsense must be auto, host:port, [ipv6]:port or "
                 "ray://host:port"),
])
def test_an_unreachable_ray_cluster_is_one_line_not_a_minute_of_retries(tmp_path, address,
                                                                        message, evolve):
    proc = evolve(tmp_path, "+experiment=smoke", "backend=ray", f"ray.address={address}",
                  f"hydra.run.dir={tmp_path / 'run'}")
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith(message) and "\n" not in proc.stderr.strip()


@pytest.mark.parametrize("address, host_port", [
    ("10.0.0.5:6379", ("10.0.0.5", "6379")), ("ray://head:10001", ("head", "10001")),
    ("[::1]:6379", ("::1", "6379")), ("ray://[fe80::1]:10001", ("fe80::1", "10001")),
])
def test_ray_addresses_split_into_host_and_port_ipv6_included(address, host_port):
    from evolve.execution.backends import split_address

    assert split_address(address) == host_port


@pytest.mark.parametrize("override, line", [
    ("ga.phases=4", "error: ga.phases moved to game.genome.phases"),
    ("game.genome.colour=1", "error: unknown key game.genome.colour (allowed in game.genome: "),
])
def test_moved_and_unknown_game_keys_are_one_line(tmp_path, override, line, evolve):
    proc = evolve(tmp_path, "+experiment=smoke", override, f"hydra.run.dir={tmp_path / 'run'}")
    assert proc.returncode == 2
    assert proc.stderr.startswith(line) and proc.stderr.count("\n") == 1


def test_resume_of_a_directory_without_checkpoint_is_one_line(tmp_path, evolve):
    proc = evolve(tmp_path, f"resume={tmp_path}", f"hydra.run.dir={tmp_path / 'run'}")
    assert proc.returncode != 0
    assert proc.stderr.strip().startswith("error: resume=") and "\n" not in proc.stderr.strip()


def test_multirun_sweeps_population_sizes(tmp_path):
    sweep = tmp_path / "sweep"
    proc = evolve_process(tmp_path, "-m", "+experiment=smoke", "ga.population=4,6", "plot=false",
                  f"hydra.sweep.dir={sweep}")
    assert proc.returncode == 0, proc.stderr
    for job, population in (("0", 4), ("1", 6)):
        individuals = pd.read_csv(sweep / job / "individuals.csv")
        assert individuals.groupby("generation").size().tolist() == [population, population]
        assert (sweep / job / "champion.json").is_file()
        assert (sweep / job / ".hydra" / "config.yaml").is_file()


def test_more_ray_workers_than_cpus_is_refused_instead_of_hanging(tmp_path):
    proc = evolve_process(tmp_path, "+experiment=smoke", "backend=ray", "ray.num_cpus=1",
                          "ray.workers=2", f"hydra.run.dir={tmp_path / 'run'}")
    assert proc.returncode != 0
    assert proc.stderr.strip() == (
        "error: ray.workers=2 must satisfy workers <= the Ray cluster's CPUs (1)")


@pytest.fixture(scope="module")
def finished_smoke_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cli_resume")
    proc = evolve_process(tmp, "+experiment=smoke", "plot=false", f"hydra.run.dir={tmp / 'run'}")
    assert proc.returncode == 0, proc.stderr
    return tmp / "run"


def test_resume_with_a_changed_setting_exits_with_one_line_naming_it(tmp_path, finished_smoke_run):
    proc = evolve_process(tmp_path, f"resume={finished_smoke_run}", "search.depth=2",
                          "game=othello", f"hydra.run.dir={tmp_path / 'log'}")
    assert proc.returncode == 2
    line = proc.stderr.strip()
    assert "\n" not in line and "Traceback" not in proc.stdout + proc.stderr
    assert line.startswith(f"error: resume={finished_smoke_run}: the command line changes")
    assert "search.depth=2 (saved: 1)" in line and "game.name=othello (saved: reversed_reversi)" \
        in line


def test_resume_keeps_the_saved_backend_and_can_add_generations(tmp_path, finished_smoke_run):
    # the defaults say backend=ray; the smoke run was serial and is continued serially
    proc = evolve_process(tmp_path, f"resume={finished_smoke_run}", "ga.generations=3",
                          f"hydra.run.dir={tmp_path / 'log'}")
    assert proc.returncode == 0, proc.stderr
    assert "resuming" in proc.stdout and "after generation 1 (next: generation 2, backend serial)" \
        in proc.stdout
    individuals = pd.read_csv(finished_smoke_run / "individuals.csv")
    assert individuals.generation.unique().tolist() == [0, 1, 2]
    assert not (finished_smoke_run / "fitness.png").exists()  # plot=false kept too


@pytest.mark.parametrize("override, line", [
    ("ga.populaton=5", "error: unknown key ga.populaton (allowed in ga: "),
    ("populaton=5", "error: unknown key populaton (allowed: backend, "),
    ("game=chess", "error: game=chess must be one of: "),
    ("seed=-1", "error: seed=-1 must satisfy seed >= 0"),
    ("yardstick.panel=[foo]", "error: yardstick.panel: unknown agent spec 'foo'"),
    ("game.seed_references=[bogus]", "error: game.seed_references: unknown reference 'bogus'"),
    ("games.openings=5 games.min_plies=1 games.max_plies=1",
     "error: games.openings=5 must satisfy openings <= the distinct positions reachable in 1..1"),
])
def test_unknown_keys_options_and_values_exit_with_one_line(tmp_path, override, line, evolve):
    proc = evolve(tmp_path, "+experiment=smoke", *override.split(),
                  f"hydra.run.dir={tmp_path / 'run'}")
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith(line) and "\n" not in proc.stderr.strip()
    assert "Traceback" not in proc.stdout + proc.stderr
    assert not (tmp_path / "run" / "games.csv").exists()  # refused before any game


@pytest.mark.parametrize("args", [
    ["+experiment=smoke", "ga.population=-3"],
    ["-m", "+experiment=smoke", "ga.population=4,-3"],  # the second job's value
    ["resume=nowhere"],
])
def test_a_refused_command_leaves_no_folder_behind(tmp_path, args, evolve):
    proc = evolve(tmp_path, *args)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("error: ")
    assert list(tmp_path.iterdir()) == []  # no outputs/ or multirun/ folder


@pytest.fixture(scope="module")
def talking_run(tmp_path_factory):
    """A smoke study on an embedded Ray, as a user starts it (no RAY_AUTH_MODE set)."""
    tmp = tmp_path_factory.mktemp("talking")
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"} | {"PYTHONPATH": path}
    proc = subprocess.run([sys.executable, "-m", "evolve", "+experiment=smoke", "backend=ray",
                           "ray.num_cpus=1", "ga.generations=3", "plot=false"], cwd=tmp, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    (run_dir,) = (tmp / "outputs").glob("*/*")
    return proc, run_dir


def test_the_first_line_says_what_runs_and_where_its_outputs_go(talking_run):
    proc, run_dir = talking_run
    first = proc.stdout.splitlines()[0]
    assert first == ("evolve: +experiment=smoke (reversed_reversi, population 4, generations "
                     f"0-2, search depth 1, local Ray); outputs and evolve.log in "
                     f"{run_dir.relative_to(run_dir.parents[2])}/")


def test_the_embedded_ray_starts_without_its_token_warning_and_says_what_it_does(talking_run):
    proc, _ = talking_run
    out = proc.stdout + proc.stderr
    assert "Token authentication" not in out and "RAY_AUTH_MODE" not in out
    assert "ray: starting a local Ray on 1 CPUs" in out
    assert "1 Ray workers: warming up" in out


def test_the_log_counts_generations_from_0_as_the_files_do(talking_run):
    proc, run_dir = talking_run
    lines = [line.split()[1:3] for line in proc.stdout.splitlines()
             if line[:1].isdigit() and line.split()[1] == "gen"]  # "08:11:26 gen 0/2 ..."
    assert lines == [["gen", "0/2"], ["gen", "1/2"], ["gen", "2/2"]]
    assert pd.read_csv(run_dir / "generations.csv").generation.tolist() == [0, 1, 2]
    assert proc.stdout.count("each generation logs one line:") == 1  # the legend, once
    assert "gen g/L       generation g of 0..L (0-based" in proc.stdout


def test_the_run_ends_with_a_summary_of_what_came_out(talking_run):
    import json

    proc, run_dir = talking_run
    champion = json.loads((run_dir / "champion.json").read_text())["metadata"]["selection"]
    tail = proc.stdout[proc.stdout.index("done in "):]
    assert f"the champion is generation {champion['generation']}'s" in tail
    assert "against the yardstick panel" in tail and "champion.json, generations.csv" in tail
    for command in ("python -m engine.play --opponent", "python -m evolve.evaluate",
                    "python -m evolve.report", "python -m evolve resume="):
        assert command in tail
    assert (run_dir / "evolve.log").read_text().count("done in ") == 1  # in the log too


@pytest.mark.parametrize("args, extra, expected", [
    (["seed=1", "--cfg", "job"], ["x=1"], ["seed=1", "x=1", "--cfg", "job"]),
    (["seed=1", "-m"], ["x=1"], ["seed=1", "x=1", "-m"]),
    (["-m", "seed=1", "a=2"], ["x=1"], ["-m", "seed=1", "a=2", "x=1"]),
    (["--cfg", "job"], ["x=1"], ["--cfg", "job", "x=1"]),
    ([], ["x=1"], ["x=1"]),
    (["seed=1"], [], ["seed=1"]),
])
def test_added_overrides_join_the_users_own_group(args, extra, expected):
    """Hydra's parser refuses a second group of overrides after a flag, so the searchpath of
    the plug-in games and the output folder go right after the user's last override."""
    from evolve.__main__ import with_overrides

    assert with_overrides(args, extra) == expected


def test_a_hydra_flag_after_the_overrides_works_with_a_plugin_game_installed(tmp_path, evolve):
    """``--cfg job`` after an override (and the plug-in's ``hydra.searchpath`` added to the
    command line when one is installed, as CI's is)."""
    proc = evolve(tmp_path, "seed=7", "--cfg", "job")
    assert proc.returncode == 0, proc.stderr
    assert "seed: 7" in proc.stdout.splitlines()
