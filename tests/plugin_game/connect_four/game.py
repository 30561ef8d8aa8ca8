"""Connect Four behind the ``Game`` contract, on ``GameBase``'s defaults: the rules, two agents
and a genome are all it writes (champion files, openings, matches, move texts, figures and the
JSON export come from the base class).

Player 0 ("red") moves first. A move is a column 0..6. The genome: ``FEATURES`` weights per game
phase (``game.genome.phases``, equal slices of the 42 moves).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from connect_four import rules
from connect_four.search import FEATURES, negamax
from engine.core import DRAW, GameBase, GenomeSpec, Outcome, SearchSettings, Seed, make_rng
from engine.core.agent import check_search_args
from engine.core.matches.specs import split_depth
from engine.core.settings import int_in, with_defaults
from engine.kernels.search.driver import UNLIMITED, SearchDriver

REFERENCE = np.array([1.0, 4.0, 16.0, -1.0, -4.0, -16.0, 2.0])


@dataclass(frozen=True)
class State:
    P: int  # the side to move's stones
    O: int  # noqa: E741 - the opponent's (the engine's names)
    plies: int

    @property
    def to_move(self) -> int:
        return self.plies % 2


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


class ConnectFour(GameBase):
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

    # --- states -----------------------------------------------------------------------------
    def initial_state(self) -> State:
        return State(0, 0, 0)

    def to_move(self, state: State) -> int:
        return state.to_move

    def legal_moves(self, state: State) -> list[int]:
        if self.is_terminal(state):
            return []
        return [c for c in range(rules.COLUMNS) if rules.can_play(np.uint64(state.P),
                                                                  np.uint64(state.O), c)]

    def apply(self, state: State, move: int) -> State:
        if move not in self.legal_moves(state):
            raise ValueError(f"column {move} is not playable here")
        P, O = rules.play(np.uint64(state.P), np.uint64(state.O), int(move))
        return State(int(P), int(O), state.plies + 1)

    def is_terminal(self, state: State) -> bool:
        return bool(rules.four(np.uint64(state.O))) or state.plies == rules.CELLS

    def outcome(self, state: State, moves=()) -> Outcome:
        if not self.is_terminal(state):
            raise ValueError("outcome: the game is not over")
        won = bool(rules.four(np.uint64(state.O)))
        winner = (1 - state.to_move) if won else DRAW
        margin = 0.0 if winner == DRAW else (1.0 if winner == 0 else -1.0)
        return Outcome(winner, margin, len(moves), tuple(int(m) for m in moves), {})

    def state_text(self, state: State) -> str:
        """Six lines (rows top to bottom) of ``x`` red, ``o`` yellow, ``.`` empty."""
        red, yellow = (state.P, state.O) if state.to_move == 0 else (state.O, state.P)
        rows = []
        for r in reversed(range(rules.ROWS)):
            cells = []
            for c in range(rules.COLUMNS):
                bit = 1 << (7 * c + r)
                cells.append("x" if red & bit else "o" if yellow & bit else ".")
            rows.append("".join(cells))
        return "\n".join(rows)

    def parse_state(self, text: str) -> State:
        rows = str(text).strip().replace("/", "\n").split()
        if len(rows) != rules.ROWS or any(len(r) != rules.COLUMNS or set(r) - set("xo.")
                                          for r in rows):
            raise ValueError("a state is 6 lines of 7 cells from x, o and . (top row first)")
        red = yellow = 0
        for k, row in enumerate(rows):
            for c, ch in enumerate(row):
                bit = 1 << (7 * c + rules.ROWS - 1 - k)
                red |= bit if ch == "x" else 0
                yellow |= bit if ch == "o" else 0
        plies = bin(red).count("1") + bin(yellow).count("1")
        return State(red, yellow, plies) if plies % 2 == 0 else State(yellow, red, plies)


GAME = ConnectFour()
