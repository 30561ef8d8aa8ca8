"""The COMP90054 course framework's Othello agent (``agents/<team>/myTeam.py``) with a
champion's weights embedded, for square tables and n-tuple networks alike.

The file is the CS303 agent's source (``cs303.template_source()``: rules, evaluation, the
engine's fixed-depth search; for a network with ``cs303_template/ntuple.py``'s evaluation)
without its platform part, followed by ``comp90054_template.py``'s part (the exact solver's
move, the timed search with a transposition table, ``myAgent``). Top-level definitions are found
with ``ast``, so every template stays plain Python.
"""

from __future__ import annotations

import ast
import json
import textwrap
from pathlib import Path

from engine.core.records import DROP_IN_DEPTH, DROP_IN_ENDGAME, ExportFormat, Option
from engine.reversi.export.cs303 import (
    BEGIN,
    END,
    NUMBA_BEGIN,
    NUMBA_END,
    PARTS,
    around,
    part,
    template_source,
    weights_block,
)
from engine.reversi.export.cs303_ntuple import _with_network_evaluation, network_block
from engine.reversi.genome.network import NtupleWeights

COMP90054_EXPORT = ExportFormat(
    "comp90054", "/", "the COMP90054 course framework's Othello agent: <out>/agents/<team>/"
    "myTeam.py (Python 3.8, standard library only)",
    (DROP_IN_DEPTH,
     DROP_IN_ENDGAME,
     Option("move_ms", int, "milliseconds per move (default 1000, the course's)"),
     Option("first_move_ms", int, "milliseconds for the agent's first move "
            "(default 15000, the course's)"),
     Option("team", str, "the team folder under agents/ (default t_000)")))
PART = Path(__file__).with_name("comp90054_template.py")
AGENT_MARK = "# --- BEGIN AGENT ---"
SETTINGS = ("# --- BEGIN SETTINGS (generated) ---", "# --- END SETTINGS ---")
PLATFORM_MARK = "# --- platform interface"  # where the CS303 agent's platform part starts
# the CS303 agent's iterative deepening, and its exact endgame part (the COMP90054 agent deepens
# with its own ``TimedSearch``, a ``Searcher``, and solves in the engine solver's move order)
WITHOUT_ENDGAME = tuple(p for p in PARTS if p != "endgame")
DROPPED = ("deepening_schedule", "search_root", "will_solve", "deepen", "SAFETY")
DEFAULT_TEAM = "t_000"
FRAMEWORK_IMPORT = "from template import Agent"  # moved up to the file's imports


