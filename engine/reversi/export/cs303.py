"""The CS303 course platform's single-file agent with a champion's weights embedded.

The agent is plain Python source (numpy only) assembled from the parts in ``cs303_template/``
(``base.py`` and the ``PARTS``; the numba parts unless ``--numba off``); the weights are written
as literals (``repr`` of a float round-trips exactly), so nothing is pickled.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from engine.core.records import DROP_IN_DEPTH, DROP_IN_ENDGAME, ExportFormat, Option
from engine.reversi.genome.weights import Weights

NPZ_EXPORT = ExportFormat("npz", ".npz", "the same weights as numpy arrays (no pickle)")
NUMBA_OPTION = Option("numba", str, "on (default): the search also compiled by numba in a "
                      "background thread, used once ready where the platform has numba; off: "
                      "pure Python only")
CS303_EXPORT = ExportFormat(
    "cs303", ".py", "a single-file CS303 course agent (numpy; numba where the platform has it)",
    (DROP_IN_DEPTH, DROP_IN_ENDGAME, NUMBA_OPTION))
PARTS_FOLDER = Path(__file__).with_name("cs303_template")
# the pure-Python agent: base.py with these parts, in this order, between its PARTS markers
PARTS = ("rules", "evaluation", "search", "endgame", "fixed_depth")
PARTS_BEGIN, PARTS_END = "# --- BEGIN PARTS ---", "# --- END PARTS ---\n"
PART_BEGIN, PART_END = "# --- BEGIN PART ---\n", "# --- END PART ---"
BEGIN, END = "# --- BEGIN WEIGHTS (generated) ---", "# --- END WEIGHTS ---"
NUMBA_BEGIN, NUMBA_END = "# --- BEGIN NUMBA SEARCH ---", "# --- END NUMBA SEARCH ---"
SOLVER_BEGIN, SOLVER_END = "# --- BEGIN NUMBA SOLVER ---", "# --- END NUMBA SOLVER ---"
DRIVER_BEGIN, DRIVER_END = "# --- BEGIN NUMBA DRIVER ---", "# --- END NUMBA DRIVER ---"
DEFAULT_ENDGAME_EMPTIES = 8


def _wrapped(items: list[str], per_line: int, indent: str) -> list[str]:
    """``items`` as comma-separated source lines of ``per_line`` items (short lines for lint)."""
    return [indent + ", ".join(items[i : i + per_line]) + ","
            for i in range(0, len(items), per_line)]


def weights_block(weights: Weights, variant: str, endgame_empties: int,
                  depth: int | None = None) -> str:
    """The generated constants; ``repr`` of a float round-trips exactly."""
    phase_of_discs, positional, _ = weights.numba_arrays()
    lines = [BEGIN, f"NAME = {weights.name or 'champion'!r}", f"VARIANT = {variant!r}",
             "FEATURE_NAMES = (", *(f"    {n!r}," for n in weights.feature_names), ")",
             "PHASE_OF_DISCS = (  # phase index for 0..64 discs on the board",
             *_wrapped([str(int(p)) for p in phase_of_discs], 16, "    "), ")",
             "POSITIONAL = (  # per phase: 64 weights, a1..h1, a2..h2, ... (square 8 * row + col)"]
    for p, row in enumerate(positional):
        lo, hi = weights.phase_discs(p)
        lines += [f"    (  # phase {p}: {lo}..{hi} discs",
                  *_wrapped([repr(float(v)) for v in row], 4, "        "), "    ),"]
    lines += [")", "FEATURES = (  # per phase: one weight per FEATURE_NAMES entry"]
    for row in weights.features:
        lines += ["    (", *_wrapped([repr(float(v)) for v in row], 4, "        "), "    ),"]
    fixed = "None" if depth is None else str(int(depth))
    lines += [")", f"ENDGAME_EMPTIES = {int(endgame_empties)}", f"FIXED_DEPTH = {fixed}", END]
    return "\n".join(lines)


def render_cs303(weights: Weights, depth: int | None = None,
                 endgame_empties: int | None = None, numba: str | None = None) -> str:
    """Source of the single-file CS303 agent with ``weights`` embedded: iterative deepening
    within the platform's time limit (``numba`` "on", the default: with the numba search
    compiled in the background), or (``depth``) exactly the engine's agent at that depth.
    ``endgame_empties`` defaults to the weights' own search settings."""
    variant, endgame = drop_in_options(weights.metadata, depth, endgame_empties)
    block = weights_block(weights, variant, endgame, depth)
    template = template_source()
    if numba_wanted(numba, depth):
        template = with_numba_search(template)
    return with_block(template, block, weights)


