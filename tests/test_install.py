"""The project as its users install it, away from the checkout:

- the wheel (and the sdist, which builds the same wheel) installed in a fresh virtual
  environment runs the commands of docs/cluster/Dockerfile, the main job, ``engine.games``,
  ``engine.web`` and ``evolve.evaluate`` from a folder outside the checkout, with the outputs
  in that folder;
- a Ray worker node whose Python has Ray and the dependencies but not the project plays a
  study's games through ``ray.runtime_env`` and gives the serial run's champion.

Both are slow (installs from the package index, a cluster of two nodes); the check that the
wheel's package list follows the source tree is fast.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
import venv
from pathlib import Path

import pytest

from tests.sessions import stop_session

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "docs" / "cluster" / "Dockerfile"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
# a study of seconds, Ray-friendly (the smoke study with two generations of four)
TINY = ["+experiment=smoke", "ga.population=4", "ga.generations=2", "plot=false",
        "progress=false"]


def test_the_wheel_lists_every_package_of_the_source_tree():
    """``[tool.setuptools] packages`` is written out (the configs need a mapping); a package
    added to the tree and not to the list would be missing from the wheel."""
    from setuptools import find_packages

    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = set(find_packages(where=str(ROOT), include=["engine*", "evolve*"]))
    assert listed == found | {"evolve.conf"}
    assert PYPROJECT["tool"]["setuptools"]["package-dir"] == {"evolve.conf": "conf"}


VERSIONED = ["engine.games", "engine.web", "engine.play", "engine.solve", "engine.perft",
             "evolve.evaluate", "evolve.export", "evolve.report", "evolve.blend", "evolve.td"]


@pytest.mark.parametrize("module", VERSIONED)
def test_every_command_says_the_installed_version(module, capsys):
    import runpy

    saved = sys.argv
    sys.argv = [module, "--version"]
    try:
        with pytest.raises(SystemExit) as done:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        sys.argv = saved
    assert done.value.code in (0, None)
    assert capsys.readouterr().out == f"board-evolve {PYPROJECT['project']['version']}\n"


def test_the_main_job_says_its_version_not_hydras():
    done = subprocess.run([sys.executable, "-m", "evolve", "--version"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, f"board-evolve "
                                                 f"{PYPROJECT['project']['version']}\n")


def dockerfile_commands() -> list[str]:
    """The ``python -m ...`` commands of the Dockerfile's RUN lines, in order."""
    commands = []
    for line in DOCKERFILE.read_text().splitlines():
        if line.startswith("RUN "):
            commands += [c.strip() for c in line[4:].split("&&")
                         if c.strip().startswith("python -m ")]
    return commands


def clean_env(bin_dir: Path | None = None) -> dict:
    """This process's environment without what points at the checkout or this test run's
    caches and Ray, with ``bin_dir`` first on the PATH."""
    drop = ("PYTHONPATH", "NUMBA_CACHE_DIR", "VIRTUAL_ENV", "RAY_ADDRESS", "PYTHONHOME")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    if bin_dir is not None:
        env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return env | {"RAY_AUTH_MODE": "disabled", "PYTHONNOUSERSITE": "1"}


def run(args, cwd: Path, env: dict, timeout: float = 900) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode == 0, f"{args}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def fresh_venv(folder: Path) -> Path:
    """A virtual environment of its own (no system site-packages: the checkout's editable
    install stays out); its ``bin`` folder."""
    venv.create(folder, with_pip=True, clear=True)
    return folder / "bin"


def source_copy(target: Path) -> Path:
    """What a build reads, copied (a build writes build/ and *.egg-info beside the sources)."""
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc")
    for name in ("engine", "evolve", "conf"):
        shutil.copytree(ROOT / name, target / name, ignore=skip)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, target / name)
    return target


def wheel_names(wheel: Path) -> set[str]:
    import zipfile

    with zipfile.ZipFile(wheel) as z:
        return {n for n in z.namelist() if ".dist-info/" not in n}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("", 0))
        return s.getsockname()[1]


