"""The committed study runs (``experiments/runs/<study>``) still reproduce: the command their
``PROVENANCE.md`` names (``experiments.provenance.today_command``: the recorded overrides with
the settings added since pinned back) gives the same population, fitness, games and champion. A
whole study takes minutes (``slow``); the default set replays the first generations of the
cheapest one, which must match the committed rows exactly (generation g never depends on how
many generations follow).

Allowed differences: ``wall_seconds``, the champion's run directory and config hash, and for the
legacy runs the columns the tables gained since they were made.

A table pruned from a committed run (``experiments/runs/README.md``) is compared through its
digests in ``experiments/runs/pruned.csv`` (``table_digests``): the same cells, generation by
generation, as the table itself would be."""

import csv
import hashlib
import io
import json
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

from evolve.ga.loop import run
from experiments.provenance import RUNS, today_command

ROOT = Path(__file__).resolve().parents[3]
PRUNED = RUNS / "pruned.csv"  # path (under RUNS), part (file | header | generation), rows, sha256
TABLES = ("individuals.csv", "generations.csv", "games.csv", "yardstick_games.csv")


def rows(path: Path, generations: int | None = None) -> list[list[str]]:
    """The header and the rows of the first ``generations`` generations (all: None)."""
    with open(path, newline="") as f:
        header, *body = list(csv.reader(f))
    return [header, *(r for r in body if generations is None or int(r[0]) < generations)]


def champion(path: Path) -> dict:
    d = json.loads(path.read_text())
    for key in ("run_dir", "config_hash"):
        d["metadata"]["provenance"].pop(key)
    return d


def replay(committed: Path, run_dir: Path, *extra: str) -> None:
    """Run the committed study's provenance command serially (any backend gives the same
    result)."""
    overrides = [o for o in today_command(committed)
                 if not o.startswith(("backend=", "hydra."))]
    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base="1.3"):
        cfg = compose("config", overrides=[*overrides, "backend=serial", "plot=false",
                                           "progress=false", *extra])
    run(cfg, run_dir=run_dir)


def assert_same_tables(committed: Path, got: Path, generations: int | None = None) -> None:
    """Every committed column matches (a legacy run has fewer: the later ones are ignored)."""
    for table in TABLES:
        if not (committed / table).is_file():
            assert_same_digests(committed / table, got / table, generations)
            continue
        old = rows(committed / table, generations)
        new = rows(got / table)
        width = len(old[0])
        assert new[0][:width] == old[0], table
        skip = old[0].index("wall_seconds") if "wall_seconds" in old[0] else width
        assert [without(r, skip, width) for r in new] == [without(r, skip, width) for r in old], \
            table


def without(row: list[str], skip: int, width: int) -> list[str]:
    """The first ``width`` cells but the one at ``skip`` (the wall time)."""
    return row[:skip] + row[skip + 1:width]


def digest(table: list[list[str]]) -> str:
    """SHA-256 of ``table`` written as CSV (``csv.writer``, one ``\\n`` per row)."""
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(table)
    return hashlib.sha256(text.getvalue().encode()).hexdigest()


def table_digests(path: Path, width: int | None = None) -> dict[str, tuple[int, str]]:
    """``part: (rows, sha256)`` of a table as ``assert_same_tables`` compares it: its header
    (``rows`` is its width), then each generation's rows, cut to ``width`` cells (the committed
    header's; all: None) without the wall time."""
    header, *body = rows(path)
    width = len(header) if width is None else width
    skip = header.index("wall_seconds") if "wall_seconds" in header[:width] else width
    by_generation: dict[str, list[list[str]]] = {}
    for r in body:
        by_generation.setdefault(r[0], []).append(without(r, skip, width))
    return {"header": (width, digest([header[:width]])),
            **{g: (len(t), digest(t)) for g, t in by_generation.items()}}


def manifest_rows(path: Path) -> list[dict]:
    """The rows of ``pruned.csv`` for the committed table ``path``, before it is pruned: its
    whole file (``file``: data rows, SHA-256 of its bytes) and ``table_digests``."""
    name = path.relative_to(RUNS).as_posix()
    parts = {"file": (len(rows(path)) - 1, hashlib.sha256(path.read_bytes()).hexdigest()),
             **table_digests(path)}
    return [{"path": name, "part": p, "rows": n, "sha256": h} for p, (n, h) in parts.items()]


def pruned_digests(path: Path) -> dict[str, tuple[int, str]]:
    """The digests ``pruned.csv`` keeps of a pruned table (its whole file's too: ``file``)."""
    name = path.relative_to(RUNS).as_posix()
    with open(PRUNED, newline="") as f:
        found = {r["part"]: (int(r["rows"]), r["sha256"]) for r in csv.DictReader(f)
                 if r["path"] == name}
    assert found, f"{name} is neither committed nor in {PRUNED.name}"
    return found


def assert_same_digests(committed: Path, got: Path, generations: int | None) -> None:
    """``got`` has the cells of the pruned table ``committed``, generation by generation."""
    kept = pruned_digests(committed)
    kept.pop("file")
    new = table_digests(got, width=kept["header"][0])
    if generations is not None:
        kept = {p: d for p, d in kept.items() if p == "header" or int(p) < generations}
    differ = [p for p in dict.fromkeys([*kept, *new]) if kept.get(p) != new.get(p)]
    assert list(new.items()) == list(kept.items()), \
        f"{committed.name}: {', '.join(differ) or 'the order of the generations'} differ"


@pytest.mark.slow
@pytest.mark.timeout(3600)  # a whole default study, serial
@pytest.mark.parametrize("study", ["reversed_reversi", "othello",
                                   pytest.param("othello_league", marks=pytest.mark.claims)])
def test_a_committed_run_reproduces(study, tmp_path):
    committed = RUNS / study
    replay(committed, tmp_path)
    assert_same_tables(committed, tmp_path)
    assert champion(tmp_path / "champion.json") == champion(committed / "champion.json")


@pytest.mark.parametrize("study", ["othello_league", "legacy/othello_league"])
def test_the_first_generations_of_a_committed_run_reproduce(study, tmp_path):
    """The default set's representative: two generations of the 1-ply Othello League study
    (1520 round-robin games each, seconds), as made today and as made by the older Elo code."""
    committed = RUNS / study
    replay(committed, tmp_path, "ga.generations=2", "playoff.enabled=false")
    assert_same_tables(committed, tmp_path, generations=2)
    assert len(rows(tmp_path / "individuals.csv")) == 1 + 2 * 20