def part(name: str) -> str:
    """The source of ``cs303_template/<name>.py``."""
    return (PARTS_FOLDER / f"{name}.py").read_text()


def template_source(parts: tuple[str, ...] = PARTS) -> str:
    """The pure-Python agent with the template's weights: ``base.py`` with ``parts`` (a
    selection of ``PARTS``, in their order)."""
    head, tail = around(part("base"), PARTS_BEGIN, PARTS_END)
    return head + "".join(inside(part(name), PART_BEGIN, PART_END) for name in parts) + tail


def numba_wanted(numba: str | None, depth: int | None) -> bool:
    """Whether ``--numba`` asks for the numba search (default on); ``ValueError`` for a value
    other than on/off, or for on with a fixed depth (which plays pure Python, to the bit)."""
    if numba not in (None, "on", "off"):
        raise ValueError(f"--numba {numba}: allowed values are on, off")
    if numba == "on" and depth is not None:
        raise ValueError("--numba on applies to the time-limited agent; a --depth agent is "
                         "pure Python")
    return numba != "off" and depth is None


def with_numba_search(template: str) -> str:
    """``template`` with its pure-Python stubs of the numba section replaced by the numba parts
    (``cs303_template/``): the search's kernels (``numba_search.py``), the solver's
    (``numba_solver.py``) and the driver (``numba_driver.py``)."""
    parts = [inside(part("numba_search"), NUMBA_BEGIN, NUMBA_END),
             inside(part("numba_solver"), SOLVER_BEGIN, SOLVER_END),
             inside(part("numba_driver"), DRIVER_BEGIN, DRIVER_END)]
    head, tail = around(template, NUMBA_BEGIN, NUMBA_END)
    body = "\n\n".join(part.strip("\n") for part in parts)
    return head + NUMBA_BEGIN + "\n" + body + "\n" + NUMBA_END + tail


def inside(text: str, begin: str, end: str) -> str:
    """What ``text`` holds between the ``begin`` and ``end`` markers."""
    return text.split(begin, 1)[1].split(end, 1)[0]


def around(text: str, begin: str, end: str) -> tuple[str, str]:
    """What ``text`` holds before the ``begin`` marker and after the ``end`` marker."""
    head, rest = text.split(begin, 1)
    return head, rest.split(end, 1)[1]


def drop_in_options(metadata: dict, depth: int | None,
                    endgame_empties: int | None) -> tuple[str, int]:
    """(variant, endgame empties) of a CS303 agent of weights with ``metadata``; ``ValueError``
    for options or weights the platform cannot take."""
    if depth is not None and depth < 1:
        raise ValueError(f"--depth {depth} must be >= 1")
    if endgame_empties is not None and not 0 <= endgame_empties <= 20:
        raise ValueError(f"--endgame-empties {endgame_empties} must satisfy 0 <= empties <= 20")
    variant = metadata.get("variant") or "reversed"
    if variant != "reversed":
        raise ValueError(
            f"the CS303 platform plays Reversed Reversi, but these weights are for {variant!r}"
        )
    search = metadata.get("search") or {}
    endgame = int(search.get("endgame_empties", DEFAULT_ENDGAME_EMPTIES)) \
        if endgame_empties is None else int(endgame_empties)
    return variant, endgame


def with_block(template: str, block: str, weights) -> str:
    """``template`` with ``block`` between its weights markers, then a note of the weights'
    name and metadata."""
    head, tail = around(template, BEGIN, END)
    provenance = json.dumps({"name": weights.name, **weights.metadata}, sort_keys=True)
    note = "".join(f"# {line}\n" for line in textwrap.wrap("Weights: " + provenance, 96))
    return head + block + "\n" + note + tail.lstrip("\n")
