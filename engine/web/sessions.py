"""Server-side games, one per browser game id, driven only through the ``Game`` contract.

A session keeps every state from the start, so undo and replay are list slices. Each session has
its own lock: a second request for the same game while an agent is thinking gets a 409 instead
of racing it, and different tabs never wait for each other. Closing a session (the page leaves
it, or the store drops it) cancels its agent's search.

Moves travel as ids and are written as ``Game.move_text`` (the wire and file format); people read
``Game.move_label`` (``x2 y3, rotate top-right`` rather than ``2 3 1 0``).

A game may be played on a clock (``60+1``, ``engine.core.matches.clock``): each player's clock is
charged what its moves took (an agent: its search; a person: from their turn starting to their move
reaching the server) and gets the increment after each move; a player whose time runs out loses
the game. Undo is off in such a game (it would have to give back time).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from engine.core import DRAW, Outcome, SearchSettings
from engine.core.matches.clock import Clock
from engine.web.errors import ApiError
from engine.web.players import PlayerChoice

MAX_SESSIONS = 200


@dataclass
class GameSession:
    id: str
    game: object
    mode: str  # "play", "watch" or "replay"
    players: tuple[PlayerChoice, PlayerChoice]
    agents: tuple[object | None, object | None]
    states: list = field(default_factory=list)  # states[k] = the state after k plies
    moves: list[int] = field(default_factory=list)
    infos: list[dict | None] = field(default_factory=list)  # the agent's last_info per ply
    source: dict | None = None  # a replay's run, table and row
    search: SearchSettings | None = None  # how its agents search
    seeds: tuple = (None, None)  # each player's agent seed
    lock: threading.Lock = field(default_factory=threading.Lock)
    thinking: object | None = None  # the asyncio task of the agent's move in progress
    clocks: tuple[Clock, Clock] | None = None  # each player's clock (None: no game clock)
    turn_started: float = field(default_factory=time.monotonic)  # the player to move's turn
    flagged: int | None = None  # the player whose time ran out (they lost)

    def close(self) -> None:
        """Cancel the agent's search in progress, if any (its worker is stopped)."""
        if self.thinking is not None:
            self.thinking.cancel()

    @property
    def state(self):
        return self.states[-1]

    def agent_to_move(self):
        return self.agents[self.game.to_move(self.state)]

    def check_open(self) -> None:
        """409 unless a move can be made: not a replay, not a finished game."""
        if self.mode == "replay":
            raise ApiError(409, "a replay is not played on; start a game to play")
        if self.flagged is not None:
            raise ApiError(409, f"the game is over: {self.game.players[self.flagged]} ran out "
                                "of time")
        if self.game.is_terminal(self.state):
            raise ApiError(409, "the game is over")

    def charge(self, player: int, seconds: float) -> bool:
        """Take ``seconds`` off ``player``'s clock (if the game has one); False, and the game
        lost by ``player``, when their time ran out."""
        if self.clocks is None:
            return True
        clock = self.clocks[player]
        clock.charge(seconds)
        if clock.flagged and self.flagged is None:
            self.flagged = player
        return self.flagged is None

    def charge_person(self, player: int) -> bool:
        """Charge a person the time since their turn started (``charge``)."""
        return self.charge(player, time.monotonic() - self.turn_started)

    def budget(self) -> float | None:
        """The seconds the clock gives the move to play now (None: no game clock)."""
        if self.clocks is None:
            return None
        state = self.state
        return self.clocks[self.game.to_move(state)].budget(
            self.game.moves_left(state), self.game.progress(state),
            len(self.game.legal_moves(state)))

    def _person_on_clock(self) -> int | None:
        """The person whose clock is running now (None: no clock, an agent to move, over)."""
        if self.clocks is None or self.mode != "play" or self.flagged is not None or \
                self.game.is_terminal(self.state):
            return None
        to_move = int(self.game.to_move(self.state))
        return to_move if self.agents[to_move] is None else None

    def _clock_view(self) -> list[dict] | None:
        """Each player's time left; a person's clock runs while it is their move (the page
        counts down from there). A person seen past their time has lost."""
        if self.clocks is None:
            return None
        running = self._person_on_clock()
        elapsed = time.monotonic() - self.turn_started
        if running is not None and self.clocks[running].remaining < elapsed:
            self.charge_person(running)
            running = None
        return [{"remaining": round(max(0.0, clock.remaining - (elapsed if player == running
                                                                 else 0.0)), 3),
                 "running": player == running, "flagged": self.flagged == player,
                 "control": str(clock.control)} for player, clock in enumerate(self.clocks)]

    def push(self, move: int, info: dict | None = None) -> None:
        """Apply ``move`` (400 with the game's reason if it is illegal)."""
        self._append(move, self._after(move), info)

    def push_person(self, move: int) -> None:
        """A person's ``move``: checked (400), then their clock charged; a move that came too
        late is not played (the game is lost on time)."""
        state = self._after(move)
        if self.charge_person(int(self.game.to_move(self.state))):
            self._append(move, state, None)

    def _after(self, move: int):
        if self.game.is_terminal(self.state):
            raise ApiError(409, "the game is over")
        try:
            return self.game.apply(self.state, int(move))
        except ValueError as err:
            raise ApiError(400, f"move {self._text(move)} refused: {err}") from None

    def _append(self, move: int, state, info: dict | None) -> None:
        self.states.append(state)
        self.moves.append(int(move))
        self.infos.append(info)
        self.turn_started = time.monotonic()

    def undo(self) -> int:
        """Take back plies until a person is to move again, having removed at least one of their
        moves (an agent's replies go with it). Returns the number of plies removed."""
        people = [i for i, a in enumerate(self.agents) if a is None]
        if self.mode != "play" or not people:
            raise ApiError(409, f"undo: only in play mode against an agent (this is {self.mode})")
        if self.clocks is not None:
            raise ApiError(409, "undo: not in a game with a clock (it would give time back)")
        removed, took_human = 0, False
        while len(self.states) > 1 and not (took_human and self._human_to_move()):
            took_human |= self.agents[self.game.to_move(self.states[-2])] is None
            self.states.pop()
            self.moves.pop()
            self.infos.pop()
            removed += 1
        if not took_human:
            raise ApiError(409, "undo: you have no move to take back")
        return removed

    def _human_to_move(self) -> bool:
        return not self.game.is_terminal(self.state) and self.agent_to_move() is None

    def _text(self, move) -> str:
        try:
            return repr(self.game.move_text(int(move)))
        except (ValueError, KeyError, IndexError, TypeError):
            return repr(move)

    def view(self, ply: int | None = None) -> dict:
        """What the page draws for the position after ``ply`` plies (default: the last)."""
        last = len(self.moves)
        ply = last if ply is None else ply
        if not 0 <= ply <= last:
            raise ApiError(400, f"ply: expected 0..{last}, got {ply}")
        clocks = self._clock_view()  # first: it may find a person out of time
        game, state = self.game, self.states[ply]
        lost_on_time = self.flagged is not None and ply == last
        terminal = game.is_terminal(state) or lost_on_time
        to_move = None if terminal else int(game.to_move(state))
        legal = [] if terminal else [{"id": int(m), "text": game.move_text(int(m)),
                                      "label": game.move_label(int(m), state)}
                                     for m in game.legal_moves(state)]
        previous = None
        if ply > 0:
            mover = int(game.to_move(self.states[ply - 1]))
            move = self.moves[ply - 1]
            previous = {"id": move, "text": game.move_text(move),
                        "label": game.move_label(move, self.states[ply - 1]), "player": mover,
                        "info": self.infos[ply - 1]}
        return {
            "id": self.id, "game": game.name, "settings": game.settings(), "mode": self.mode,
            "ply": ply, "plies": last,
            "players": [dict(p.to_json(), name=name)
                        for p, name in zip(self.players, game.players, strict=True)],
            "moves": [game.move_text(m) for m in self.moves],
            "labels": [game.move_label(m, before) for m, before in zip(self.moves, self.states,
                                                                        strict=False)],
            "view": game.state_view(state), "text": game.state_text(state),
            "to_move": to_move, "legal": legal, "last_move": previous,
            "terminal": terminal,
            "result": _flag_result(game, self.flagged) if lost_on_time else
            _result(game, state, self.moves[:ply]) if terminal else None,
            "clocks": clocks,
            "human_to_move": to_move is not None and self.agents[to_move] is None
            and self.mode == "play" and ply == last,
            "source": self.source,
        }


