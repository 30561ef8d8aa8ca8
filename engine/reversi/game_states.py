"""Reversi positions as the game contract's states, moves and outcomes (a mixin of
``ReversiGame``, which gives ``variant``): the rules' side of the game, apart from its genomes,
agents and files."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Agent, Seed
from engine.core.matches import runner as match
from engine.core.records import DRAW, Outcome
from engine.reversi.rules.state import PASS, Position, move_name, parse_move


def only_pass(legal: Sequence[int]) -> bool:
    """Reversi's one forced move: a pass (the match runner plays it without asking the agent;
    a single legal square is still the agent's to play). Openings never hold one."""
    return len(legal) == 1 and legal[0] == PASS


class ReversiStates:
    # --- playing -------------------------------------------------------------------------------
    def random_openings(self, n: int, seed: Seed, min_plies: int = 4, max_plies: int = 8,
                        max_tries: int | None = None) -> list[tuple[int, ...]]:
        """``n`` random openings of ``min_plies..max_plies`` uniformly random legal moves,
        ending in ``n`` distinct unfinished positions (the same for both variants: their moves
        are the same). ``ValueError`` if there are not enough distinct ones (e.g. n > 244 with
        4 plies only)."""
        if not 1 <= min_plies <= max_plies:
            raise ValueError(f"need 1 <= min_plies <= max_plies, got {min_plies}, {max_plies}")
        return match.random_openings(self, n, seed, min_plies, max_plies, max_tries,
                                     forced=only_pass)

    def play(self, first: Agent, second: Agent, opening: Sequence[int] = (),
             seed: Seed = None) -> Outcome:
        return match.play_game(self, first, second, opening, seed, forced=only_pass)

    def _outcome(self, black: int, white: int, black_score: int, moves) -> Outcome:
        winner = 0 if black_score > 0 else 1 if black_score < 0 else DRAW
        return Outcome(winner, float(black_score), len(moves), tuple(int(m) for m in moves),
                       {"black_discs": int(black), "white_discs": int(white),
                        "black_score": int(black_score)})

    # --- states --------------------------------------------------------------------------------
    def initial_state(self) -> Position:
        return Position.start()

    def to_move(self, state: Position) -> int:
        return 0 if state.black_to_move else 1

    def legal_moves(self, state: Position) -> list[int]:
        return state.legal_moves()

    def apply(self, state: Position, move: int) -> Position:
        return state.play(int(move))

    def is_terminal(self, state: Position) -> bool:
        return state.is_game_over()

    def outcome(self, state: Position, moves: Sequence[int] = ()) -> Outcome:
        black, white = state.disc_counts()
        return self._outcome(black, white, state.black_score(self.variant), moves)

    def state_text(self, state: Position) -> str:
        return state.to_string()

    def parse_state(self, text: str) -> Position:
        return Position.parse(text)

    def state_view(self, state: Position) -> dict:
        text = state.to_string().split()[0]
        return {"board": [text[8 * r: 8 * r + 8] for r in range(8)],
                "to_move": self.to_move(state), "discs": list(state.disc_counts()),
                "pass": PASS}

    def move_text(self, move: int) -> str:
        return move_name(int(move))

    def parse_move(self, text: str, state: Position | None = None) -> int:
        return parse_move(text)

