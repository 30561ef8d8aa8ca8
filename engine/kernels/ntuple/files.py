"""Champion files of ``ntuple`` genomes, written once for every game that keeps the shared form:
JSON (no pickle) that says what it holds, so another program can evaluate a position without
our code, one line per top-level field::

    {"game": "<game>", "schema_version": 2, "kind": "ntuple", "name": "...",
     "settings": {..., "genome": {"kind": "ntuple", "phases": 3, "layout": ..., ...}},
     "layout": {...},           the layout JSON (docs/patterns.md)
     ...                        the game's own description: cells or nodes, states, symmetry
     "phases": {"count": 3, "rule": "how a position's phase is found"},
     "value": "...",            how the weights make a value, in words
     "weights": [[...], ...],   per phase, layout.n_weights numbers
     "feature_weights": {"names": [...], "weights": [[...], ...]},   only with features
     "metadata": {...}}

Schema version 2 (the integer) tells these files apart from a game's feature-genome files
(version 1). Every problem is one ``ChampionFileError`` line naming the file and the field: an
unknown top-level field, or a header field that contradicts the settings (``phases.count`` not
``settings.genome.phases``, ``symmetry`` not ``settings.genome.symmetry``, ``phase_discs`` not
one ``[first, last]`` range per phase, phases 1.. starting at ``settings.genome.phase_bounds``),
is refused rather than ignored: a reader without our code trusts them.

The ``.npz`` twin (``save_npz``; read with ``allow_pickle=False``): arrays ``schema_version``
(2), ``weights`` ``[phases, n_weights]``, ``feature_weights`` ``[phases, F]`` (only with
features) and ``header_json``, the JSON document without those two arrays; it reads back into
the same document and is validated as the JSON file (``document_of_arrays``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core.champions.files import check_header
from engine.core.records import Champion, ChampionFileError, GameSettingsError
from engine.kernels.ntuple.layout import Layout, LayoutError
from engine.kernels.ntuple.layout_json import layout_from_json, layout_to_json
from engine.kernels.ntuple.settings import NTUPLE

SCHEMA_VERSION = 2
FIELDS = ("game", "schema_version", "kind", "name", "settings", "layout", "phases", "value",
          "weights", "feature_weights", "metadata")  # written for every game
HEADER_FIELDS = ("cells", "nodes", "states", "symmetry", "phase_discs")  # the games' own


def one_line_per_field(doc: Mapping) -> str:
    """JSON with one line per top-level field: the header reads at a glance, arrays stay
    compact."""
    return "{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in doc.items()) + \
        "\n}\n"


NPZ_ARRAYS = {"schema_version": ("iu", 0), "header_json": ("U", 0), "weights": ("iuf", 2),
              "feature_weights": ("iuf", 2)}  # name -> (dtype kinds, dimensions)


@dataclass(frozen=True)
class NetworkFile:
    """A game's network champion files: its name in them, ``value`` (how its weights make a
    value, in words) and the largest weight a sound file holds (a larger one is a broken
    file). The feature weights are named as the genome names them (``NetworkGenome.
    feature_names``)."""

    game: str
    value: str
    max_weight: float

    def document(self, game, genome, header: Mapping, phase_rule: str, name: str = "",
                 metadata: Mapping | None = None) -> dict:
        """The file's data for ``genome`` of ``game`` (its ``settings()`` and ``network``, a
        ``NetworkGenome``); ``header``: the game's own fields (``HEADER_FIELDS``, what ``load``
        accepts), after the layout."""
        if not set(header) <= set(HEADER_FIELDS):
            raise ValueError(f"header: fields must be among {', '.join(HEADER_FIELDS)}, got "
                             f"{sorted(header)}")
        network = game.network
        net, feat = network.split(genome)
        doc = {"game": self.game, "schema_version": SCHEMA_VERSION, "kind": NTUPLE,
               "name": name, "settings": game.settings(),
               "layout": layout_to_json(network.layout), **header,
               "phases": {"count": network.phases, "rule": phase_rule},
               "value": self.value, "weights": net.tolist()}
        if network.features:
            doc["feature_weights"] = {"names": list(network.feature_names),
                                      "weights": feat.tolist()}
        doc["metadata"] = dict(metadata or {})
        return doc

    def save(self, path: str | Path, game, genome, header: Mapping, phase_rule: str,
             name: str = "", metadata: Mapping | None = None) -> None:
        """Write the JSON file of ``genome`` (``document``)."""
        doc = self.document(game, genome, header, phase_rule, name, metadata)
        Path(path).write_text(one_line_per_field(doc), encoding="utf-8")

    def save_npz(self, path: str | Path, game, genome, header: Mapping, phase_rule: str,
                 name: str = "", metadata: Mapping | None = None) -> None:
        """Write the ``.npz`` twin of the JSON file (module docstring)."""
        doc = self.document(game, genome, header, phase_rule, name, metadata)
        arrays = {"weights": np.array(doc.pop("weights"), dtype=np.float64)}
        if "feature_weights" in doc:
            block = doc["feature_weights"] = dict(doc["feature_weights"])
            arrays["feature_weights"] = np.array(block.pop("weights"), dtype=np.float64)
        np.savez(path, schema_version=np.int64(SCHEMA_VERSION),
                 header_json=np.str_(json.dumps(doc, allow_nan=False)), **arrays)

    def document_of_arrays(self, path, arrays: Mapping[str, np.ndarray]) -> dict:
        """The JSON document an ``.npz`` file's arrays hold, for ``load`` to validate;
        ``ChampionFileError`` naming the array when they are not what ``save_npz`` writes."""
        unknown = sorted(set(arrays) - set(NPZ_ARRAYS))
        missing = [k for k in ("schema_version", "header_json", "weights") if k not in arrays]
        if unknown or missing:
            raise ChampionFileError(f"{path}: arrays must be {', '.join(NPZ_ARRAYS)} "
                                    f"(missing {missing}, unknown {unknown})")
        for key, (kinds, ndim) in NPZ_ARRAYS.items():
            if key in arrays and (arrays[key].dtype.kind not in kinds or arrays[key].ndim != ndim):
                raise ChampionFileError(f"{path}: {key}: an array of {ndim} dimension(s) and "
                                        f"kind {kinds} expected, got shape "
                                        f"{arrays[key].shape} of {arrays[key].dtype}")
        try:
            doc = json.loads(str(arrays["header_json"]))
        except (json.JSONDecodeError, RecursionError):
            raise ChampionFileError(f"{path}: header_json: not valid JSON") from None
        if not isinstance(doc, dict) or int(arrays["schema_version"]) != doc.get(
                "schema_version"):
            raise ChampionFileError(f"{path}: header_json must be an object whose "
                                    "schema_version is the schema_version array")
        block = doc.get("feature_weights")
        if "weights" in doc or (isinstance(block, dict) and "weights" in block):
            raise ChampionFileError(f"{path}: header_json must not hold weights (the weights "
                                    "and feature_weights arrays do)")
        doc["weights"] = arrays["weights"].tolist()
        if ("feature_weights" in arrays) != isinstance(block, dict):
            raise ChampionFileError(f"{path}: feature_weights: the array and the header's "
                                    "feature_weights come together")
        if isinstance(block, dict):
            doc["feature_weights"] = {**block, "weights": arrays["feature_weights"].tolist()}
        return doc

    def load(self, path: str | Path, data: dict, make_game: Callable[[dict, Layout], object]
             ) -> Champion:
        """The champion in ``data`` (read from ``path``); ``make_game(settings, layout)`` is
        the game the file's settings configure (``GameSettingsError`` if they are bad), given
        the file's layout for settings that name a layout file the reader may not have."""
        check_header(path, data, self.game, SCHEMA_VERSION)
        unknown = sorted(set(data) - set(FIELDS) - set(HEADER_FIELDS))
        if unknown:
            raise ChampionFileError(f"{path}: unknown top-level field(s) {unknown}; allowed: "
                                    f"{', '.join(FIELDS + HEADER_FIELDS)}")
        if data.get("kind") != NTUPLE:
            raise ChampionFileError(f"{path}: kind={data.get('kind')!r}, expected {NTUPLE!r}")
        settings = data.get("settings")
        if not isinstance(settings, dict) or not isinstance(settings.get("genome"), dict):
            raise ChampionFileError(f"{path}: settings must be an object holding "
                                    "{\"genome\": {...}}")
        try:
            layout = layout_from_json(data.get("layout"))
        except LayoutError as exc:
            raise ChampionFileError(f"{path}: layout: {exc}") from None
        try:
            game = make_game(settings, layout)
        except GameSettingsError as exc:
            raise ChampionFileError(f"{path}: settings: {exc}") from None
        network = game.network
        if network is None:
            raise ChampionFileError(f"{path}: settings.genome.kind must be {NTUPLE!r}")
        if layout != network.layout:
            raise ChampionFileError(f"{path}: layout does not match settings.genome.layout="
                                    f"{network.layout.name}")
        self._check_header(path, data, game)
        net = self.matrix(path, data.get("weights"), "weights", network.phases,
                          layout.n_weights)
        metadata = data.get("metadata", {})
        return Champion(game.name, network.join(net, self._features(path, data, network)),
                        game.settings(), str(data.get("name", "")),
                        metadata if isinstance(metadata, dict) else {})

    def _check_header(self, path, data: dict, game) -> None:
        """``ChampionFileError`` when the descriptive fields contradict the settings of
        ``game`` (the file's, as loaded): a reader without our code goes by them."""
        phases, genome = game.network.phases, game.settings()["genome"]
        block = data.get("phases")
        if not (isinstance(block, dict) and set(block) == {"count", "rule"}
                and type(block["count"]) is int and block["count"] == phases
                and isinstance(block["rule"], str)):
            raise ChampionFileError(f"{path}: phases must be {{\"count\": {phases}, \"rule\": "
                                    "\"...\"} (settings.genome.phases, one weights row each)")
        own = data["settings"]["genome"]
        if "symmetry" in own and data.get("symmetry") != own["symmetry"]:
            raise ChampionFileError(f"{path}: symmetry must be settings.genome.symmetry="
                                    f"{own['symmetry']!r}")
        if "phase_discs" in data and not _phase_ranges(data["phase_discs"], phases,
                                                       genome.get("phase_bounds")):
            raise ChampionFileError(f"{path}: phase_discs must be {phases} [first, last] "
                                    "ranges in order, phases 1.. starting at "
                                    f"settings.genome.phase_bounds={genome.get('phase_bounds')}")

    def _features(self, path, data: dict, network) -> np.ndarray | None:
        if not network.features:
            if "feature_weights" in data:
                raise ChampionFileError(f"{path}: feature_weights present but settings say "
                                        "features: false")
            return None
        block = data.get("feature_weights")
        names = list(network.feature_names)
        if not isinstance(block, dict) or block.get("names") != names:
            raise ChampionFileError(f"{path}: feature_weights.names must be {names} "
                                    "(settings say features: true)")
        return self.matrix(path, block.get("weights"), "feature_weights.weights",
                           network.phases, len(names))

    def matrix(self, path, rows, field: str, phases: int, width: int) -> np.ndarray:
        """``rows`` as a ``[phases, width]`` float array of finite weights within
        ``max_weight``."""
        try:
            matrix = np.array(rows, dtype=np.float64)
        except (TypeError, ValueError):
            raise ChampionFileError(f"{path}: {field} must be [phases][{width}] numbers") \
                from None
        if matrix.shape != (phases, width):
            raise ChampionFileError(f"{path}: {field} must be [{phases}][{width}] numbers (one "
                                    f"row per phase), got shape {list(matrix.shape)}")
        if not np.all(np.isfinite(matrix)) or np.abs(matrix).max(initial=0) > self.max_weight:
            raise ChampionFileError(f"{path}: {field} must be finite with |w| <= "
                                    f"{self.max_weight:g}")
        return matrix