@pytest.mark.slow  # installs from the package index into a fresh environment: minutes
@pytest.mark.timeout(2400)
def test_the_wheel_from_the_sdist_runs_every_command_outside_the_checkout(tmp_path):
    bin_dir = fresh_venv(tmp_path / "venv")
    python, env = bin_dir / "python", clean_env(bin_dir)
    src = source_copy(tmp_path / "src")
    run([python, "-m", "pip", "install", "-q", "build"], tmp_path, env)
    # `python -m build`: the sdist, then the wheel built from the unpacked sdist
    run([python, "-m", "build", "--outdir", tmp_path / "dist", src], tmp_path, env)
    (wheel,) = (tmp_path / "dist").glob("board_evolve-*.whl")
    assert len(list((tmp_path / "dist").glob("board_evolve-*.tar.gz"))) == 1
    run([python, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp_path / "tree", src],
        tmp_path, env)
    (from_tree,) = (tmp_path / "tree").glob("board_evolve-*.whl")
    names = wheel_names(wheel)
    assert names == wheel_names(from_tree)  # the sdist misses nothing the tree has
    assert {"evolve/conf/config.yaml", "evolve/conf/tracking/mlflow.yaml",
            "evolve/plugins/hydra_plugins/board_evolve_optuna/optuna_sweeper.py",
            "engine/web/static/index.html", "engine/reversi/data/wpc.json",
            "engine/reversi/export/cs303_template/base.py"} <= names
    run([python, "-m", "pip", "install", "-q", wheel], tmp_path, env)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = run([python, "-c", "import evolve; print(evolve.__file__)"], elsewhere, env)
    assert where.startswith(str(tmp_path / "venv")), where
    for command in dockerfile_commands():  # as the image runs them
        run(command.split(), elsewhere, env)
    assert run([python, "-m", "evolve", "--version"], elsewhere, env).strip() == \
        f"board-evolve {PYPROJECT['project']['version']}"
    assert (elsewhere / "smoke" / "champion.json").is_file()

    run([python, "-m", "evolve", *TINY], elsewhere, env)  # the main job, outputs here
    (champion,) = elsewhere.glob("outputs/*/*/champion.json")
    games = json.loads(run([python, "-m", "engine.games", "--json"], elsewhere, env))
    assert {"reversed_reversi", "othello", "pentago_twist", "hexifence"} <= \
        {g["name"] for g in games}
    report = run([python, "-m", "evolve.evaluate", champion, "--vs", "wpc1", "--games", "2",
                  "--backend", "serial", "--json", "eval.json"], elsewhere, env)
    assert "wpc1" in report and (elsewhere / "eval.json").is_file()
    assert_web_serves(python, elsewhere, env)