def _without(source: str, names: tuple[str, ...]) -> str:
    """``source`` without its top-level definitions (functions, classes, constants) ``names``."""
    lines = source.splitlines()
    spans = []
    for node in ast.parse(source).body:
        targets = [node.name] if isinstance(node, ast.FunctionDef | ast.ClassDef) else \
            [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
        if set(targets) & set(names):
            spans.append((node.lineno - 1, node.end_lineno))
    for a, b in sorted(spans, reverse=True):
        del lines[a:b]
    return "\n".join(lines) + "\n"


def _base(network: bool) -> str:
    """The CS303 agent's rules, evaluation and fixed-depth search, without numpy, its
    docstring, its numba stubs or its platform part."""
    source = template_source(WITHOUT_ENDGAME)
    if network:
        source = _with_network_evaluation(source, part("ntuple"))
    source = source.split(PLATFORM_MARK, 1)[0].rstrip() + "\n"
    head, tail = around(source, NUMBA_BEGIN, NUMBA_END)  # the numba stubs: no numba here
    source = head.rstrip("\n") + tail
    source = _without(source, DROPPED)
    first = ast.parse(source).body[0]  # the docstring
    lines = source.splitlines()[first.end_lineno:]
    return ("\n".join(lines) + "\n").replace("import numpy as np\n\n", "", 1)


def _settings(move_seconds: float, first_move_seconds: float) -> str:
    return "\n".join([
        SETTINGS[0],
        f"MOVE_SECONDS = {float(move_seconds)!r}  # the framework's limit per move",
        f"FIRST_MOVE_SECONDS = {float(first_move_seconds)!r}  # for the agent's first move",
        "SAFETY = 0.7  # share of the limit the search may use (the rest covers Python "
        "overheads)",
        SETTINGS[1]])


def render_comp90054(weights, endgame_empties: int, depth: int | None = None,
                     move_seconds: float = 1.0, first_move_seconds: float = 15.0) -> str:
    """Source of ``myTeam.py`` with ``weights`` (``Weights`` or ``NtupleWeights``) embedded."""
    if depth is not None and depth < 1:
        raise ValueError(f"--depth {depth} must be >= 1")
    if not 0 <= endgame_empties <= 20:
        raise ValueError(f"--endgame-empties {endgame_empties} must satisfy 0 <= empties <= 20")
    for flag, seconds in (("--move-ms", move_seconds), ("--first-move-ms", first_move_seconds)):
        if not seconds > 0:
            raise ValueError(f"{flag} {round(1000 * seconds)} must be > 0")
    variant = weights.metadata.get("variant") or "othello"
    if variant != "othello":
        raise ValueError(f"the COMP90054 framework plays Othello, but these weights are for "
                         f"{variant!r}")
    network = isinstance(weights, NtupleWeights)
    block = (network_block if network else weights_block)(weights, "othello", endgame_empties,
                                                          depth)
    base = _base(network)
    head, rest = base.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    part = PART.read_text()
    doc = ast.get_docstring(ast.parse(part))
    kind = "an n-tuple network evaluation" if network else "square tables and features"
    doc = doc.replace("EVALUATION", kind)
    agent = part.split(AGENT_MARK, 1)[1].replace(FRAMEWORK_IMPORT + "\n", "", 1)
    head = head.replace("import time\n", f"import time\n\n{FRAMEWORK_IMPORT}\n", 1)
    before, after = agent.split(SETTINGS[0], 1)
    agent = before + _settings(move_seconds, first_move_seconds) + after.split(SETTINGS[1], 1)[1]
    provenance = json.dumps({"name": weights.name, **weights.metadata}, sort_keys=True)
    note = "".join(f"# {line}\n" for line in textwrap.wrap("Weights: " + provenance, 96))
    return (f'"""{doc}\n"""\n' + head.lstrip("\n") + block + "\n" + note + tail.lstrip("\n")
            + "\n\n" + agent.strip("\n") + "\n")


def write_comp90054(weights, out, endgame_empties: int, depth: int | None = None,
                    move_ms: int | None = None, first_move_ms: int | None = None,
                    team: str | None = None) -> Path:
    """Write ``out/agents/<team>/myTeam.py`` (``out``: the framework's checkout); returns it."""
    team = DEFAULT_TEAM if team is None else team
    if not team.isidentifier():
        raise ValueError(f"--team {team!r} must be a Python identifier (the framework imports "
                         f"agents.<team>.myTeam)")
    source = render_comp90054(weights, endgame_empties, depth,
                              1.0 if move_ms is None else move_ms / 1000,
                              15.0 if first_move_ms is None else first_move_ms / 1000)
    path = Path(out) / "agents" / team / "myTeam.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source)
    return path


def export_comp90054(champion, out, depth: int | None = None,
                     endgame_empties: int | None = None, **options) -> Path:
    """``python -m evolve.export CHAMPION --format comp90054 --out DIR`` of a loaded
    ``Champion`` (a path is read here): the exact endgame defaults to the champion's recorded
    search (``engine.core.champions.search``)."""
    from engine.core.champions.files import as_champion
    from engine.core.champions.search import champion_search
    from engine.core.records import SearchSettings

    champion = as_champion(champion)
    weights = champion.evaluation
    if endgame_empties is None:
        endgame_empties = champion_search(champion, SearchSettings()).search.endgame_empties
    return write_comp90054(weights, out, int(endgame_empties), depth, **options)
