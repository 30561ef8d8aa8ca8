"""Pentago Twist's champion files, all in this room, with one reader: ``read_champion`` gives
the champion a parsed file holds, of either genome kind, told apart by content:

- the ``features`` genome: ``GameBase``'s JSON (schema 1, one weight per gene name);
- the ``ntuple`` genome: the network file (``network``, schema 2).
"""

from __future__ import annotations

from functools import partial

from engine.core import Champion, GameBase
from engine.kernels.ntuple.files import read_either_kind
from engine.pentago.files import network


def read_champion(document, game) -> Champion:
    """The champion in a parsed file (``ChampionDocument``) of either genome kind, configured by
    the file's own settings (``game``: the unconfigured game)."""
    return read_either_kind(document, game, partial(GameBase.read_champion, game), network.load)
