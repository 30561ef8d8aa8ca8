"""Othello and Reversed Reversi behind the game-neutral contract (``engine.core.game.Game``).

The genome is of one of two kinds (``game.genome.kind``): ``weights`` (the default), a
``Weights`` layout (per-phase positional matrix + the feature weights of the chosen feature
groups; ``phases``, ``phase_bounds`` in discs, ``symmetric``, ``features``: the groups, by
default ``[mobility, stability]``), or ``ntuple``, an ``NtupleWeights`` network per phase
(``layout``, ``symmetry``) plus the same feature groups (``engine.reversi.genome.network``; both
kinds as the game uses them: ``engine.reversi.genome.settings``).
A state is a ``Position``; move ids are squares 0..63 (a1 = 0, b1 = 1, ..., h8 = 63) and
``PASS`` (64). Champion files are the Reversi weights files (``engine.reversi.files``)
or network files (``engine.reversi.files.network``); networks learn by TD self-play
(``engine.reversi.td.selfplay``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from engine.core import JSON_EXPORT, Agent, GameBase, Seed
from engine.core.records import (
    Champion,
    GameSettingsError,
    GenomeSpec,
    SearchSettings,
)
from engine.reversi.export.comp90054 import COMP90054_EXPORT
from engine.reversi.export.cs303 import CS303_EXPORT, NPZ_EXPORT
from engine.reversi.game_files import ReversiFiles
from engine.reversi.game_labels import ReversiLabels
from engine.reversi.game_states import ReversiStates
from engine.reversi.game_td import ReversiTD
from engine.reversi.genome.settings import NetworkKind, SquareTableKind, validated_genome
from engine.reversi.rules.state import Position, Variant
from engine.reversi.search.settings import EXACT_SOLVERS

WEIGHTS_CACHE_SIZE = 256  # genomes whose Weights a game keeps (a population plus anchors)


BOARD_SQUARES = 64


class ReversiGame(ReversiStates, ReversiFiles, ReversiTD, ReversiLabels, GameBase):
    """One variant of Reversi with its genome settings (``with_settings`` makes a copy)."""

    players = ("black", "white")
    margin_unit = "discs"
    result_columns = ("black_discs", "white_discs", "black_score")
    export_formats = (JSON_EXPORT, NPZ_EXPORT, CS303_EXPORT, COMP90054_EXPORT)
    cli_commands = {"perft": "engine.reversi.perft", "solve": "engine.reversi.solve",
                    "play": "engine.reversi.play"}
    capabilities = frozenset({"genomes", "files", "td", "figures", "export", "commands",
                              "labels"})

    def __init__(self, name: str, variant: Variant | str, description: str, seed_references,
                 default_panel, genome: Mapping | None = None, endgame_solver: str = "pvs"):
        self.name, self.description = name, description
        self.variant = Variant.parse(variant)
        self.seed_references = tuple(seed_references)
        self.default_panel = tuple(default_panel)
        self.genome = validated_genome(genome or {})
        if endgame_solver not in EXACT_SOLVERS:
            raise GameSettingsError(f"game.endgame_solver={endgame_solver} must be one of: "
                                    f"{', '.join(EXACT_SOLVERS)}")
        self.endgame_solver = endgame_solver  # "negamax": replays older games
        self.cli_selectors = {"variant": self.variant.value}  # --variant othello|reversed
        self._weights_cache: dict[bytes, object] = {}
        self._kind_model = None  # SquareTableKind or NetworkKind, made when first needed

    def __repr__(self) -> str:
        return f"ReversiGame({self.name!r}, genome={self.genome})"

    def cli_arguments(self, command: str) -> list[str]:
        """``--game reversed_reversi`` means ``--variant reversed`` to the Reversi CLIs."""
        return [] if command == "perft" else ["--variant", self.variant.value]

    # --- configuration and genome ------------------------------------------------------------
    def with_settings(self, settings: Mapping) -> ReversiGame:
        unknown = set(settings) - {"genome", "endgame_solver"}
        if unknown:
            raise GameSettingsError(f"game.{sorted(unknown)[0]}: unknown setting for {self.name}"
                                    f" (allowed: genome, endgame_solver)")
        genome = settings.get("genome", {})
        kept = self.genome if genome.get("kind", self.kind) == self.kind else {}
        return ReversiGame(self.name, self.variant, self.description, self.seed_references,
                           self.default_panel, {**kept, **genome},
                           settings.get("endgame_solver", self.endgame_solver))

    def settings(self) -> dict:
        return {"genome": dict(self.genome, phase_bounds=list(self.phase_bounds)),
                "endgame_solver": self.endgame_solver}

    @property
    def phase_bounds(self) -> tuple[int, ...]:
        from engine.reversi.genome.weights import default_phase_bounds

        bounds = self.genome["phase_bounds"]
        return tuple(bounds) if bounds is not None else default_phase_bounds(self.genome["phases"])

    @property
    def kind(self) -> str:
        """``weights`` (square tables) or ``ntuple`` (a network)."""
        return self.genome.get("kind", "weights")

    @property
    def network(self):
        """The ``NetworkGenome`` of an ``ntuple`` genome (``None`` for square tables)."""
        return self.layout() if self.kind == "ntuple" else None

    @property
    def symmetric(self) -> bool:
        return self.genome.get("symmetric", True)

    @property
    def feature_groups(self) -> tuple[str, ...]:
        return tuple(self.genome["features"])

    def model(self):
        """What this genome kind does: ``SquareTableKind`` or (``ntuple``) ``NetworkKind``."""
        if self._kind_model is None:
            if self.kind == "ntuple":
                self._kind_model = NetworkKind(self.genome, self.phase_bounds)
            else:
                self._kind_model = SquareTableKind(self.genome, self.phase_bounds)
        return self._kind_model

    def layout(self):
        """Where each gene lives: a ``GenomeLayout`` or (``ntuple``) a ``NetworkGenome``."""
        return self.model().layout()

    def genome_spec(self) -> GenomeSpec:
        layout = self.layout()
        low, high = layout.default_bounds()
        return GenomeSpec(tuple(layout.names), dict(layout.blocks), low, high)

    def reference_names(self) -> tuple[str, ...]:
        from engine.reversi.genome.weights import REFERENCE_NAMES

        return REFERENCE_NAMES

    def check_search(self, search: SearchSettings) -> None:
        super().check_search(search)
        if search.endgame_empties > BOARD_SQUARES:
            raise GameSettingsError(f"search.endgame_empties={search.endgame_empties} must "
                                    f"satisfy 0 <= endgame_empties <= {BOARD_SQUARES}")

    def reference_genome(self, reference: str) -> np.ndarray:
        return self.model().reference(reference)

    def moves_left(self, state: Position) -> int:
        return (state.empties + 1) // 2

    def progress(self, state: Position) -> float:
        return (60 - state.empties) / 60

    def phase_of(self, state: Position) -> int:
        from engine.reversi.genome.weights import phase_of_discs_table

        return int(phase_of_discs_table(self.phase_bounds)[64 - state.empties])

    def weights(self, genome: np.ndarray, name: str = "", metadata: Mapping | None = None):
        """The genome as evaluation weights: ``Weights`` or (``ntuple``) ``NtupleWeights``."""
        return self.model().weights(genome, name, metadata)

    def _cached_weights(self, genome):
        """``Weights`` of a genome, built (and validated) once per genome rather than once per
        game: a generation plays every individual in many games, each making a fresh agent."""
        key = np.asarray(genome, dtype=np.float64).tobytes()
        weights = self._weights_cache.pop(key, None) or self.weights(genome)
        self._weights_cache[key] = weights  # most recent last
        if len(self._weights_cache) > WEIGHTS_CACHE_SIZE:
            self._weights_cache.pop(next(iter(self._weights_cache)))
        return weights

    # --- agents --------------------------------------------------------------------------------
    def make_agent(self, genome, search: SearchSettings, seed: Seed = None,
                   name: str = "") -> Agent:
        from engine.reversi.agents.alphabeta import AlphaBetaAgent

        weights = genome if hasattr(genome, "to_genome") else self._cached_weights(genome)
        return AlphaBetaAgent(weights, variant=self.variant.value, depth=search.depth,
                              time_limit=search.time_limit,
                              endgame_empties=search.endgame_empties, seed=seed,
                              exact_solver=self.endgame_solver,
                              **({"name": name} if name else {}))

    def make_panel_agent(self, spec: str, search: SearchSettings, seed: Seed = None) -> Agent:
        from engine.reversi.agents.factory import make_agent

        return make_agent(spec, self.variant.value, depth=search.depth,
                          time_limit=search.time_limit, seed=seed,
                          endgame_empties=search.endgame_empties,
                          exact_solver=self.endgame_solver)

    def check_spec(self, spec: str) -> None:
        from engine.reversi.agents.factory import load_spec_weights, parse_spec

        parsed = parse_spec(spec)
        if parsed.weights is not None:
            load_spec_weights(parsed.weights, parsed.kind)

    def spec_searches(self, spec: str) -> bool:
        from engine.core.matches.specs import split_depth
        from engine.reversi.agents.factory import parse_spec

        inner, _ = split_depth(spec, SearchSettings())
        return parse_spec(inner).kind == "alphabeta"

    def fixed_search(self, spec: str) -> str | None:
        from engine.core.base import NO_SEARCH
        from engine.core.matches.specs import split_depth
        from engine.kernels.search.mcts import DEFAULT_PLAYOUTS
        from engine.reversi.agents.factory import parse_spec

        parsed = parse_spec(split_depth(spec, SearchSettings())[0])
        fewest = "fewest" if self.variant == Variant.REVERSED else "most"
        text = {"random": NO_SEARCH,
                "greedy": f"depth 1, greedy by the {fewest} discs flipped, no exact endgame",
                "wpc1": "depth 1, greedy by its positional weights, no exact endgame",
                "mcts": f"Monte Carlo tree search, {parsed.budget or DEFAULT_PLAYOUTS} play-outs"
                        " per move",
                "bfs": f"best-first search, {parsed.budget or 20_000} nodes per move"
                }.get(parsed.kind)
        if text and parsed.epsilon is not None:
            text += f", a random move with probability {parsed.epsilon:g}"
        return text

    def agent_specs(self) -> tuple[str, ...]:
        from engine.reversi.agents.factory import AGENT_SPECS

        return (*AGENT_SPECS, "mcts:<playouts>", "bfs:<nodes>", "wpc1:<weights>",
                "eps<p>:<spec>", "<weights file .json/.npz>")

    def recognizes(self, header: dict) -> bool:
        """Reversi weights files name the family (``"game": "reversi"``) and the rules in
        ``variant`` (or ``metadata.game_name``); files of a registered name are ours too."""
        if header.get("game") == self.name:
            return True
        if header.get("game") not in ("reversi", None):
            return False
        meta = header.get("metadata") if isinstance(header.get("metadata"), dict) else {}
        if meta.get("game_name") in (OTHELLO.name, REVERSED_REVERSI.name):
            return meta["game_name"] == self.name
        return header.get("game") == "reversi" and header.get("variant") == self.variant.value

    def champion_agent(self, champion: Champion, search: SearchSettings, seed: Seed = None
                       ) -> Agent:
        """Alpha-beta with the champion's evaluation as read (square tables or a network),
        under these rules and this exact solver."""
        evaluation = champion.evaluation
        if evaluation is None:
            evaluation = self.with_settings(champion.settings).weights(
                champion.genome, champion.name, champion.metadata)
        return self.make_agent(evaluation, search, seed, name=champion.label)


OTHELLO = ReversiGame(
    "othello", Variant.OTHELLO, "Othello: 8x8 Reversi, more discs wins",
    seed_references=("course", "wpc"),
    # measured (experiments/results/yardstick_panels.md): a generation-0 champion scores
    # 70% / 55% / 42% against the literature WPC at the study's depth, +1 and +2 plies
    default_panel=("wpc", "wpc@d+1", "wpc@d+2", "course"))
REVERSED_REVERSI = ReversiGame(
    "reversed_reversi", Variant.REVERSED,
    "Reversed Reversi (CS303 course game): 8x8 Reversi, fewer discs wins",
    seed_references=("course", "wpc_negated"),
    # measured (experiments/results/yardstick_panels.md): a generation-0 champion scores
    # 50% / 35% / 24% against the negated WPC at the study's depth, +1 and +2 plies
    default_panel=("wpc_negated", "wpc_negated@d+1", "wpc_negated@d+2", "course"))

