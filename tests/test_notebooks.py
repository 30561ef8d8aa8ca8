"""Every notebook runs top to bottom against a fresh smoke run (so a notebook that no longer
runs fails the build) and draws the figures it promises; notebooks are committed clean."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tests.smoke_run import ROOT, smoke_sweep_for


@pytest.fixture(scope="session")
def smoke_sweep(tmp_path_factory) -> list[Path]:
    return smoke_sweep_for(tmp_path_factory)
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def expected_images(name: str, n_runs: int) -> int:
    """Figures each notebook must show (a notebook added later must show at least one)."""
    return {
        "fitness_curves": 4 * n_runs + 1,  # strength, fitness, yardstick, diversity + comparison
        "weights": 3,  # Reversi: heatmaps, feature bars, weight history
    }.get(name, 1)


def execute(path: Path, run_dirs: list[Path], monkeypatch) -> nbformat.NotebookNode:
    notebook = nbformat.read(path, as_version=4)
    monkeypatch.setenv("BOARD_EVOLVE_RUNS", os.pathsep.join(map(str, run_dirs)))
    # the kernel starts in notebooks/ like Jupyter would, inheriting this environment
    client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    return notebook


def outputs(notebook, kind: str | None = None):
    return [o for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", [])
            if kind is None or kind in o.get("data", {})]


def test_there_are_notebooks():
    assert {p.stem for p in NOTEBOOKS} >= {"fitness_curves", "weights"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert code and all(c.outputs == [] and c.execution_count is None for c in code)
    first = code[0]
    assert "RUN_DIRS" in first.source and "parameters" in first.metadata.get("tags", [])


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_against_a_fresh_smoke_run(path, smoke_sweep, monkeypatch):
    notebook = execute(path, smoke_sweep, monkeypatch)
    assert not [o for o in outputs(notebook) if o.get("output_type") == "error"]
    images = outputs(notebook, "image/png")
    assert len(images) == expected_images(path.stem, len(smoke_sweep))
    printed = "".join(o.get("text", "") for o in outputs(notebook) if o.get("name") == "stdout")
    assert str(smoke_sweep[0]) in printed  # it read the run we pointed it at
