"""Matches: one game between two agents from an opening, seeded openings, colour-swapped pairs.

OpenSpiel's ``evaluate_bots`` in our vocabulary: the runner owns the position and asks each
agent for a move; forced passes are played by the runner (recorded as ``PASS``) without asking
the agent. A game is reproducible from ``seed``: both agents are reset with seeds derived from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.core.agent import Agent, Seed, child_seeds
from engine.reversi.position import PASS, Position, Variant, move_name


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


def play_opening(opening: Sequence[int]) -> Position:
    """Position after ``opening`` from the start; an illegal move or a finished game raises
    ``ValueError`` saying which ply is wrong."""
    position = Position.start()
    for ply, move in enumerate(opening):
        if position.is_game_over():
            raise ValueError(f"opening ply {ply + 1}: the game is already over")
        try:
            position = position.play(int(move))
        except ValueError as err:
            raise ValueError(f"opening ply {ply + 1}: {err}") from None
    return position


def finish(position: Position, moves: list[int], variant: Variant, opening_plies: int,
           black_name: str, white_name: str) -> GameRecord:
    black_discs, white_discs = position.disc_counts()
    score = position.black_score(variant)
    winner = "black" if score > 0 else "white" if score < 0 else "draw"
    return GameRecord(moves, black_discs, white_discs, winner, score, variant.value,
                      opening_plies, black_name, white_name)


def play_game(black: Agent, white: Agent, variant: Variant | str = "othello",
              opening: Sequence[int] = (), seed: Seed = None) -> GameRecord:
    """Play ``opening`` then let the agents alternate until the game ends."""
    variant = Variant.parse(variant)
    position = play_opening(opening)
    moves = [int(m) for m in opening]
    black_seed, white_seed = child_seeds(seed, 2) if seed is not None else (None, None)
    black.reset(black_seed)
    white.reset(white_seed)
    while True:
        legal = position.legal_moves_mask()  # a mask, not a list: this loop runs per ply
        if not legal:
            if position.is_game_over():
                break
            move = PASS  # forced: the runner plays it without asking the agent
        else:
            agent = black if position.black_to_move else white
            move = int(agent.select_move(position))
            if not (0 <= move < 64 and legal >> move & 1):
                raise ValueError(
                    f"agent {agent.name!r} chose {move_name(move) if 0 <= move <= PASS else move}"
                    f"; legal moves: {position.legal_names()}"
                )
        position = position.play(move)
        moves.append(move)
    return finish(position, moves, variant, len(opening), black.name, white.name)


def random_openings(n: int, seed: Seed, min_plies: int = 4, max_plies: int = 8,
                    max_tries: int | None = None) -> list[tuple[int, ...]]:
    """``n`` random openings of ``min_plies..max_plies`` uniformly random legal moves, ending in
    ``n`` distinct positions that are not finished games. Raises ``ValueError`` if there are not
    enough distinct ones (e.g. n > 244 with 4 plies only)."""
    if not 1 <= min_plies <= max_plies:
        raise ValueError(f"need 1 <= min_plies <= max_plies, got {min_plies}, {max_plies}")
    rng = np.random.default_rng(seed)
    openings: list[tuple[int, ...]] = []
    seen: set[str] = set()
    tries = max_tries if max_tries is not None else 50 * n + 1000
    for _ in range(tries):
        if len(openings) == n:
            break
        opening, position = random_line(rng, int(rng.integers(min_plies, max_plies + 1)))
        key = position.to_string()
        if opening is not None and key not in seen:
            seen.add(key)
            openings.append(opening)
    if len(openings) < n:
        raise ValueError(
            f"found only {len(openings)} distinct openings of {min_plies}..{max_plies} plies, "
            f"{n} requested"
        )
    return openings


def random_line(rng: np.random.Generator, plies: int) -> tuple[tuple[int, ...] | None, Position]:
    """``plies`` random legal moves from the start, or ``None`` if a pass or the end came first."""
    position = Position.start()
    line = []
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal or legal == [PASS]:
            return None, position
        move = legal[int(rng.integers(len(legal)))]
        position = position.play(move)
        line.append(move)
    if position.is_game_over():
        return None, position
    return tuple(line), position


def play_pairs(agent_a: Agent, agent_b: Agent, openings: Sequence[Sequence[int]],
               variant: Variant | str = "othello", seed: Seed = None) -> list[GameRecord]:
    """Each opening twice: ``agent_a`` black then ``agent_b`` black (records in that order)."""
    n = 2 * len(openings)
    seeds = child_seeds(seed, n) if seed is not None else [None] * n
    records = []
    for i, opening in enumerate(openings):
        records.append(play_game(agent_a, agent_b, variant, opening, seeds[2 * i]))
        records.append(play_game(agent_b, agent_a, variant, opening, seeds[2 * i + 1]))
    return records
