"""Reversi's genome settings (``game.genome``): the kind (``weights``: square tables, the
default; ``ntuple``: an n-tuple network), phases and their disc-count bounds, symmetric
positional matrices or the network's layout and symmetry, feature groups; validated with
one-line messages naming the key. And each kind as the game uses it: ``SquareTableKind``,
``NetworkKind`` (the genome map, reference genomes, weights of a genome, figures)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import import_module

import numpy as np

from engine.core.records import GameSettingsError
from engine.core.settings import int_in, one_of, with_defaults
from engine.kernels.ntuple.genome import NetworkGenome
from engine.kernels.ntuple.layout import Layout
from engine.kernels.ntuple.settings import is_layout_file
from engine.reversi.genome.network import NtupleWeights, network_genome, network_layout
from engine.reversi.genome.projection import exact_network, projected_network

GENOME_DEFAULTS = {"phases": 3, "phase_bounds": None, "symmetric": True,
                   "features": ["mobility", "stability"], "kind": "weights", "layout": None,
                   "symmetry": None}
KINDS = ("weights", "ntuple")
NTUPLE_KEYS = ("layout", "symmetry")  # the settings of the ntuple kind alone (null otherwise)


def validated_genome(genome: Mapping) -> dict:
    """The ``weights`` kind: the same dict, rules and one-line messages as before the kinds
    (no ``kind`` key: its settings, files and runs stay as they were). The ``ntuple`` kind:
    ``kind``, ``layout``, ``symmetry``, ``phases``, ``phase_bounds``, ``features``."""
    g = with_defaults(genome, GENOME_DEFAULTS, "game.genome")
    kind = one_of("game.genome.kind", g.pop("kind"), KINDS)
    network = {key: g.pop(key) for key in NTUPLE_KEYS}
    g = _validated_common(g)
    if kind == "ntuple":
        return _validated_ntuple(g, **network)
    for key, value in network.items():
        if value is not None:
            raise GameSettingsError(f"game.genome.{key}={value} applies to "
                                    "game.genome.kind=ntuple (this genome's kind is weights)")
    return g


def _validated_common(g: dict) -> dict:
    phases, bounds = int_in("game.genome.phases", g["phases"], 1, 60), g["phase_bounds"]
    if not isinstance(g["symmetric"], bool):
        raise GameSettingsError(f"game.genome.symmetric={g['symmetric']} must be true or false")
    g["features"] = _validated_feature_groups(g["features"])
    if bounds is not None:
        b = list(bounds)
        increasing = all(x < y for x, y in zip(b, b[1:], strict=False))
        if not (increasing and all(isinstance(x, int) and 5 <= x <= 64 for x in b)):
            raise GameSettingsError(f"game.genome.phase_bounds={b} must satisfy strictly "
                                    "increasing disc counts within 5..64 (null: equal split)")
        if len(b) != phases - 1:
            raise GameSettingsError(
                f"game.genome.phase_bounds={b} must satisfy one bound per phase after the "
                f"first: {phases - 1} bounds for game.genome.phases={phases} (set "
                f"game.genome.phases={len(b) + 1} with these bounds)")
        g["phase_bounds"] = b
    return g


def _validated_ntuple(g: dict, layout, symmetry) -> dict:
    """The network's settings: ``layout`` a family spec (default ``straight2``) with
    ``symmetry`` (default d4), a layout JSON file or the layout JSON data (their own
    symmetries); ``symmetric`` must stay true (the network's sharing is ``symmetry``)."""
    from engine.kernels.ntuple.builders import GROUPS
    from engine.kernels.ntuple.layout import LayoutError
    from engine.kernels.ntuple.settings import is_layout_file
    from engine.reversi.genome.network import DEFAULT_LAYOUT

    if g.pop("symmetric") is not True:
        raise GameSettingsError("game.genome.symmetric=false applies to game.genome.kind="
                                "weights (a network shares its weights by game.genome.symmetry)")
    layout = DEFAULT_LAYOUT if layout is None else layout
    family = isinstance(layout, str) and not is_layout_file(layout)
    if symmetry is not None and not family:
        raise GameSettingsError(f"game.genome.symmetry={symmetry} applies to a family spec; "
                                "a layout file has its own symmetries (set it to null)")
    if family:
        symmetry = one_of("game.genome.symmetry", symmetry or "d4", GROUPS)
    if not (isinstance(layout, str) or isinstance(layout, Mapping)):
        raise GameSettingsError(f"game.genome.layout={layout} must be a family spec such as "
                                "straight2 or corner3+edge2x, or a layout JSON file")
    try:
        network_layout(layout, symmetry)
    except LayoutError as exc:
        shown = layout if isinstance(layout, str) else "<layout JSON>"
        raise GameSettingsError(f"game.genome.layout={shown}: {exc}") from None
    return {"kind": "ntuple", "layout": layout if isinstance(layout, str) else dict(layout),
            "symmetry": symmetry, **g}


def _validated_feature_groups(groups) -> list[str]:
    """The feature groups in catalogue order (the genome's block order, whatever the order
    given), or a one-line error naming the allowed groups."""
    from engine.reversi.genome.weights import FEATURE_GROUPS, canonical_groups

    is_list = isinstance(groups, Sequence) and not isinstance(groups, str)
    if not (is_list and all(isinstance(g, str) and g in FEATURE_GROUPS for g in groups)
            and len(set(groups)) == len(groups)):
        shown = f"[{', '.join(map(str, groups))}]" if is_list else groups
        raise GameSettingsError(f"game.genome.features={shown} must be a list of distinct "
                                f"feature groups from: {', '.join(FEATURE_GROUPS)} (default: "
                                "[mobility, stability])")
    return list(canonical_groups(groups))


def projected_reference(reference: str, phase_bounds, symmetric: bool, groups) -> np.ndarray:
    """A reference weight set re-expressed as a genome of this layout: each of our phases takes
    the reference phase that covers its middle disc count (references may have fewer phases);
    features our groups have and the reference lacks weigh 0 (the shipped references weigh
    every feature 0)."""
    from engine.reversi.files.squares_json import reference_weights
    from engine.reversi.genome.layout import MIN_DISCS, GenomeLayout, phase_of_discs_table
    from engine.reversi.genome.weights import Weights

    ref = reference_weights(reference)
    starts, ends = (MIN_DISCS, *phase_bounds), (*phase_bounds, 65)
    ref_phase_of = phase_of_discs_table(ref.phase_bounds)
    rows = [int(ref_phase_of[min(64, (s + e) // 2)]) for s, e in zip(starts, ends, strict=True)]
    layout = GenomeLayout(len(rows), symmetric, tuple(groups))
    features = np.zeros((len(rows), layout.n_features))
    for k, feature in enumerate(layout.feature_names):
        if feature in ref.feature_names:
            features[:, k] = ref.features[rows, ref.feature_names.index(feature)]
    projected = Weights(tuple(phase_bounds), np.array(ref.positional[rows], dtype=np.float64),
                        features, symmetric, name=reference, feature_groups=layout.feature_groups)
    return projected.to_genome()


class _Figures:
    """A kind's figures, report and figure of one weight set, by the functions of
    ``engine.reversi.figures`` its ``FIGURES`` names (method -> (module, function)), imported
    when first drawn: matplotlib is slow to import and a search never needs it."""

    FIGURES: dict[str, tuple[str, str]]

    def _drawing(self, method: str):
        module, function = self.FIGURES[method]
        return getattr(import_module(f"engine.reversi.figures.{module}"), function)

    def figures(self, weights, past) -> dict:
        return self._drawing("figures")(weights, past)

    def markdown(self, weights) -> str:
        return self._drawing("markdown")(weights)

    def figure(self, weights):
        return self._drawing("figure")(weights)


class SquareTableKind(_Figures):
    """The ``weights`` kind as the game uses it: the genome map, reference genomes, ``Weights``
    of a genome, figures and Markdown (``NetworkKind`` is the other kind's)."""

    def __init__(self, genome: Mapping, phase_bounds):
        self.phase_bounds = tuple(phase_bounds)
        self.symmetric, self.groups = genome["symmetric"], tuple(genome["features"])

    learns_by_td = False  # square tables do not learn by temporal differences
    FIGURES = {"figures": ("heatmaps", "weight_figures"),
               "markdown": ("report", "weights_markdown"),
               "figure": ("heatmaps", "plot_positional")}

    def layout(self):
        from engine.reversi.genome.layout import GenomeLayout

        return GenomeLayout(len(self.phase_bounds) + 1, self.symmetric, self.groups)

    def reference(self, name: str) -> np.ndarray:
        return projected_reference(name, self.phase_bounds, self.symmetric, self.groups)

    def weights(self, genome, name: str = "", metadata: Mapping | None = None):
        from engine.reversi.genome.weights import Weights

        return Weights.from_genome(np.asarray(genome, dtype=np.float64), self.phase_bounds,
                                   self.symmetric, name=name, metadata=dict(metadata or {}),
                                   groups=self.groups)



class NetworkKind(_Figures):
    """The ``ntuple`` kind as the game uses it (``SquareTableKind`` is the other kind's,
    with the same methods)."""

    def __init__(self, genome: Mapping, phase_bounds):
        self.genome, self.phase_bounds = genome, tuple(phase_bounds)
        self.network, self.family, self.symmetry = layout_of(genome)
        self._layout = None

    learns_by_td = True  # a network does (``engine.reversi.game_td``)
    FIGURES = {"figures": ("network", "network_figures"),
               "markdown": ("network", "network_markdown"),
               "figure": ("network", "plot_strongest_patterns")}

    def layout(self) -> NetworkGenome:
        if self._layout is None:  # built once: its index tables serve every TD chunk
            self._layout = network_genome(self.network, len(self.phase_bounds) + 1,
                                          self.genome["features"])
        return self._layout

    def reference(self, name: str) -> np.ndarray:
        """A reference weight set (``course``, ``wpc``, ...) as a genome of this network: its
        square tables spread over the tuples (``projected_network``)."""
        from engine.reversi.files.squares_json import reference_weights

        return projected_network(reference_weights(name), self.network, self.phase_bounds,
                                 self.genome["features"], self.family,
                                 self.symmetry).to_genome()

    def projected(self, source) -> np.ndarray:
        """``source`` (``Weights`` or ``NtupleWeights``) as a genome of this network with the
        values it had (``exact_network``)."""
        return exact_network(source, self.network, self.phase_bounds, self.genome["features"],
                             self.family, self.symmetry).to_genome()

    def weights(self, genome, name: str = "", metadata: Mapping | None = None) -> NtupleWeights:
        return NtupleWeights.from_genome(np.asarray(genome, dtype=np.float64), self.network,
                                         self.phase_bounds, self.genome["features"], name,
                                         dict(metadata or {}), self.family, self.symmetry)



def layout_of(genome: Mapping) -> tuple[Layout, str | None, str | None]:
    """The layout of validated settings, and the (family spec, symmetry) it was built from
    (``None, None`` for a file's or data's own layout)."""
    layout, symmetry = genome["layout"], genome["symmetry"]
    family = layout if isinstance(layout, str) and not is_layout_file(layout) else None
    return network_layout(layout, symmetry), family, symmetry if family else None