def read_either_kind(document, game, read_features: Callable[[object], Champion],
                     load_network: Callable[[Path, dict, Callable[[dict], object]], Champion]
                     ) -> Champion:
    """The champion in a parsed file (``ChampionDocument``) of a game whose files are JSON, its
    feature genome's of version 1 (``read_features(document)``) and its networks' of this form
    (``load_network(path, data, game.with_settings)``: configured by the file's own settings;
    ``game``, the unconfigured game)."""
    if document.npz:
        raise ChampionFileError(f"{document.path}: {game.name} champion files are JSON")
    data = document.data
    if data.get("schema_version") == 1 or "kind" not in data:
        return read_features(document)
    return load_network(document.path, data, game.with_settings)


def _phase_ranges(ranges, phases: int, bounds) -> bool:
    """Whether ``ranges`` is one ``[first, last]`` integer range per phase, each starting
    right after the one before, phases 1.. at ``bounds`` when the settings have them."""
    if not (isinstance(ranges, list) and len(ranges) == phases and all(
            isinstance(r, list) and len(r) == 2 and all(type(v) is int for v in r)
            and r[0] <= r[1] for r in ranges)):
        return False
    starts = [r[0] for r in ranges[1:]]
    return starts == [r[1] + 1 for r in ranges[:-1]] and (
        not isinstance(bounds, list | tuple) or starts == list(bounds))
