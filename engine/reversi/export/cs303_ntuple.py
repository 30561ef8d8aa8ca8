"""The CS303 single-file agent for an n-tuple network (``game.genome.kind: ntuple``).

The file is the square-table agent (``cs303.template_source()``: rules, features, search,
platform interface) with three parts taken from ``cs303_template/ntuple.py``: its docstring, its
generated constants (the network's instances and weights) and its evaluation functions
(``network_value``, ``evaluate``, ``evaluate_in_engine_order``), which replace the square-table
ones. Functions are found with ``ast``, so the parts stay plain Python.
"""

from __future__ import annotations

import ast
import textwrap

from engine.reversi.export.cs303 import (
    BEGIN,
    END,
    _wrapped,
    drop_in_options,
    numba_wanted,
    part,
    template_source,
    with_block,
    with_numba_search,
)
from engine.reversi.genome.network import NtupleWeights

REPLACED = ("evaluate", "evaluate_in_engine_order")  # the square-table agent's evaluation
ADDED = ("network_value",)


def network_block(w: NtupleWeights, variant: str, endgame_empties: int,
                  depth: int | None = None) -> str:
    """The generated constants; ``repr`` of a float round-trips exactly."""
    phase_of_discs, _, weights, _ = w.numba_arrays()
    lines = [BEGIN, f"NAME = {w.name or 'champion'!r}", f"VARIANT = {variant!r}",
             "FEATURE_NAMES = (", *(f"    {n!r}," for n in w.feature_names), ")",
             "PHASE_OF_DISCS = (  # phase index for 0..64 discs on the board",
             *_wrapped([str(int(p)) for p in phase_of_discs], 16, "    "), ")",
             "POSITIONAL = (  # per phase: the square table the network implies (move order)"]
    for p, row in enumerate(w.square_values()):
        lines += [f"    (  # phase {p}", *_wrapped([repr(float(v)) for v in row], 4, "        "),
                  "    ),"]
    lines += [")", "FEATURES = (  # per phase: one weight per FEATURE_NAMES entry"]
    for row in w.features:
        lines += ["    (", *_wrapped([repr(float(v)) for v in row], 4, "        "), "    ),"]
    lines += [")", *textwrap.wrap(w.layout.describe(), 96, initial_indent="# ",
                                  subsequent_indent="# "), "INSTANCES = ("]
    offsets = w.layout.lut_offsets
    lines += [f"    ({int(offsets[lut])}, ({', '.join(map(str, cells))},)),"
              for lut, cells in w.layout.instances]
    lines += [")", "NETWORK = (  # per phase: every table's weights, one after another"]
    for p, row in enumerate(weights):
        lo, hi = w.phase_discs(p)
        lines += [f"    (  # phase {p}: {lo}..{hi} discs",
                  *_wrapped([repr(float(v)) for v in row], 3, "        "), "    ),"]
    fixed = "None" if depth is None else str(int(depth))
    lines += [")", f"ENDGAME_EMPTIES = {int(endgame_empties)}", f"FIXED_DEPTH = {fixed}", END]
    return "\n".join(lines)


def _functions(source: str) -> dict[str, tuple[int, int]]:
    """Top-level function name -> (first line index, end line index) of its source."""
    return {node.name: (node.lineno - 1, node.end_lineno)
            for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)}


def _docstring_lines(source: str) -> tuple[int, int]:
    first = ast.parse(source).body[0]
    return first.lineno - 1, first.end_lineno


def _with_network_evaluation(base: str, part: str) -> str:
    """``base`` with ``part``'s docstring and with its evaluation functions in place of the
    square-table ones (``network_value`` just before ``evaluate``)."""
    lines, part_lines = base.splitlines(), part.splitlines()
    theirs = _functions(part)
    source = {name: "\n".join(part_lines[a:b]) for name, (a, b) in theirs.items()}
    source["evaluate"] = source["network_value"] + "\n\n\n" + source["evaluate"]
    ours = _functions(base)
    for name in sorted(REPLACED, key=lambda n: -ours[n][0]):  # from the bottom up
        a, b = ours[name]
        lines[a:b] = source[name].splitlines()
    a, b = _docstring_lines(base)
    pa, pb = _docstring_lines(part)
    lines[a:b] = part_lines[pa:pb]
    return "\n".join(lines) + "\n"


def render_cs303_network(w: NtupleWeights, depth: int | None = None,
                         endgame_empties: int | None = None, numba: str | None = None) -> str:
    """Source of the single-file CS303 agent evaluating with the network ``w`` (as
    ``cs303.render_cs303`` for square tables: the same options and checks)."""
    variant, endgame = drop_in_options(w.metadata, depth, endgame_empties)
    template = template_source()
    if numba_wanted(numba, depth):
        template = with_numba_search(template)
    template = _with_network_evaluation(template, part("ntuple"))
    return with_block(template, network_block(w, variant, endgame, depth), w)
