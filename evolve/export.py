"""Export a champion for other programs: canonical JSON, arrays-only npz, or a CS303 agent file.

    python -m evolve.export <run dir | weights file> --format json|npz|cs303 --out PATH

A run directory means its ``champion.json``. Nothing is pickled: JSON and ``.npz`` go through
``engine.reversi.weights`` (the one loader/validator), and the CS303 file is plain Python source with
the weights written as literals.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

import numpy as np

from engine.reversi.weights import FEATURE_NAMES, Weights, WeightsFileError, load_weights

FORMATS = ("json", "npz", "cs303")
TEMPLATE = Path(__file__).with_name("cs303_template.py")
BEGIN, END = "# --- BEGIN WEIGHTS (generated) ---", "# --- END WEIGHTS ---"
DEFAULT_ENDGAME_EMPTIES = 8


def resolve_source(source: str | Path) -> Path:
    """A weights file, or a run directory's ``champion.json``; ``ValueError`` if neither exists."""
    path = Path(source)
    if path.is_dir():
        champion = path / "champion.json"
        if not champion.is_file():
            raise ValueError(f"{path} is a directory without champion.json (not a run directory)")
        return champion
    if not path.exists():
        raise ValueError(f"no such file or run directory: {path}")
    return path


def _wrapped(items: list[str], per_line: int, indent: str) -> list[str]:
    """``items`` as comma-separated source lines of ``per_line`` items (short lines for lint)."""
    return [indent + ", ".join(items[i : i + per_line]) + ","
            for i in range(0, len(items), per_line)]


def weights_block(weights: Weights, variant: str, endgame_empties: int) -> str:
    """The generated constants; ``repr`` of a float round-trips exactly."""
    phase_of_discs, positional, features = weights.numba_arrays()
    lines = [BEGIN, f"NAME = {weights.name or 'champion'!r}", f"VARIANT = {variant!r}",
             "FEATURE_NAMES = (", *(f"    {n!r}," for n in FEATURE_NAMES), ")",
             "PHASE_OF_DISCS = (  # phase index for 0..64 discs on the board",
             *_wrapped([str(int(p)) for p in phase_of_discs], 16, "    "), ")",
             "POSITIONAL = (  # per phase: 64 weights, a1..h1, a2..h2, ... (square 8 * row + col)"]
    for p, row in enumerate(positional):
        lo, hi = weights.phase_discs(p)
        lines += [f"    (  # phase {p}: {lo}..{hi} discs",
                  *_wrapped([repr(float(v)) for v in row], 4, "        "), "    ),"]
    lines += [")", "FEATURES = (  # per phase: one weight per FEATURE_NAMES entry"]
    for row in features:
        lines += ["    (", *_wrapped([repr(float(v)) for v in row], 4, "        "), "    ),"]
    lines += [")", f"ENDGAME_EMPTIES = {int(endgame_empties)}", END]
    return "\n".join(lines)


def render_cs303(weights: Weights) -> str:
    """Source of the single-file CS303 agent with ``weights`` embedded."""
    variant = weights.metadata.get("variant") or "reversed"
    if variant != "reversed":
        raise ValueError(
            f"the CS303 platform plays Reversed Reversi, but these weights are for {variant!r}"
        )
    search = weights.metadata.get("search") or {}
    endgame = int(search.get("endgame_empties", DEFAULT_ENDGAME_EMPTIES))
    template = TEMPLATE.read_text()
    head, rest = template.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    provenance = json.dumps({"name": weights.name, **weights.metadata}, sort_keys=True)
    note = "".join(f"# {line}\n" for line in textwrap.wrap("Weights: " + provenance, 96))
    return head + weights_block(weights, variant, endgame) + "\n" + note + tail.lstrip("\n")


def output_path(fmt: str, out: str | Path) -> Path:
    """The file ``export`` writes for ``--out out``. The weights loader tells npz from JSON by
    the suffix, so an npz file must end in ``.npz`` (appended when there is no suffix, as
    ``numpy.savez`` itself would) and a JSON file must not."""
    out = Path(out)
    suffix = out.suffix.lower()
    if fmt == "npz" and suffix != ".npz":
        if suffix:
            raise ValueError(f"--format npz needs an --out ending in .npz, got {out}")
        return out.with_name(out.name + ".npz")
    if fmt == "json" and suffix == ".npz":
        raise ValueError(f"--format json cannot be written to a .npz path ({out})")
    return out


def export(source: str | Path, fmt: str, out: str | Path) -> Path:
    """Load and validate ``source`` and write it in ``fmt``; returns the path written (see
    ``output_path``)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (allowed: {', '.join(FORMATS)})")
    out = output_path(fmt, out)
    if out.is_dir():
        raise ValueError(f"--out {out} is a directory, not a file")
    weights = load_weights(resolve_source(source))
    out.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "json":
        weights.save_json(out)
    elif fmt == "npz":
        weights.save_npz(out)
        np.load(out, allow_pickle=False).close()  # what we promise a user: no pickle needed
    else:
        out.write_text(render_cs303(weights))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evolve.export",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("source", help="run directory (its champion.json) or weights file")
    parser.add_argument("--format", required=True, choices=FORMATS)
    parser.add_argument("--out", required=True, help="output path")
    args = parser.parse_args(argv)
    try:
        out = export(args.source, args.format, args.out)
    except (WeightsFileError, ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    note = " (.npz appended)" if str(out) != str(Path(args.out)) else ""
    print(f"wrote {out}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
