"""Agent-spec modifiers every game understands: ``<spec>@d<N>`` plays ``<spec>`` at search depth
N, ``<spec>@d+<K>`` K plies deeper than the study's depth (``wpc_negated@d+2``): the stronger
fixed opponents a yardstick needs so that it does not saturate."""

from __future__ import annotations

import re
from dataclasses import replace

from engine.core.game import SearchSettings

_DEPTH = re.compile(r"^(?P<inner>.+)@d(?P<plus>\+?)(?P<n>[0-9]+)$")


def split_depth(spec: str, search: SearchSettings) -> tuple[str, SearchSettings]:
    """(inner spec, search settings to build it with); ``ValueError`` for a depth below 1."""
    match = _DEPTH.match(spec.strip())
    if not match:
        return spec, search
    n = int(match["n"])
    depth = search.depth + n if match["plus"] else n
    if depth < 1:
        raise ValueError(f"agent spec {spec!r}: the depth must be >= 1")
    return match["inner"], replace(search, depth=depth)


def make_agent(game, spec: str, search: SearchSettings, seed=None):
    """``game.make_panel_agent`` with the ``@d`` modifiers applied."""
    inner, settings = split_depth(spec, search)
    return game.make_panel_agent(inner, settings, seed=seed)


def check_spec(game, spec: str) -> None:
    inner, _ = split_depth(spec, SearchSettings())
    game.check_spec(inner)
