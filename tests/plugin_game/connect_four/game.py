"""Connect Four behind the ``Game`` contract, on ``GameBase``'s defaults: the rules (its states,
moves and outcomes: ``game_states``), two agents and a genome are all it writes (champion files,
openings, matches, move texts, figures and the JSON export come from the base class).

Player 0 ("red") moves first. A move is a column 0..6. The genome: ``FEATURES`` weights per game
phase (``game.genome.phases``, equal slices of the 42 moves).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from connect_four.game_states import ConnectFourStates, State
from connect_four.search import FEATURES, negamax
from engine.core import GameBase, GenomeSpec, SearchSettings, Seed, make_rng
from engine.core.agent import check_search_args
from engine.core.matches.specs import split_depth
from engine.core.settings import int_in, with_defaults
from engine.kernels.search.driver import UNLIMITED, SearchDriver

REFERENCE = np.array([1.0, 4.0, 16.0, -1.0, -4.0, -16.0, 2.0])


class RandomAgent:
    def __init__(self, seed: Seed = None, name: str = "random"):
        self.name = name
        self.reset(seed)

    def reset(self, seed: Seed = None) -> None:
        self._rng = make_rng(seed)

    def select_move(self, state: State) -> int:
        moves = GAME.legal_moves(state)
        return moves[int(self._rng.integers(len(moves)))]


class AlphaBetaAgent(SearchDriver):
    """Fixed-depth alpha-beta (deterministic: ``seed`` is ignored) with the evaluation weights
    of one genome, one row per phase."""

    def __init__(self, weights: np.ndarray, depth: int, name: str = "alphabeta"):
        check_search_args(depth)
        super().__init__(tt_bits=16, shared=True, start_rate=1e6, min_rate=1e4)
        self.weights, self.depth, self.name = weights, depth, name
        self.phase_of_stones = np.minimum(np.arange(43) * len(weights) // 43,
                                          len(weights) - 1).astype(np.int64)

    def reset(self, seed: Seed = None) -> None:
        self.clear()

    def select_move(self, state: State) -> int:
        move, value, *_ = negamax(np.uint64(state.P), np.uint64(state.O), self.depth,
                                  self.weights, self.phase_of_stones, self.table,
                                  np.uint32(self.generation), UNLIMITED)
        self.last_info = {"eval": float(value)}
        return int(move)


class ConnectFour(ConnectFourStates, GameBase):
    name = "connect_four"
    description = "Connect Four: 7 columns x 6 rows, four in a row wins (plug-in example)"
    players = ("red", "yellow")
    seed_references = ("reference",)
    default_panel = ("random", "reference", "reference@d+1")
    config_dir = Path(__file__).resolve().parent / "conf"
    capabilities = frozenset({"genomes"})  # the least an evolvable game declares

    def __init__(self, phases: int = 2):
        self.phases = phases

    # --- configuration and genome ---------------------------------------------------------
    def with_settings(self, settings) -> ConnectFour:
        s = with_defaults(settings, {"genome": {}}, "game")
        genome = with_defaults(s["genome"], {"phases": self.phases}, "game.genome")
        return ConnectFour(int_in("game.genome.phases", genome["phases"], 1, 42))

    def settings(self) -> dict:
        return {"genome": {"phases": self.phases}}

    def genome_spec(self) -> GenomeSpec:
        names = tuple(f"p{k}.{f}" for k in range(self.phases) for f in FEATURES)
        n = len(FEATURES)
        blocks = {f"phase{k}": slice(k * n, (k + 1) * n) for k in range(self.phases)}
        return GenomeSpec(names, blocks, np.full(len(names), -20.0), np.full(len(names), 20.0))

    def reference_genome(self, reference: str) -> np.ndarray:
        if reference != "reference":
            raise ValueError(f"unknown reference {reference!r} (allowed: reference)")
        return np.tile(REFERENCE, self.phases)

    def phase_of(self, state: State) -> int:
        return min(state.plies * self.phases // 43, self.phases - 1)

    # --- agents -----------------------------------------------------------------------------
    def make_agent(self, genome, search: SearchSettings, seed: Seed = None, name: str = ""):
        weights = np.asarray(genome, dtype=np.float64).reshape(self.phases, len(FEATURES))
        return AlphaBetaAgent(weights, search.depth, name or "alphabeta")

    def make_panel_agent(self, spec: str, search: SearchSettings, seed: Seed = None):
        self.check_spec(spec)
        if spec == "random":
            return RandomAgent(seed)
        if spec in ("reference", "alphabeta"):
            return self.make_agent(self.reference_genome("reference"), search, name=spec)
        champion = self.load_champion(spec)
        return self.with_settings(champion.settings).make_agent(champion.genome, search,
                                                                name=Path(spec).stem)

    def check_spec(self, spec: str) -> None:
        if spec in ("random", "reference", "alphabeta"):
            return
        if not str(spec).endswith(".json"):
            raise ValueError(f"unknown agent spec {spec!r} for connect_four (allowed: "
                             f"{', '.join(self.agent_specs())})")
        self.load_champion(spec)

    def agent_specs(self) -> tuple[str, ...]:
        return ("random", "reference", "alphabeta", "<champion file .json>")

    def spec_searches(self, spec: str) -> bool:
        return split_depth(spec, SearchSettings())[0] != "random"


GAME = ConnectFour()
