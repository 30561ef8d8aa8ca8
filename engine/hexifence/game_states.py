"""Hexifence positions as the game contract's states, moves and outcomes (a mixin of
``HexifenceGame``, which gives ``size`` and ``board``): the rules' side of the game, apart from
its genomes, agents and files."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.records import DRAW, Outcome
from engine.hexifence.rules.state import State, edge_of_move, from_text, initial_state


class HexifenceStates:
    def initial_state(self) -> State:
        return initial_state(self.size)

    def to_move(self, state: State) -> int:
        return state.to_move

    def legal_moves(self, state: State) -> list[int]:
        return state.legal_moves()

    def apply(self, state: State, move: int) -> State:
        if state.is_terminal():
            raise ValueError("the game is over: no edge is left to draw")
        return state.play(move)

    def is_terminal(self, state: State) -> bool:
        return state.is_terminal()

    def outcome(self, state: State, moves: Sequence[int] = ()) -> Outcome:
        blue, red = state.scores
        winner = 0 if blue > red else 1 if red > blue else DRAW
        return Outcome(winner, float(blue - red), len(moves), tuple(int(m) for m in moves),
                       {"blue_cells": blue, "red_cells": red})

    def state_text(self, state: State) -> str:
        return state.to_text()

    def parse_state(self, text: str) -> State:
        return from_text(text)

    def state_view(self, state: State) -> dict:
        return {"size": state.size, "grid": state.grid(), "to_move": state.to_move,
                "scores": list(state.scores)}

    def move_text(self, move: int) -> str:
        row, col = self.board.edges[edge_of_move(self.board, move)]
        return f"{row} {col}"

    def move_label(self, move: int, state: State | None = None) -> str:
        """For people: the edge's grid point and the cell(s) it borders, e.g.
        ``"5 6 (cells 2,2 | 2,3)"`` or ``"0 1 (cell 0,0, on the rim)"``."""
        edge = edge_of_move(self.board, move)
        row, col = self.board.edges[edge]
        cells = [self.board.cells[c] for c in self.board.edge_cells[edge] if c >= 0]
        names = " | ".join(f"{r},{c}" for r, c in cells)
        return (f"{row} {col} (cells {names})" if len(cells) == 2
                else f"{row} {col} (cell {names}, on the rim)")

    def parse_move(self, text: str, state: State | None = None) -> int:
        parts = str(text).replace(",", " ").split()
        if len(parts) != 2 or not all(p.lstrip("-").isdigit() for p in parts):
            raise ValueError(f"move must be 'row col' (two integers), got {text!r}")
        row, col = int(parts[0]), int(parts[1])
        if not self.board.is_edge_point(row, col):
            raise ValueError(f"move {row} {col}: not an edge of the N={self.size} board")
        move = self.board.move_id(row, col)
        if state is not None and move not in state.legal_moves():
            raise ValueError(f"move {row} {col}: that edge is already drawn")
        return move
