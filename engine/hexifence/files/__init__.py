"""Hexifence's champion files, all in this room, with one reader: ``read_champion`` gives the
champion a parsed file holds, of either genome kind, told apart by content:

- the ``features`` genome: its weights per phase (``features``, schema 1);
- the ``ntuple`` genome: the network file (``network``, schema 2).
"""

from __future__ import annotations

from engine.core import Champion
from engine.hexifence.files import features, network
from engine.kernels.ntuple.files import read_either_kind


def read_champion(document, game) -> Champion:
    """The champion in a parsed file (``ChampionDocument``) of either genome kind, configured by
    the file's own settings (``game``: the unconfigured game)."""
    return read_either_kind(document, game, features.read_champion, network.load)
