"""Hexifence behind the game-neutral contract (``engine.core.game.Game``).

Player 0 is blue (moves first), player 1 red; margins are blue cells minus red cells. A move id
is ``row * (4N-1) + col`` on the course's edge grid, written ``"row col"``. A capture keeps the
turn, so ``to_move`` may stay the same after a move. Settings: ``size`` (N, default 3) and
``genome``: ``{phases: P}`` (the ``features`` kind, the default: weights of
``engine.hexifence.genome.evaluation``'s features) or ``{kind: ntuple, phases, layout, features}``
(a pattern network, ``engine.hexifence.genome.network``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from engine.core.agent import Seed
from engine.core.base import GameBase
from engine.core.champions.files import ChampionDocument
from engine.core.game import (
    JSON_EXPORT,
    Champion,
    GameSettingsError,
    GenomeSpec,
    SearchSettings,
)
from engine.core.settings import int_in
from engine.hexifence.export.comp30024 import COMP30024_EXPORT
from engine.hexifence.game_states import HexifenceStates
from engine.hexifence.genome import network as nw
from engine.hexifence.genome import weights as W
from engine.hexifence.rules.board import MAX_SIZE, board
from engine.hexifence.rules.state import PLAYER_NAMES, State
from engine.kernels.ntuple.game import NetworkGenomeFigures
from engine.kernels.ntuple.settings import merged_genome

SIMPLE_SPECS = ("random", "greedy", "safe", "chain")
SEARCH_SPECS = ("alphabeta", "reference", "margin", "perfect")


class HexifenceGame(HexifenceStates, NetworkGenomeFigures, GameBase):
    name = "hexifence"
    network_package = "engine.hexifence"  # its figures.network module (NetworkGenomeFigures)
    description = "Hexifence: hexagonal dots-and-boxes (Melbourne COMP30024), most cells wins"
    players = PLAYER_NAMES
    margin_unit = "cells"
    result_columns = ("blue_cells", "red_cells")
    seed_references = ("reference",)
    default_panel = ("random", "greedy", "safe", "chain")
    cli_commands = {"solve": "engine.hexifence.solve", "play": "engine.hexifence.play"}
    export_formats = (JSON_EXPORT, COMP30024_EXPORT)
    capabilities = frozenset({"genomes", "files", "td", "figures", "export", "commands"})

    def __init__(self, size: int = 3, phases: int = 3, genome: Mapping | None = None):
        self.size = size
        self.phases = phases
        self.board = board(size)
        self.genome = dict(genome or {"phases": phases})
        self.network = nw.network_of(size, self.genome) if self.kind == "ntuple" else None

    def __repr__(self) -> str:
        if self.kind == "ntuple":
            return f"HexifenceGame(size={self.size}, genome={self.genome})"
        return f"HexifenceGame(size={self.size}, phases={self.phases})"

    @property
    def kind(self) -> str:
        return self.genome.get("kind", "features")

    def features_game(self) -> HexifenceGame:
        """The ``features`` genome on this board: the seed weights' own game."""
        return self if self.network is None else HexifenceGame(self.size, self.phases)

    # --- configuration and genome ---------------------------------------------------------
    def with_settings(self, settings: Mapping[str, Any]) -> HexifenceGame:
        settings = dict(settings or {})
        unknown = set(settings) - {"size", "genome"}
        if unknown:
            raise GameSettingsError(f"game.{sorted(unknown)[0]}: unknown setting (allowed: "
                                    "size, genome)")
        size = int_in("game.size", settings.get("size", self.size), 1, MAX_SIZE)
        given = settings.get("genome") or {}
        if not isinstance(given, Mapping):
            raise GameSettingsError(f"game.genome={given!r} must be a mapping")
        genome = nw.validated_genome(merged_genome(self.genome, given, self.kind), size)
        if genome.get("kind") == "ntuple":
            nw.build_layout(size, genome["layout"])  # GameSettingsError naming the layout
        return HexifenceGame(size, genome["phases"], genome)

    def settings(self) -> dict:
        return {"size": self.size, "genome": dict(self.genome)}

    def genome_spec(self) -> GenomeSpec:
        return W.genome_spec(self.phases) if self.network is None else self.network.spec

    def reference_genome(self, reference: str) -> np.ndarray:
        if self.network is not None:
            return nw.reference_genome(self.network, reference)
        return W.reference_genome(reference, self.phases)

    def reference_names(self) -> tuple[str, ...]:
        return W.REFERENCES

    def moves_left(self, state: State) -> int:
        return (state.empty_edges + 1) // 2

    def progress(self, state: State) -> float:
        return state.drawn / self.board.n_edges

    def phase_of(self, state: State) -> int:
        return state.drawn * self.phases // (self.board.n_edges + 1)

    def td_learn(self, genome: np.ndarray, games: int, seed: Seed, alpha: float,
                 epsilon: float) -> np.ndarray:
        if self.network is None:
            return super().td_learn(genome, games, seed, alpha, epsilon)
        from engine.hexifence.td.selfplay import td_learn

        return td_learn(self, genome, games, seed, alpha, epsilon)

    # --- agents ---------------------------------------------------------------------------
    def make_agent(self, genome: np.ndarray, search: SearchSettings, seed: Seed = None,
                   name: str = ""):
        from engine.hexifence.agents.alphabeta import AlphaBetaAgent

        if self.network is not None:
            net, feat = self.network.split(genome)
            network = (nw.nodes(self.size).node_of_edge, self.network.tables, net,
                       self.network.mode)
            return AlphaBetaAgent(feat, self.size, search.depth, search.time_limit,
                                  search.endgame_empties, name=name, network=network)
        phases = len(genome) // len(W.FEATURES)
        return AlphaBetaAgent(W.weights_matrix(genome, phases), self.size, search.depth,
                              search.time_limit, search.endgame_empties, name=name)

    def make_panel_agent(self, spec: str, search: SearchSettings, seed: Seed = None):
        from engine.hexifence.agents import simple as agents
        from engine.hexifence.agents.chain import ChainAgent

        self.check_spec(spec)
        simple = {"random": agents.RandomAgent, "greedy": agents.GreedyAgent,
                  "safe": agents.SafeAgent, "chain": ChainAgent}
        if spec in simple:
            return simple[spec](seed)
        if spec == "perfect":
            return agents.PerfectAgent(self.size)
        if spec in ("alphabeta", "reference", "margin"):
            ref = "margin" if spec == "margin" else "reference"
            features = self.features_game()
            return features.make_agent(features.reference_genome(ref), search, seed, name=spec)
        return self.champion_agent(self.load_champion(spec), search, seed)

    def champion_agent(self, champion: Champion, search: SearchSettings, seed: Seed = None):
        """A feature genome plays on any board size; a network only on the board it was laid
        out on."""
        if champion.settings["genome"].get("kind") != "ntuple":
            return self.features_game().make_agent(champion.genome, search, seed,
                                                   name=champion.label)
        game = self.with_settings(champion.settings)
        if game.size != self.size:
            raise ValueError(f"{champion.provenance}: its network was laid out on the "
                             f"N={game.size} board; this game has size={self.size}")
        return game.make_agent(champion.genome, search, seed, name=champion.label)

    def check_spec(self, spec: str) -> None:
        if spec in SIMPLE_SPECS or spec in SEARCH_SPECS:
            if spec == "perfect" and self.size != 2:
                raise ValueError(f"agent 'perfect' plays N=2 only (this game has size="
                                 f"{self.size})")
            return
        if isinstance(spec, str) and spec.endswith(".json") and Path(spec).is_file():
            return
        raise ValueError(f"unknown agent spec {spec!r} (allowed: {', '.join(self.agent_specs())})")

    def spec_searches(self, spec: str) -> bool:
        from engine.core.matches.specs import split_depth

        inner, _ = split_depth(spec, SearchSettings())
        return inner.strip() not in SIMPLE_SPECS

    def fixed_search(self, spec: str) -> str | None:
        from engine.core.base import NO_SEARCH
        from engine.core.matches.specs import split_depth

        return {"random": NO_SEARCH,
                "greedy": "depth 2, a capture, else the edge that hands over the fewest cells",
                "safe": "depth 2, a capture, else a safe edge, else the smallest sacrifice",
                "chain": "no tree search, chain rules: captures and double-deals, a safe "
                         "edge, the smallest sacrifice"}.get(split_depth(spec, SearchSettings())[0])

    def agent_specs(self) -> tuple[str, ...]:
        """``perfect`` (the exact solver) only where it plays: N=2."""
        search = SEARCH_SPECS if self.size == 2 else tuple(s for s in SEARCH_SPECS
                                                            if s != "perfect")
        return (*SIMPLE_SPECS, *search, "<champion.json>")

    # --- files and figures ----------------------------------------------------------------
    def save_champion(self, path: str | Path, genome: np.ndarray, name: str = "",
                      metadata: Mapping | None = None) -> None:
        if self.network is not None:
            from engine.hexifence.files import network

            return network.save(path, self, genome, name, metadata)
        from engine.hexifence.files import features

        phases = len(genome) // len(W.FEATURES)
        settings = {"size": self.size, "genome": {"phases": phases}}
        features.save_champion(path, genome, settings, name, metadata)

    def read_champion(self, document: ChampionDocument) -> Champion:
        """A champion file of either genome kind, configured by the file's own settings (not
        this game's): ``engine.hexifence.files.read_champion``."""
        from engine.hexifence import files

        return files.read_champion(document, GAME)

    def export(self, champion: Champion | Path, fmt: str, out: Path, **options) -> None:
        """``comp30024``: the course's Java player (``engine.hexifence.export.comp30024``); its
        options are that format's."""
        if fmt != COMP30024_EXPORT.name:
            return super().export(champion, fmt, out, **options)
        from engine.hexifence.export import comp30024
        comp30024.export(self, champion, out, **options)

    def genome_figure(self, genome: np.ndarray, title: str = ""):
        if self.network is not None:
            return None
        from matplotlib.figure import Figure

        phases = len(genome) // len(W.FEATURES)
        matrix = W.weights_matrix(genome, phases)
        fig = Figure(figsize=(7, 1.2 + 0.45 * phases))
        ax = fig.add_subplot()
        limit = max(1e-9, float(np.abs(matrix).max()))
        ax.imshow(matrix, cmap="coolwarm", vmin=-limit, vmax=limit, aspect="auto")
        ax.set_xticks(range(len(W.FEATURES)), W.FEATURES, rotation=45, ha="right", fontsize=8)
        ax.set_yticks(range(phases), [f"phase {k}" for k in range(phases)])
        for (k, f), v in np.ndenumerate(matrix):
            ax.text(f, k, f"{v:.2f}", ha="center", va="center", fontsize=7)
        ax.set_title(title or "Hexifence evaluation weights")
        fig.tight_layout()
        return fig


GAME = HexifenceGame()
