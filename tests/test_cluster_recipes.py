"""The cluster recipes of ``docs/cluster/`` (docs/ray.md), checked as far as a machine without
Docker or Kubernetes can: the YAML files parse as the launcher and KubeRay read them, every file
names the same image and the project's Ray and Python versions, and every command a recipe
shows is on docs/ray.md. The Dockerfile's commands are run on the wheel by
tests/test_install.py (slow tier)."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import ray
import yaml

ROOT = Path(__file__).resolve().parent.parent
CLUSTER = ROOT / "docs" / "cluster"
RAY_DOC = (ROOT / "docs" / "ray.md").read_text()
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
IMAGE = f"registry.example.com/board-evolve:{VERSION}"
TOOLS = ("pip ", "docker ", "ray ", "kubectl ")


def shown_commands(path: Path) -> list[str]:
    """The commands a recipe's header shows (comment lines indented under the text)."""
    lines = [line.removeprefix("#").strip() for line in path.read_text().splitlines()
             if line.startswith("#   ")]
    return [line for line in lines if line.startswith(TOOLS)]


def test_the_dockerfile_builds_on_rays_image_of_the_projects_ray_and_python():
    text = (CLUSTER / "Dockerfile").read_text()
    (base,) = re.findall(r"^FROM (\S+)$", text, re.M)
    python = f"py{sys.version_info.major}{sys.version_info.minor}"
    assert base == f"rayproject/ray:{ray.__version__}-{python}"
    assert re.search(r"^COPY dist/board_evolve-\*\.whl /tmp/wheels/$", text, re.M)
    assert "RUN pip install --no-cache-dir /tmp/wheels/board_evolve-*.whl" in text


def test_the_build_context_is_the_wheel_alone():
    ignored = [line for line in (CLUSTER / "Dockerfile.dockerignore").read_text().splitlines()
               if line and not line.startswith("#")]
    assert ignored == ["*", "!dist/board_evolve-*.whl"]  # what the Dockerfile copies


def test_the_dockerfile_runs_the_commands_the_wheel_test_runs():
    from tests.test_install import dockerfile_commands

    assert dockerfile_commands() == [
        "python -m evolve --version", "python -m engine.games",
        "python -m evolve +experiment=smoke hydra.run.dir=smoke"]


def test_the_launcher_config_runs_the_image_with_the_documented_ray_start():
    config = yaml.safe_load((CLUSTER / "cluster.yaml").read_text())
    assert config["docker"]["image"] == IMAGE
    assert config["provider"]["type"] == "local"
    assert config["head_start_ray_commands"][-1].startswith(
        "ray start --head --port=6379 --num-cpus=0")
    assert config["worker_start_ray_commands"][-1] == "ray start --address=$RAY_HEAD_IP:6379"
    assert config["min_workers"] == len(config["provider"]["worker_ips"])


def test_the_raycluster_manifest_names_the_image_and_rays_version():
    manifest = yaml.safe_load((CLUSTER / "raycluster.yaml").read_text())
    assert (manifest["apiVersion"], manifest["kind"]) == ("ray.io/v1", "RayCluster")
    spec = manifest["spec"]
    assert spec["rayVersion"] == ray.__version__
    head = spec["headGroupSpec"]
    assert head["rayStartParams"]["num-cpus"] == "0"
    images = [c["image"] for c in head["template"]["spec"]["containers"]]
    for group in spec["workerGroupSpecs"]:
        images += [c["image"] for c in group["template"]["spec"]["containers"]]
    assert set(images) == {IMAGE}


def test_every_command_a_recipe_shows_is_documented():
    for name in ("Dockerfile", "cluster.yaml", "raycluster.yaml"):
        commands = shown_commands(CLUSTER / name)
        assert commands, name
        for command in commands:
            assert command in RAY_DOC, f"{name}: {command!r} is not in docs/ray.md"


def test_the_ray_page_leads_with_the_recipes():
    sections = re.findall(r"^## (.+)$", RAY_DOC, re.M)
    assert sections[:2] == ["Cluster recipes (`docs/cluster/`)",
                            "Code to the workers: `ray.runtime_env`"]
    for name in ("Dockerfile", "cluster.yaml", "raycluster.yaml"):
        assert f"(cluster/{name})" in RAY_DOC
