"""Pentago Twist behind the game-neutral contract (``engine.core.game.Game``).

Player 0 is white (moves first), player 1 black. A state is a ``State`` (two stone masks);
move ids are ``(x * 6 + y) * 8 + a * 2 + b`` (0..287), written ``"x y a b"`` as in the course.
The margin is in wins: +1 white won, -1 black won, 0 a draw. The genome (``game.genome``) is of
one of two kinds: ``features`` (the default: the per-phase own/opp feature weights of
``engine.pentago.genome.evaluation``, setting ``phases``: equal slices of 0..36 stones) or
``ntuple`` (a pattern network, ``engine.pentago.genome.network``: ``phases``, ``layout``,
``symmetry``, ``features``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

from engine.core import (
    JSON_EXPORT,
    Champion,
    GameSettingsError,
    GenomeSpec,
    SearchSettings,
)
from engine.core.agent import Agent, Seed
from engine.core.base import GameBase
from engine.core.champions.files import ChampionDocument
from engine.kernels.ntuple.game import NetworkGenomeFigures
from engine.kernels.ntuple.settings import merged_genome
from engine.pentago.agents import factory as specs
from engine.pentago.export.comp424 import COMP424_EXPORT
from engine.pentago.game_states import PentagoStates
from engine.pentago.genome import network as nw
from engine.pentago.genome import weights as genes
from engine.pentago.genome.evaluation import phase_table
from engine.pentago.rules import state as st


class PentagoTwistGame(PentagoStates, NetworkGenomeFigures, GameBase):
    """Pentago Twist with its genome settings (``with_settings`` makes a copy)."""

    name = "pentago_twist"
    network_package = "engine.pentago"  # its figures.network module (NetworkGenomeFigures)
    description = ("Pentago Twist (McGill COMP 424): 6x6, place a stone then rotate a quadrant "
                   "clockwise or flip it; five in a row wins")
    players = ("white", "black")
    margin_unit = "win"
    result_columns = ("stones",)
    seed_references = ("reference",)
    default_panel = ("mcts", "greedy", "random")
    cli_commands = {"perft": "engine.pentago.perft", "play": "engine.pentago.play"}
    max_abs_weight = genes.MAX_WEIGHT
    export_formats = (JSON_EXPORT, COMP424_EXPORT)
    capabilities = frozenset({"genomes", "files", "td", "figures", "export", "commands"})

    def __init__(self, genome: Mapping | None = None):
        self.genome, self.network = nw.validated_genome(dict(genome or {}))
        self.phases = self.genome["phases"]

    def __repr__(self) -> str:
        return f"PentagoTwistGame(genome={self.genome})"

    @property
    def kind(self) -> str:
        return "features" if self.network is None else "ntuple"

    def features_game(self) -> PentagoTwistGame:
        """The ``features`` genome with these phases: the seed weights' own game."""
        return self if self.network is None else PentagoTwistGame({"phases": self.phases})

    # --- configuration and genome -------------------------------------------------------------
    def with_settings(self, settings: Mapping) -> PentagoTwistGame:
        unknown = set(settings) - {"genome"}
        if unknown:
            raise GameSettingsError(f"game.{sorted(unknown)[0]}: unknown setting for "
                                    f"{self.name} (allowed: genome)")
        genome = settings.get("genome") or {}
        if not isinstance(genome, Mapping):
            raise GameSettingsError(f"game.genome={genome!r} must be a mapping (e.g. phases: 3)")
        return PentagoTwistGame(merged_genome(self.genome, genome, self.kind))

    def settings(self) -> dict:
        return {"genome": dict(self.genome)}

    def genome_spec(self) -> GenomeSpec:
        return genes.genome_spec(self.phases) if self.network is None else self.network.spec

    def reference_names(self) -> tuple[str, ...]:
        return genes.REFERENCE_NAMES

    def reference_genome(self, reference: str) -> np.ndarray:
        if self.network is not None:
            return nw.reference_genome(self.network, reference)
        return genes.reference_genome(reference, self.phases)

    def moves_left(self, state: st.State) -> int:
        return (36 - state.stones + 1) // 2

    def progress(self, state: st.State) -> float:
        return state.stones / 36

    def phase_of(self, state: st.State) -> int:
        return int(phase_table(self.phases)[state.stones])

    def evaluation_arrays(self, genome) -> tuple[np.ndarray, np.ndarray]:
        """(weights matrix, phase of each stone count): what the kernels take (the feature
        weights; zeros for an n-tuple genome without features)."""
        if self.network is not None:
            return self.network.split(genome)[1], phase_table(self.phases)
        return genes.weights_matrix(genome, self.phases), phase_table(self.phases)

    def search_network(self, genome) -> tuple | None:
        """``(tables, weights per phase, mode)`` of an n-tuple genome for the search, or None."""
        if self.network is None:
            return None
        return self.network.tables, self.network.split(genome)[0], self.network.mode

    def td_learn(self, genome: np.ndarray, games: int, seed: Seed, alpha: float,
                 epsilon: float) -> np.ndarray:
        if self.network is None:
            return super().td_learn(genome, games, seed, alpha, epsilon)
        from engine.pentago.td.selfplay import td_learn

        return td_learn(self.network, genome, games, seed, alpha, epsilon)

    # --- agents ----------------------------------------------------------------------------
    def make_agent(self, genome, search: SearchSettings, seed: Seed = None,
                   name: str = "") -> Agent:
        from engine.pentago.agents.alphabeta import AlphaBetaAgent

        weights, phases = self.evaluation_arrays(genome)
        return AlphaBetaAgent(weights, phases, depth=search.depth, time_limit=search.time_limit,
                              endgame_empties=search.endgame_empties, seed=seed,
                              name=name or "alphabeta", network=self.search_network(genome))

    def make_panel_agent(self, spec: str, search: SearchSettings, seed: Seed = None) -> Agent:
        return specs.make_agent(self, spec, search, seed)

    def check_spec(self, spec: str) -> None:
        specs.check_spec(spec, self.load_champion)

    def spec_searches(self, spec: str) -> bool:
        """Alpha-beta agents search; MCTS uses the time limit only (play-outs otherwise)."""
        from engine.core.matches.specs import split_depth

        inner, _ = split_depth(spec, SearchSettings())
        return inner.strip() not in ("random", "greedy") and not inner.startswith("mcts")

    def fixed_search(self, spec: str) -> str | None:
        from engine.core.base import NO_SEARCH
        from engine.core.matches.specs import split_depth
        from engine.kernels.search.mcts import DEFAULT_PLAYOUTS

        inner = split_depth(spec, SearchSettings())[0].strip()
        if inner == "random":
            return NO_SEARCH
        if inner == "greedy":
            return "depth 2, for a win now or a win handed over, else a random move"
        kind, _, playouts = inner.partition(":")
        if kind in ("mcts", "mcts_h"):
            playouts = playouts or DEFAULT_PLAYOUTS
            guided = ", play-outs guided by the reference evaluation" if kind == "mcts_h" else ""
            return f"Monte Carlo tree search, {playouts} play-outs per move{guided}"
        return None

    def agent_specs(self) -> tuple[str, ...]:
        return specs.AGENT_SPECS

    # --- files and figures -----------------------------------------------------------------
    def save_champion(self, path: str | Path, genome: np.ndarray, name: str = "",
                      metadata: Mapping | None = None) -> None:
        if self.network is None:
            return super().save_champion(path, genome, name, metadata)
        from engine.pentago.files import network

        network.save(path, self, genome, name, metadata)

    def read_champion(self, document: ChampionDocument) -> Champion:
        """A champion file of either genome kind, configured by the file's own settings (not
        this game's): ``engine.pentago.files.read_champion``."""
        from engine.pentago import files

        return files.read_champion(document, GAME)

    def export(self, champion: Champion | Path, fmt: str, out: Path, **options) -> None:
        """``json`` (the base), or ``comp424``: the course's ``student_player`` package written
        into the folder ``out`` (``engine.pentago.export.comp424``)."""
        if fmt != COMP424_EXPORT.name:
            return super().export(champion, fmt, out, **options)
        from engine.pentago.export.comp424 import export_comp424

        export_comp424(self, champion, out, **options)

    def genome_figure(self, genome: np.ndarray, title: str = ""):
        if self.network is not None:
            return None
        from engine.pentago.figures.heatmaps import weights_figure

        return weights_figure(genes.weights_matrix(genome, self.phases), title)



GAME = PentagoTwistGame()
