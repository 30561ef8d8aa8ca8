"""Reversi's champion and weights files, all in this room, with one reader: ``read(path)``
gives the evaluation a file holds (square tables, ``Weights``, or an n-tuple network,
``NtupleWeights``), whichever form it is in, told apart by content:

- square tables: JSON (``squares_json``, schema 1) or its ``.npz`` form (``squares_npz``);
- networks: the shared form of schema 2 (``network``, JSON or ``.npz`` with ``header_json``)
  and the schema-1 files written before it (``network_v1``, JSON or ``.npz`` with ``kind``).

``read_champion`` is the same reader over a file parsed once already (``engine.core.champions.files.
ChampionDocument``): what ``ReversiGame.read_champion`` uses. ``save_evaluation`` /
``save_npz_evaluation`` write either kind.
"""

from __future__ import annotations

from pathlib import Path

from engine.core.records import Champion, ChampionFileError
from engine.reversi.files import network as network_files
from engine.reversi.files.network_v1 import (
    KIND,
    is_network_npz,
    network_from_arrays,
    network_from_dict,
)
from engine.reversi.files.squares_json import (
    _fail,
    _load_json,
    dumps,
    read_json,
    reference_weights,
    save_json,
    weights_from_dict,
    weights_to_dict,  # noqa: F401 - part of this API
)
from engine.reversi.files.squares_npz import _read_npz, load_npz, save_npz, weights_from_arrays
from engine.reversi.genome.network import NtupleWeights
from engine.reversi.genome.weights import Weights, WeightsFileError, naming_file

__all__ = ["NtupleWeights", "Weights", "WeightsFileError", "dumps", "file_settings",
           "load_evaluation", "load_weights", "read", "read_champion", "reference_weights",
           "save_evaluation", "save_json", "save_npz", "save_npz_evaluation",
           "weights_from_dict", "weights_to_dict"]

file_settings = network_files.file_settings


def load_weights(path) -> Weights:
    """A square-table file (either form); ``WeightsFileError`` naming the file and the field."""
    path = Path(path)
    if not path.is_file():
        _fail(str(path), "no such weights file")
    if path.suffix.lower() == ".npz":
        return load_npz(path)
    return _load_json(path)


def read(path) -> Weights | NtupleWeights:
    """The evaluation a Reversi file holds: square tables or an n-tuple network, told apart by
    their content (``"kind": "ntuple"``, in the npz form a ``kind`` or ``header_json`` array);
    ``WeightsFileError`` naming the file and the field."""
    path = Path(path)
    if not path.is_file():
        _fail(str(path), "no such weights file")
    if path.suffix.lower() == ".npz":
        return evaluation_of(path, _read_npz(path), npz=True)
    return evaluation_of(path, read_json(path))


load_evaluation = read  # the name every caller used before the files had a room


def evaluation_of(path: Path, data, npz: bool = False) -> Weights | NtupleWeights:
    """The evaluation of a file's parsed content: its JSON data, or (``npz``) its arrays."""
    if npz:
        if "header_json" in data:
            return network_files.load_npz(path, data)
        if is_network_npz(data):
            return network_from_arrays(path, data)
        return weights_from_arrays(path, data)
    if isinstance(data, dict) and data.get("kind") == KIND and data.get("schema_version") != 1:
        return network_files.load(path, data)
    with naming_file(path):
        if isinstance(data, dict) and data.get("kind") == KIND:
            return network_from_dict(data)
        return weights_from_dict(data)


def read_champion(document, game: str) -> Champion:
    """The ``Champion`` of ``game`` in a parsed file (``ChampionDocument``), its evaluation
    kept as read; ``ChampionFileError`` in one line naming the file and the field."""
    try:
        w = evaluation_of(document.path, document.data, document.npz)
    except WeightsFileError as exc:
        raise ChampionFileError(str(exc).splitlines()[0]) from None
    return Champion(game, w.to_genome(), file_settings(w), w.name, dict(w.metadata),
                    document.path, w)


def save_evaluation(w: Weights | NtupleWeights, path) -> None:
    """The JSON file of either kind: square tables or a network."""
    if isinstance(w, NtupleWeights):
        network_files.save(path, w)
    else:
        save_json(w, path)


def save_npz_evaluation(w: Weights | NtupleWeights, path) -> None:
    """The ``.npz`` file of either kind."""
    if isinstance(w, NtupleWeights):
        network_files.save(path, w, npz=True)
    else:
        save_npz(w, path)

