"""Reversi games as records (disc counts, the winner by colour, the players' names): a view of
the core's match runner (``engine.core.matches.runner``) for the tests that compare Reversi games
with recorded baselines. A game is reproducible from ``seed``: both agents are reset with seeds
derived from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.core.agent import Agent, Seed
from engine.core.game import DRAW, Outcome
from engine.core.matches import runner as match
from engine.core.registry import get_game
from engine.reversi.rules.state import Variant, move_name

WINNERS = {0: "black", 1: "white", DRAW: "draw"}


@dataclass
class GameRecord:
    moves: list[int]  # every ply from the start, opening included; passes as PASS
    black_discs: int
    white_discs: int
    winner: str  # "black" | "white" | "draw"
    black_score: int  # final score from black's view under the variant (positive = black won)
    variant: str
    opening_plies: int
    black_name: str = ""
    white_name: str = ""
    notes: dict = field(default_factory=dict)

    @property
    def move_names(self) -> list[str]:
        return [move_name(m) for m in self.moves]

    def score_for(self, black: bool) -> float:
        """1 for a win, 0.5 for a draw, 0 for a loss, for black or white."""
        if self.winner == "draw":
            return 0.5
        return 1.0 if (self.winner == "black") == black else 0.0


def record(outcome: Outcome, variant: Variant, opening_plies: int, black_name: str = "",
           white_name: str = "") -> GameRecord:
    """The record of a game the runner played (``ReversiGame.play``'s ``Outcome``)."""
    d = outcome.details
    return GameRecord(list(outcome.moves), d["black_discs"], d["white_discs"],
                      WINNERS[outcome.winner], d["black_score"], variant.value, opening_plies,
                      black_name, white_name)


def play_game(black: Agent, white: Agent, variant: Variant | str = "othello",
              opening: Sequence[int] = (), seed: Seed = None) -> GameRecord:
    """Play ``opening`` then let the agents alternate until the game ends."""
    variant = Variant.parse(variant)
    outcome = _game(variant).play(black, white, opening, seed)
    return record(outcome, variant, len(opening), black.name, white.name)


def play_pairs(agent_a: Agent, agent_b: Agent, openings: Sequence[Sequence[int]],
               variant: Variant | str = "othello", seed: Seed = None) -> list[GameRecord]:
    """Each opening twice: ``agent_a`` black then ``agent_b`` black (records in that order)."""
    variant = Variant.parse(variant)
    outcomes = match.play_pairs(_game(variant), agent_a, agent_b, openings, seed)
    names = ((agent_a.name, agent_b.name), (agent_b.name, agent_a.name))
    return [record(o, variant, len(openings[i // 2]), *names[i % 2])
            for i, o in enumerate(outcomes)]


def random_openings(n: int, seed: Seed, min_plies: int = 4, max_plies: int = 8,
                    max_tries: int | None = None) -> list[tuple[int, ...]]:
    """``ReversiStates.random_openings`` of Othello."""
    return _game(Variant.OTHELLO).random_openings(n, seed, min_plies, max_plies, max_tries)


def _game(variant: Variant):
    """The registered game of ``variant``."""
    return get_game("reversed_reversi" if variant.is_reversed else "othello")
