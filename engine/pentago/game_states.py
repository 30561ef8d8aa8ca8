"""Pentago Twist positions as the game contract's states, moves and outcomes (a mixin of
``PentagoTwistGame``): the rules' side of the game, apart from its genomes, agents and files."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.records import DRAW, Outcome
from engine.pentago.rules import state as st


class PentagoStates:
    def initial_state(self) -> st.State:
        return st.State()

    def to_move(self, state: st.State) -> int:
        return state.to_move

    def legal_moves(self, state: st.State) -> list[int]:
        return state.legal_moves()

    def apply(self, state: st.State, move: int) -> st.State:
        return state.apply(move)

    def is_terminal(self, state: st.State) -> bool:
        return state.is_over()

    def outcome(self, state: st.State, moves: Sequence[int] = ()) -> Outcome:
        winner = state.winner()
        if winner is None:
            raise ValueError("outcome: the game is not over")
        winner = DRAW if winner == -1 else winner
        margin = 0.0 if winner == DRAW else (1.0 if winner == 0 else -1.0)
        return Outcome(winner, margin, len(moves), tuple(int(m) for m in moves),
                       {"stones": state.stones})

    def state_text(self, state: st.State) -> str:
        return st.state_text(state)

    def parse_state(self, text: str) -> st.State:
        return st.parse_state(text)

    def state_view(self, state: st.State) -> dict:
        return st.state_view(state)

    def move_text(self, move: int) -> str:
        return st.move_text(move)

    def parse_move(self, text: str, state: st.State | None = None) -> int:
        return st.parse_move(text, state)

    def move_label(self, move: int, state: st.State | None = None) -> str:
        return st.move_label(move)
