"""Whole-game time controls (``60+1``: 60 seconds for the game, 1 more after each move) and
how a player spends them: the same for every game and every timed agent (alpha-beta, MCTS).

A ``Clock`` gives each move a budget and is charged what the move took:

- a move with a single legal choice gets no time (it is played at once);
- otherwise the time left, less a reserve, is shared over the moves the player has left
  (``Game.moves_left``, an estimate; at least ``MIN_MOVES_LEFT``), weighted towards the middle
  game (``1 + MIDGAME * sin(pi * progress)``, ``progress`` the share of the game played), plus
  most of the increment, and never more than ``MAX_SHARE`` of the time left;
- the exact endgame needs no special rule: a timed search solves it when it fits its budget.

``ClockedAgent`` wraps a timed agent (one built with a ``time_limit``) and sets its limit
before each move. A player whose time runs out loses on time only where the caller says so
(``Clock.flagged``): the match runners report it, they do not stop the game.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass

MIN_MOVES_LEFT = 8  # the allocation never assumes fewer moves to come than this
MIDGAME = 0.5  # extra weight at mid-game (a move there gets 1.5x one at either end)
MAX_SHARE = 0.25  # of the time left, the most one move may get
RESERVE = 0.05  # of the time left, kept back (the answer's own overhead)
INCREMENT_USE = 0.8  # of the increment, spent on the move it follows
MIN_MOVE_SECONDS = 0.005  # below this a search cannot do anything useful

_TEXT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:\+\s*(\d+(?:\.\d+)?))?\s*$")


@dataclass(frozen=True)
class TimeControl:
    """``base`` seconds per player for the game, ``increment`` seconds added after each move."""

    base: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"60+1"``, ``"300"``, ``"0.5+0.05"``; ``ValueError`` saying what is allowed."""
        match = _TEXT.match(str(text))
        if not match or float(match.group(1)) <= 0:
            raise ValueError(f"time control {text!r}: expected <seconds>[+<increment>] with "
                             "seconds > 0, e.g. 60+1 or 300")
        return cls(float(match.group(1)), float(match.group(2) or 0.0))

    def __str__(self) -> str:
        return f"{self.base:g}+{self.increment:g}"


def midgame_weight(progress: float) -> float:
    return 1.0 + MIDGAME * math.sin(math.pi * min(1.0, max(0.0, progress)))


def mean_weight_from(progress: float) -> float:
    """The mean of ``midgame_weight`` over the rest of the game, ``[progress, 1]``."""
    a = min(1.0, max(0.0, progress))
    if a >= 1.0:
        return midgame_weight(1.0)
    return 1.0 + MIDGAME * (1.0 + math.cos(math.pi * a)) / (math.pi * (1.0 - a))


class Clock:
    """One player's clock under ``control``."""

    def __init__(self, control: TimeControl):
        self.control = control
        self.remaining = control.base
        self.moves = 0
        self.flagged = False  # the time ran out at some move

    def budget(self, moves_left: int, progress: float, choices: int) -> float:
        """Seconds for the next move: ``moves_left`` the player's estimated moves to come
        (this one included), ``progress`` the share of the game played, ``choices`` the legal
        moves."""
        if choices <= 1:
            return 0.0
        usable = self.remaining * (1.0 - RESERVE)
        share = usable / max(MIN_MOVES_LEFT, moves_left)
        share *= midgame_weight(progress) / mean_weight_from(progress)
        spare = INCREMENT_USE * self.control.increment
        share = min(share, MAX_SHARE * usable) + spare
        return min(max(MIN_MOVE_SECONDS, share), usable)

    def charge(self, seconds: float) -> None:
        """A move took ``seconds``: take them off, then add the increment."""
        self.remaining -= seconds
        if self.remaining < 0:
            self.flagged = True
        self.remaining += self.control.increment
        self.moves += 1


def timed_inner(agent):
    """The agent in a wrapper chain (``inner``) whose ``time_limit`` a clock sets: one built
    with a time limit (None if there is none: a fixed-depth search cannot play to a clock)."""
    while agent is not None:
        if getattr(agent, "time_limit", None) is not None:
            return agent
        agent = getattr(agent, "inner", None)
    return None


class ClockedAgent:
    """``inner`` (a timed agent, or a wrapper of one) playing under ``control``: before each
    move its ``time_limit`` is set to the clock's budget; a move with one legal choice is
    played without asking it. An agent with no time limit (a rule such as ``greedy``, a
    play-out budget) plays as it would, and its clock is charged all the same. ``game`` gives
    ``legal_moves``, ``moves_left`` and ``progress``."""

    def __init__(self, inner, control: TimeControl, game, name: str | None = None):
        self.timed = timed_inner(inner)
        self.inner, self.control, self.game = inner, control, game
        self.name = name or inner.name  # every Agent has a name
        self.clock = Clock(control)
        self.last_info: dict = {}

    def reset(self, seed=None) -> None:
        self.clock = Clock(self.control)
        self.inner.reset(seed)

    def select_move(self, state) -> int:
        legal = self.game.legal_moves(state)
        budget = self.clock.budget(self.game.moves_left(state), self.game.progress(state),
                                   len(legal))
        start = time.perf_counter()
        if budget <= 0.0:
            move = legal[0]
            info = {"forced": True}
        else:
            if self.timed is not None:
                self.timed.time_limit = budget
            move = self.inner.select_move(state)
            info = dict(getattr(self.inner, "last_info", None) or {})
        self.clock.charge(time.perf_counter() - start)
        self.last_info = dict(info, budget=round(budget, 3),
                              clock=round(self.clock.remaining, 3))
        return move