def assert_web_serves(python: Path, cwd: Path, env: dict) -> None:
    port = free_port()
    web = subprocess.Popen([python, "-m", "engine.web", "--port", str(port), "--runs", "."],
                           cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert web.poll() is None, web.stderr.read()[-2000:]
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    assert page.status == 200 and "<html" in page.read().decode().lower()
                    return
            except OSError:
                assert time.monotonic() < deadline, "engine.web never answered"
                time.sleep(0.5)
    finally:
        web.terminate()
        web.wait(timeout=30)


# ---------------------------------------------------------------------------------------------
# a worker node without the project


def dependencies_venv(folder: Path) -> Path:
    """Ray and the project's dependencies, not the project: what a worker node needs."""
    bin_dir = fresh_venv(folder)
    run([bin_dir / "python", "-m", "pip", "install", "-q",
         *PYPROJECT["project"]["dependencies"]], folder.parent, clean_env(bin_dir))
    return bin_dir


def free_ports(n: int) -> list[int]:
    """``n`` different ports free now (held open together, so none is handed out twice)."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(n)]
        for s in sockets:
            s.bind(("", 0))
        return [s.getsockname()[1] for s in sockets]


def ray_start(ray: Path, args: list[str], log: Path, env: dict, cwd: Path) -> subprocess.Popen:
    """``ray start ... --block`` in a session of its own, every port its own."""
    flags = ("--node-manager-port", "--object-manager-port", "--runtime-env-agent-port",
             "--dashboard-agent-grpc-port", "--dashboard-agent-listen-port",
             "--metrics-export-port")
    ports = free_ports(len(flags) + 40)
    workers = ",".join(map(str, ports[len(flags):]))  # Ray's worker processes
    return subprocess.Popen(
        [str(ray), "start", *args, *(f"{k}={v}" for k, v in zip(flags, ports, strict=False)),
         f"--worker-port-list={workers}", "--disable-usage-stats", "--block"],
        cwd=cwd, env=env, start_new_session=True, stdout=log.open("w"),
        stderr=subprocess.STDOUT)


def wait_for_cpus(address: str, cpus: int, env: dict, cwd: Path) -> None:
    script = (f"import ray, time; ray.init(address={address!r}, logging_level='ERROR')\n"
              f"t = time.time()\nwhile ray.cluster_resources().get('CPU', 0) < {cpus}:\n"
              "    assert time.time() - t < 120, ray.cluster_resources(); time.sleep(0.5)\n")
    run([sys.executable, "-c", script], cwd, env, timeout=300)


def champion_genome(run_dir: Path):
    from engine.core.registry import get_game

    game = get_game("reversed_reversi", {"genome": {"phases": 2}})
    return list(game.load_champion(str(run_dir / "champion.json")).genome)


@pytest.mark.slow  # installs the dependencies, then a two-node cluster: minutes
@pytest.mark.timeout(2400)
def test_a_worker_without_the_project_plays_a_study_through_the_runtime_env(tmp_path):
    worker_bin = dependencies_venv(tmp_path / "worker-venv")
    worker_env = clean_env(worker_bin)
    missing = subprocess.run([worker_bin / "python", "-c", "import evolve"], cwd=tmp_path,
                             env=worker_env, capture_output=True, text=True)
    assert "No module named 'evolve'" in missing.stderr  # the project is not installed there

    env = clean_env()  # the driver and the head: the project installed (this checkout)
    from ray._private.services import get_node_ip_address

    (port, client_port), ip = free_ports(2), get_node_ip_address()
    address = f"{ip}:{port}"
    short = Path(f"/tmp/be-rt-{os.getpid()}-{port}")  # Ray's socket paths must stay short
    head = worker = None
    try:
        head = ray_start(Path(sys.executable).parent / "ray",
                         ["--head", f"--port={port}", "--num-cpus=0", "--include-dashboard=false",
                          f"--ray-client-server-port={client_port}", f"--temp-dir={short}"],
                         tmp_path / "head.log", env, tmp_path)
        worker = ray_start(worker_bin / "ray", [f"--address={address}", "--num-cpus=2",
                                                f"--temp-dir={short}"],
                           tmp_path / "worker.log", worker_env, tmp_path)
        wait_for_cpus(address, 2, env, tmp_path)
        # the head has no CPU: every game is played on the worker node, from shipped sources
        run([sys.executable, "-m", "evolve", *TINY, "backend=ray", f"ray.address={address}",
             "ray.runtime_env.py_modules=[engine,evolve]",
             f"hydra.run.dir={tmp_path / 'cluster'}"], tmp_path, env, timeout=1200)
        # the worker node unpacked the shipped packages (the only place it imports them from)
        shipped = {p.name for p in short.glob("session_*/runtime_resources/py_modules_files/*/*")}
        assert {"engine", "evolve"} <= shipped, shipped
    finally:
        for process in (worker, head):
            if process is not None:
                stop_session(process.pid)
        shutil.rmtree(short, ignore_errors=True)
    log = (tmp_path / "cluster" / "evolve.log").read_text()
    assert re.search(r"ray: the workers' runtime_env: \{'py_modules': \[", log), log[-2000:]
    run([sys.executable, "-m", "evolve", *TINY, "backend=serial",
         f"hydra.run.dir={tmp_path / 'serial'}"], tmp_path, env)
    for name in ("games.csv", "generations.csv"):
        cluster_rows = (tmp_path / "cluster" / name).read_text().splitlines()
        serial_rows = (tmp_path / "serial" / name).read_text().splitlines()
        if name == "generations.csv":  # the same games and fitness; the wall time differs
            cluster_rows, serial_rows = (_without_time(r) for r in (cluster_rows, serial_rows))
        assert cluster_rows == serial_rows, name
    assert champion_genome(tmp_path / "cluster") == champion_genome(tmp_path / "serial")


def _without_time(rows: list[str]) -> list[list[str]]:
    header = rows[0].split(",")
    keep = [i for i, h in enumerate(header) if "seconds" not in h and "time" not in h]
    return [[r.split(",")[i] for i in keep] for r in rows]
