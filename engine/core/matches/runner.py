"""The match runner: one game between two agents through the ``Game`` state interface.

OpenSpiel's ``evaluate_bots`` in our words, and the one loop every game plays through. A forced
move is played by the runner without asking the agent: by default the only legal move; a game
may narrow that (Reversi: only a pass, so its agents are still asked when one square is legal).
A game is reproducible from ``seed``: both agents are reset with seeds derived from it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from engine.core.agent import Agent, Seed, child_seeds
from engine.core.game import Game, Outcome


class IllegalMoveError(ValueError):
    """An agent chose a move that is not legal (a bug in that agent)."""


def only_move(legal: Sequence[int]) -> bool:
    """The default test of a forced move: it is the only legal one."""
    return len(legal) == 1


def replay(game: Game, moves: Sequence[int]):
    """The state after ``moves`` from the start; ``ValueError`` names the bad ply."""
    state = game.initial_state()
    for ply, move in enumerate(moves):
        if game.is_terminal(state):
            raise ValueError(f"ply {ply + 1}: the game is already over")
        try:
            state = game.apply(state, int(move))
        except ValueError as err:
            raise ValueError(f"ply {ply + 1}: {err}") from None
    return state


def play_game(game: Game, first: Agent, second: Agent, opening: Sequence[int] = (),
              seed: Seed = None, max_plies: int = 100_000,
              forced: Callable[[Sequence[int]], bool] = only_move) -> Outcome:
    """Play ``opening`` then let the agents move (player 0 = ``first``) until the game ends;
    ``forced(legal)`` says when the runner plays the only legal move without asking."""
    try:
        state = replay(game, opening)
    except ValueError as err:
        raise ValueError(f"opening {err}") from None
    moves = [int(m) for m in opening]
    first_seed, second_seed = child_seeds(seed, 2) if seed is not None else (None, None)
    first.reset(first_seed)
    second.reset(second_seed)
    agents = (first, second)
    while legal := game.legal_moves(state):  # none: the game is over (the contract says so)
        agent = agents[game.to_move(state)]
        move = legal[0] if forced(legal) else int(agent.select_move(state))
        if move not in legal:
            raise IllegalMoveError(f"agent {agent.name!r} chose {_move_text(game, move)!r}; "
                                   f"legal: {' '.join(game.move_text(m) for m in legal)}")
        state = game.apply(state, move)
        moves.append(move)
        if len(moves) > max_plies:
            raise RuntimeError(f"game exceeded {max_plies} plies")
    return game.outcome(state, moves)


def _move_text(game: Game, move: int) -> str:
    try:
        return game.move_text(move)
    except (ValueError, IndexError, KeyError):  # not even a move id of this game
        return str(move)


def play_pairs(game: Game, agent_a: Agent, agent_b: Agent, openings: Sequence[Sequence[int]],
               seed: Seed = None) -> list[Outcome]:
    """Each opening twice: ``agent_a`` first, then ``agent_b`` first (outcomes in that order)."""
    n = 2 * len(openings)
    seeds = child_seeds(seed, n) if seed is not None else [None] * n
    out = []
    for i, opening in enumerate(openings):
        out.append(game.play(agent_a, agent_b, opening, seeds[2 * i]))
        out.append(game.play(agent_b, agent_a, opening, seeds[2 * i + 1]))
    return out


def random_openings(game: Game, n: int, seed: Seed, min_plies: int, max_plies: int,
                    max_tries: int | None = None,
                    forced: Callable[[Sequence[int]], bool] | None = None
                    ) -> list[tuple[int, ...]]:
    """``n`` openings of ``min_plies..max_plies`` uniformly random legal moves, ending in ``n``
    distinct unfinished positions (by ``state_text``). With ``forced``, a line that meets a
    forced move is dropped (Reversi: openings hold no pass). ``ValueError`` if there are too
    few."""
    if not 0 <= min_plies <= max_plies:
        raise ValueError(f"need 0 <= min_plies <= max_plies, got {min_plies}, {max_plies}")
    rng = np.random.default_rng(seed)
    openings: list[tuple[int, ...]] = []
    seen: set[str] = set()
    for _ in range(max_tries if max_tries is not None else 50 * n + 1000):
        if len(openings) == n:
            break
        line, state = _random_line(game, rng, int(rng.integers(min_plies, max_plies + 1)),
                                   forced)
        key = game.state_text(state)
        if line is not None and key not in seen:
            seen.add(key)
            openings.append(line)
    if len(openings) < n:
        raise ValueError(f"found only {len(openings)} distinct openings of {min_plies}..{max_plies}"
                         f" plies, {n} requested")
    return openings


def _random_line(game: Game, rng: np.random.Generator, plies: int, forced):
    """(``plies`` random legal moves from the start, the state after them), or (None, state)
    when the game ends first, or a forced move comes with ``forced``."""
    state, line = game.initial_state(), []
    for _ in range(plies):
        legal = game.legal_moves(state)
        if not legal or (forced is not None and forced(legal)):
            return None, state
        move = legal[int(rng.integers(len(legal)))]
        state, line = game.apply(state, move), line + [move]
    return (None if game.is_terminal(state) else tuple(line)), state
