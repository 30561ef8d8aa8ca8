"""A toy game for the GA's tests of genomes that learn: tic-tac-toe with an n-tuple genome, on
``GameBase``'s defaults, registered only while a test needs it (``registered``).

The genome is one lookup table per tuple of ``game.genome.n`` cells (every such tuple of the 9
cells: 27, 324 or 2,268 weights for n = 1, 2, 3), indexed by its cells' states read from the
side to move (0 empty, 1 own, 2 opponent; first cell the most significant digit). The
evaluation is the sum of the entries; the agent plays 1 ply (a winning move, else the child
whose evaluation is lowest for the opponent). ``td_learn`` is plain TD(0) self-play with an
epsilon-greedy 1-ply policy, as the games' ``td_learn`` is (``engine/core/base.py``): after each
game, every position's value moves by ``alpha`` towards the next one's (negated: the opponent
moves there), the last towards the result. ``game.genome.td=false`` gives a genome that cannot
learn (``learns_by_td`` false).
"""

from __future__ import annotations

import contextlib
import itertools
from dataclasses import dataclass

import numpy as np

from engine.core import DRAW, GameBase, GenomeSpec, Outcome, SearchSettings, Seed, make_rng
from engine.core.settings import int_in, with_defaults

NAME = "toy_ttt"
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
IMPORTANCE = np.array([0.3, 0.1, 0.3, 0.1, 0.6, 0.1, 0.3, 0.1, 0.3])  # corners, edges, centre


@dataclass(frozen=True)
class State:
    board: tuple[int, ...]  # 0 empty, 1 player 0's mark, 2 player 1's
    plies: int


def winner_of(board) -> int | None:
    for a, b, c in LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a] - 1
    return None


class Network:
    """The genome's tuples and how a position reads them."""

    def __init__(self, n: int):
        self.tuples = np.array(list(itertools.combinations(range(9), n)), dtype=np.int64)
        self.powers = 3 ** np.arange(n - 1, -1, -1)
        self.offsets = np.arange(len(self.tuples)) * 3**n
        self.size = len(self.tuples) * 3**n

    def entries(self, state: State) -> np.ndarray:
        """The genome index each tuple reads in ``state`` (from the side to move)."""
        board = np.array(state.board)
        me = state.plies % 2 + 1
        relative = np.where(board == 0, 0, np.where(board == me, 1, 2))
        return self.offsets + relative[self.tuples] @ self.powers

    def value(self, state: State, genome: np.ndarray) -> float:
        return float(genome[self.entries(state)].sum())


