"""The layout's rules, checked on the source: ``evolve -> engine.core`` only, ``engine`` never
imports Ray, Hydra or ``evolve``, and no import cycle anywhere (lazy imports inside functions
count too: a cycle hidden in a function is still a cycle)."""

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "evolve")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth of the file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}


def test_evolve_imports_only_the_game_neutral_core_of_the_engine():
    offenders = {}
    for name, path in project_modules().items():
        if not name.startswith("evolve"):
            continue
        bad = {m for m in imports_of(path)
               if m.startswith("engine") and not m.startswith("engine.core")}
        if bad:
            offenders[name] = sorted(bad)
    assert offenders == {}


@pytest.mark.parametrize("forbidden", ["ray", "hydra", "omegaconf", "evolve"])
def test_the_engine_never_imports_the_pipeline_or_its_frameworks(forbidden):
    offenders = [name for name, path in project_modules().items()
                 if name.startswith("engine") and any(
                     m == forbidden or m.startswith(forbidden + ".") for m in imports_of(path))]
    assert offenders == []


def game_packages() -> tuple[str, ...]:
    """The packages of every registered game (from the plug-in registry, not a list here)."""
    from importlib.metadata import entry_points

    from engine.core.registry import GROUP

    modules = {ep.value.partition(":")[0] for ep in entry_points(group=GROUP)}
    return tuple(sorted({m.rpartition(".")[0] or m for m in modules}))


def test_the_games_come_from_the_registry_and_include_the_four_of_this_repository():
    assert {"engine.reversi", "engine.pentago", "engine.hexifence"} <= set(game_packages())


@pytest.mark.parametrize("package", ["engine.core", "engine.kernels", "evolve"])
def test_the_core_the_kernels_and_the_pipeline_import_no_game(package):
    games = game_packages()
    for name, path in project_modules().items():
        if name.startswith(package):
            assert not any(m.startswith(games) for m in imports_of(path)), name


def test_every_game_package_keeps_its_modules_in_rooms():
    """A game package's top level holds its contract and commands; the rest lives in rooms by
    role (``rules/``, ``genome/``, ``search/``, ``agents/``, ...): at most 15 modules on top."""
    crowded = {}
    for package in game_packages():
        top = ROOT.joinpath(*package.split("."))
        modules = [p.stem for p in top.glob("*.py") if p.stem != "__init__"]
        if len(modules) > 15:
            crowded[package] = sorted(modules)
    assert crowded == {}


@pytest.mark.parametrize("package", ["engine/core", "engine/kernels", "evolve/ga", "experiments",
                                     "experiments/bench", "experiments/learning"])
def test_the_shared_packages_keep_their_modules_in_rooms(package):
    """The same rule for the packages every game shares, the study and the experiments: at most
    15 modules on top."""
    modules = [p.stem for p in (ROOT / package).glob("*.py") if p.stem != "__init__"]
    assert len(modules) <= 15, sorted(modules)


GAME_NAMES_IN_SOURCE = ("reversi", "othello", "pentago", "hexifence", "cs303")


@pytest.mark.parametrize("package", ["engine/core", "engine/kernels", "evolve"])
def test_no_code_of_the_core_the_kernels_or_the_pipeline_names_a_game(package):
    """Strings count too: ``{"othello": ...}`` is game knowledge the import check cannot see.
    Docstrings and comments may mention games as examples."""
    offenders = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and not (
                    _is_docstring(node, path)):
                if any(g in node.value.lower() for g in GAME_NAMES_IN_SOURCE):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}")
    assert offenders == []


def _is_docstring(node, path) -> bool:
    return node.lineno in _docstring_lines(path)


@functools.cache
def _docstring_lines(path) -> set[int]:
    lines = set()
    for n in ast.walk(ast.parse(path.read_text())):
        if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = n.body[0] if n.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                lines.add(first.value.lineno)
    return lines


def _contract():
    """The required ``Game``, the ``Conveniences`` and every optional capability."""
    from engine.core import Game
    from engine.core.capabilities import CAPABILITIES
    from engine.core.game import Conveniences

    return (Game, Conveniences, *CAPABILITIES.values())


def test_every_registered_game_implements_the_whole_contract():
    """The required members and the ``Conveniences`` (``GameBase``'s defaults) everywhere,
    each declared capability's members where declared; nothing is discovered by
    ``getattr``."""
    from engine.core import game_names, get_game
    from engine.core.capabilities import CAPABILITIES, capabilities

    for name in game_names():
        game = get_game(name)
        for protocol in (*_contract()[:2], *(CAPABILITIES[c] for c in capabilities(game))):
            members = [m for m in dir(protocol) if not m.startswith("_")] + \
                list(protocol.__annotations__)
            missing = [m for m in members if not hasattr(game, m)]
            assert isinstance(game, protocol) and missing == [], (name, protocol, missing)


@pytest.mark.parametrize("package", ["engine/core", "evolve"])
def test_no_contract_member_is_discovered_by_getattr_or_hasattr(package):
    members = set().union(*(set(dir(p)) | set(p.__annotations__) for p in _contract()))
    offenders = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
                    and isinstance(node.args[1], ast.Constant) and node.args[1].value in members):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


def test_there_is_no_import_cycle():
    modules = project_modules()
    graph = {}
    for name, path in modules.items():
        targets = set()
        for imported in imports_of(path):
            # ``from a.b import c`` names a.b.c: keep the longest prefix that is a module
            parts = imported.split(".")
            for k in range(len(parts), 0, -1):
                candidate = ".".join(parts[:k])
                if candidate in modules:
                    targets.add(candidate)
                    break
        graph[name] = targets - {name}
    cycles = find_cycles(graph)
    assert cycles == []


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


@pytest.mark.parametrize("package, forbidden", [
    ("evolve.execution", ("evolve.ga", "evolve.arena", "evolve.analysis")),
    ("evolve.arena", ("evolve.ga",)),
    ("evolve.analysis", ("evolve.ga", "evolve.arena")),
])
def test_evolve_is_layered_execution_below_arena_below_ga(package, forbidden):
    offenders = {name: sorted(m for m in imports_of(path) if m.startswith(forbidden))
                 for name, path in project_modules().items() if name.startswith(package)}
    assert {k: v for k, v in offenders.items() if v} == {}
