"""Pentago Twist's champion files, all in this room, with one reader: ``read_champion`` gives
the champion a parsed file holds, of either genome kind, told apart by content:

- the ``features`` genome: ``GameBase``'s JSON (schema 1, one weight per gene name);
- the ``ntuple`` genome: the network file (``network``, schema 2).
"""

from __future__ import annotations

from engine.core import Champion, ChampionFileError, GameBase
from engine.pentago.files import network


def read_champion(document, game) -> Champion:
    """The champion in a parsed file (``ChampionDocument``) of either genome kind, configured by
    the file's own settings (``game``: the unconfigured game)."""
    if document.npz:
        raise ChampionFileError(f"{document.path}: {game.name} champion files are JSON")
    data = document.data
    if data.get("schema_version") == 1 or "kind" not in data:
        return GameBase.read_champion(game, document)
    return network.load(document.path, data, game.with_settings)