class Toy(GameBase):
    name = NAME
    description = "tic-tac-toe with an n-tuple genome (tests only)"
    players = ("x", "o")
    seed_references = ("centre",)
    default_panel = ("random", "centre")
    capabilities = frozenset({"genomes", "td"})  # what the GA's local search asks for

    def __init__(self, n: int = 1, td: bool = True):
        self.n, self.td = n, td
        self.network = Network(n)

    def with_settings(self, settings) -> Toy:
        s = with_defaults(settings, {"genome": {}}, "game")
        genome = with_defaults(s["genome"], {"n": self.n, "td": self.td}, "game.genome")
        return Toy(int_in("game.genome.n", genome["n"], 1, 3), bool(genome["td"]))

    def settings(self) -> dict:
        return {"genome": {"n": self.n, "td": self.td}}

    def genome_spec(self) -> GenomeSpec:
        net, width = self.network, 3**self.n
        names = tuple(f"p0.t{k}.{i}" for k in range(len(net.tuples)) for i in range(width))
        # one block per lookup table, named as the games name theirs (phase 0, table k)
        blocks = {f"p0.t{k}": slice(k * width, (k + 1) * width) for k in range(len(net.tuples))}
        return GenomeSpec(names, blocks, np.full(net.size, -1.0), np.full(net.size, 1.0))

    def reference_genome(self, reference: str) -> np.ndarray:
        """Each entry: the importance of its own cells minus that of the opponent's."""
        if reference != "centre":
            raise ValueError(f"unknown reference {reference!r} (allowed: centre)")
        digits = np.array(list(itertools.product((0, 1, -1), repeat=self.n)))  # 2 -> -1
        weight = IMPORTANCE[self.network.tuples]  # [tuples, n]
        return (weight[:, None, :] * digits[None, :, :]).sum(axis=2).ravel() / len(weight)

    # --- agents -------------------------------------------------------------------------
    def make_agent(self, genome, search: SearchSettings, seed: Seed = None, name: str = ""):
        return OnePly(self, np.asarray(genome, dtype=np.float64), name or "one_ply")

    def make_panel_agent(self, spec: str, search: SearchSettings, seed: Seed = None):
        self.check_spec(spec)
        if spec == "random":
            return RandomAgent(self, seed)
        return self.make_agent(self.reference_genome("centre"), search, name="centre")

    def check_spec(self, spec: str) -> None:
        if spec not in ("random", "centre"):
            raise ValueError(f"unknown agent spec {spec!r} for {NAME} (allowed: random, centre)")

    def agent_specs(self) -> tuple[str, ...]:
        return ("random", "centre")

    # --- learning -----------------------------------------------------------------------
    def learns_by_td(self) -> bool:
        return self.td

    def td_learn(self, genome, games: int, seed: Seed, alpha: float, epsilon: float):
        if not self.td:
            return super().td_learn(genome, games, seed, alpha, epsilon)
        w, rng = np.array(genome, dtype=np.float64), make_rng(seed)
        for _ in range(games):
            states = [self.initial_state()]
            while not self.is_terminal(states[-1]):
                moves = self.legal_moves(states[-1])
                move = moves[int(rng.integers(len(moves)))] if rng.random() < epsilon else \
                    best_move(self, states[-1], w)
                states.append(self.apply(states[-1], move))
            self.td_update(states, w, alpha)
        return w

    def td_update(self, states: list[State], w: np.ndarray, alpha: float) -> None:
        """TD(0) along one game, forwards, each target read with the current weights."""
        winner = winner_of(states[-1].board)
        for t, state in enumerate(states[:-1]):
            if t + 1 < len(states) - 1:
                target = -self.network.value(states[t + 1], w)
            else:  # the mover of the last position made the last move
                target = 0.0 if winner is None else (1.0 if winner == state.plies % 2 else -1.0)
            error = target - self.network.value(state, w)
            np.add.at(w, self.network.entries(state), alpha * error)

    # --- states -------------------------------------------------------------------------
    def initial_state(self) -> State:
        return State((0,) * 9, 0)

    def to_move(self, state: State) -> int:
        return state.plies % 2

    def legal_moves(self, state: State) -> list[int]:
        return [] if self.is_terminal(state) else [i for i in range(9) if not state.board[i]]

    def apply(self, state: State, move: int) -> State:
        if move not in self.legal_moves(state):
            raise ValueError(f"cell {move} is not playable here")
        board = list(state.board)
        board[move] = state.plies % 2 + 1
        return State(tuple(board), state.plies + 1)

    def is_terminal(self, state: State) -> bool:
        return winner_of(state.board) is not None or state.plies == 9

    def outcome(self, state: State, moves=()) -> Outcome:
        winner = winner_of(state.board)
        margin = 0.0 if winner is None else (1.0 if winner == 0 else -1.0)
        return Outcome(DRAW if winner is None else winner, margin, len(moves),
                       tuple(int(m) for m in moves), {})

    def state_text(self, state: State) -> str:
        return "".join(".xo"[c] for c in state.board)

    def parse_state(self, text: str) -> State:
        board = tuple(".xo".index(ch) for ch in text)
        return State(board, sum(1 for c in board if c))


def best_move(game: Toy, state: State, genome: np.ndarray) -> int:
    """A winning move, else the move after which the opponent's evaluation is lowest (ties: the
    lowest cell)."""
    best, best_value = None, -np.inf
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        if winner_of(child.board) is not None:
            return move
        value = 0.0 if child.plies == 9 else -game.network.value(child, genome)
        if value > best_value:
            best, best_value = move, value
    return best


class OnePly:
    def __init__(self, game: Toy, genome: np.ndarray, name: str):
        self.game, self.genome, self.name = game, genome, name

    def reset(self, seed: Seed = None) -> None:
        pass

    def select_move(self, state: State) -> int:
        return best_move(self.game, state, self.genome)


class RandomAgent:
    def __init__(self, game: Toy, seed: Seed = None, name: str = "random"):
        self.game, self.name = game, name
        self.reset(seed)

    def reset(self, seed: Seed = None) -> None:
        self._rng = make_rng(seed)

    def select_move(self, state: State) -> int:
        moves = self.game.legal_moves(state)
        return moves[int(self._rng.integers(len(moves)))]


GAME = Toy()


def register() -> None:
    """Put the toy into the game registry of this process (a Ray worker's too: the tests pass
    this as the backend's warm-up)."""
    from importlib.metadata import EntryPoint

    from engine.core import registry

    registry._entry_points()[NAME] = EntryPoint(NAME, f"{__name__}:GAME", registry.GROUP)


def unregister() -> None:
    from engine.core import registry
    from evolve.execution import games

    registry._entry_points().pop(NAME, None)
    registry._loaded.pop(NAME, None)
    for key in [k for k in games._GAMES if k[0] == NAME]:
        del games._GAMES[key]


@contextlib.contextmanager
def registered():
    register()
    try:
        yield GAME
    finally:
        unregister()
