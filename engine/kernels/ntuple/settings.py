"""The settings of an ``ntuple`` genome (``game.genome``), checked once for every game: the kind,
the phases, the ``features`` switch, and a ``layout`` given as a family spec, a layout JSON file
or the layout JSON itself. Each failure is one ``GameSettingsError`` line naming the key; the
game checks what is its own (which symmetries, which patterns, its feature groups).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from engine.core.records import GameSettingsError
from engine.core.settings import int_in, one_of, with_defaults
from engine.kernels.ntuple.layout import Layout, LayoutError
from engine.kernels.ntuple.layout_json import layout_from_json, load_layout

NTUPLE = "ntuple"


def is_layout_file(spec) -> bool:
    """A ``layout`` setting that names a layout JSON file (else a family spec or the data)."""
    return isinstance(spec, str | Path) and str(spec).strip().lower().endswith(".json")


def layout_from_setting(spec, family: Callable[[str], Layout], example: str) -> Layout:
    """The layout a ``layout`` setting names: the layout JSON data, a layout JSON file, or a
    spec the game's ``family`` builds (given as it was written; ``example`` shows one in the
    message). ``LayoutError`` naming what is wrong."""
    if isinstance(spec, Mapping):
        return layout_from_json(dict(spec))
    if is_layout_file(spec):
        return load_layout(Path(str(spec).strip()))
    if not isinstance(spec, str) or not spec.strip():
        raise LayoutError(f"expected a family spec such as {example!r} or a layout .json "
                          f"file, got {spec!r}")
    return family(spec)


def flag(key: str, value) -> bool:
    if not isinstance(value, bool):
        raise GameSettingsError(f"{key}={value!r} must be true or false")
    return value


def validated_kinds(genome: Mapping, plain_kind: str, plain: Mapping, ntuple: Mapping,
                    max_phases: int) -> dict:
    """``genome`` with the defaults of its kind: ``plain_kind`` (the game's other kind, the
    default, whose settings are ``plain`` and which writes no ``kind`` key) or ``ntuple``
    (``ntuple``: ``kind``, ``phases``, ``layout``, ``features`` (a switch) and the game's own
    keys). ``phases`` is checked against ``1..max_phases``; the layout is left to the game."""
    genome = dict(genome)
    kind = one_of("game.genome.kind", genome.pop("kind", plain_kind), (plain_kind, NTUPLE))
    if kind == plain_kind:
        extra = sorted(set(genome) - set(plain))
        if extra:
            own = [k for k in ntuple if k not in plain and k != "kind"]
            raise GameSettingsError(
                f"game.genome.{extra[0]}: unknown key for kind {plain_kind} (allowed: kind, "
                f"{', '.join(plain)}; {_and(own)} belong to kind {NTUPLE})")
        g = with_defaults(genome, plain, "game.genome")
    else:
        g = with_defaults({"kind": kind, **genome}, ntuple, "game.genome")
        flag("game.genome.features", g["features"])
    int_in("game.genome.phases", g["phases"], 1, max_phases)
    return g


def merged_genome(current: Mapping, given: Mapping, current_kind: str) -> dict:
    """The ``game.genome`` a ``with_settings`` call asks for: ``given`` over the current
    settings when it keeps the kind, over the current phases alone when it switches kind."""
    same_kind = given.get("kind", current_kind) == current_kind
    return {**(current if same_kind else {"phases": current["phases"]}), **given}


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
