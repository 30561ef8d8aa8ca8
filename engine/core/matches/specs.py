"""Players: an agent spec (text naming an agent) or a ``Champion`` (a loaded champion file).

Agent-spec modifiers every game understands: ``<spec>@d<N>`` plays ``<spec>`` at search depth
N, ``<spec>@d+<K>`` K plies deeper than the study's depth (``wpc_negated@d+2``): the stronger
fixed opponents a yardstick needs so that it does not saturate.

Where a user may type a champion file or run directory in place of a spec, the front end
resolves it once, at the edge (``resolve_player``), and passes the ``Champion`` on: the file is
not read again by anything that plays it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from engine.core.game import Champion, SearchSettings

_DEPTH = re.compile(r"^(?P<inner>.+)@d(?P<plus>\+?)(?P<n>[0-9]+)$")

Player = str | Champion  # an agent spec, or a champion loaded once


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


def names_file(text: str) -> bool:
    """Whether ``text`` is a champion file or run directory rather than an agent's name (a
    missing file is left to the game's spec check, which says what specs it takes)."""
    path = Path(text)
    return path.is_file() or (path / "champion.json").is_file()


def resolve_player(game, text: Player) -> Player:
    """``text`` as a player: a ``Champion`` (read once, by ``game``) when it names a champion
    file or run directory, else the agent spec itself."""
    if isinstance(text, Champion) or not names_file(str(text).strip()):
        return text
    from engine.core.champions.files import load_champion

    return load_champion(str(text).strip(), game)


def make_agent(game, player: Player, search: SearchSettings, seed=None):
    """The agent of ``player``: a ``Champion`` plays its genome (``Game.champion_agent``), a
    spec is ``game.make_panel_agent`` with the ``@d`` modifiers applied."""
    if isinstance(player, Champion):
        return game.champion_agent(player, search, seed)
    inner, settings = split_depth(player, search)
    return game.make_panel_agent(inner, settings, seed=seed)


def check_spec(game, player: Player) -> None:
    if isinstance(player, Champion):
        return
    inner, _ = split_depth(player, SearchSettings())
    game.check_spec(inner)
