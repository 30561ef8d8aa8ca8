"""The layout's rules, checked on the source: ``evolve -> engine.core`` only, ``engine`` never
imports Ray, Hydra or ``evolve``, and no import cycle anywhere (lazy imports inside functions
count too: a cycle hidden in a function is still a cycle)."""

import ast
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


def test_the_core_knows_no_game():
    games = ("engine.reversi", "engine.pentago", "engine.hexifence")
    for name, path in project_modules().items():
        if name.startswith("engine.core") and name != "engine.core.registry":
            assert not any(m.startswith(games) for m in imports_of(path)), name


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