def _result(game, state, moves) -> dict:
    outcome: Outcome = game.outcome(state, moves)
    if outcome.winner == DRAW:
        text = "draw"
    else:
        text = f"{game.players[outcome.winner]} wins"
    if game.margin_unit != "win" and outcome.margin:
        text += f" by {abs(outcome.margin):g} {game.margin_unit}"
    return {"winner": None if outcome.winner == DRAW else int(outcome.winner),
            "margin": float(outcome.margin), "text": text, "details": outcome.details}


def _flag_result(game, loser: int) -> dict:
    winner = 1 - loser
    return {"winner": winner, "margin": 0.0, "details": {"lost_on_time": loser},
            "text": f"{game.players[winner]} wins: {game.players[loser]} ran out of time"}


class SessionStore:
    """Sessions by id; the least recently used is dropped beyond ``limit``."""

    def __init__(self, limit: int = MAX_SESSIONS):
        self.limit = limit
        self._sessions: OrderedDict[str, GameSession] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def new_id() -> str:
        return secrets.token_hex(8)

    def add(self, session: GameSession) -> GameSession:
        with self._lock:
            self._sessions[session.id] = session
            while len(self._sessions) > self.limit:
                self._sessions.popitem(last=False)[1].close()
        return session

    def close(self, session_id: str) -> None:
        """Forget the session and cancel its search (404 if there is no such session)."""
        with self._lock:
            session = self._sessions.pop(session_id, None)
        if session is None:
            raise ApiError(404, f"game id {session_id!r} not found (finished or expired)")
        session.close()

    def get(self, session_id: str) -> GameSession:
        with self._lock:
            session = self._sessions.get(session_id)
            if session is None:
                raise ApiError(404, f"game id {session_id!r} not found (finished or expired)")
            self._sessions.move_to_end(session_id)
            return session
