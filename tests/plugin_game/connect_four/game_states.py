"""Connect Four positions as the game contract's states, moves and outcomes (a mixin of
``ConnectFour``): the rules' side of the game, apart from its genome and agents."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from connect_four import rules
from engine.core import DRAW, Outcome


@dataclass(frozen=True)
class State:
    P: int  # the side to move's stones
    O: int  # noqa: E741 - the opponent's (the engine's names)
    plies: int

    @property
    def to_move(self) -> int:
        return self.plies % 2


class ConnectFourStates:
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

