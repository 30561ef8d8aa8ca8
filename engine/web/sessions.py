"""Server-side games, one per browser game id, driven only through the ``Game`` contract.

A session keeps every state from the start, so undo and replay are list slices. Each session has
its own lock: a second request for the same game while an agent is thinking gets a 409 instead
of racing it, and different tabs never wait for each other. Closing a session (the page leaves
it, or the store drops it) cancels its agent's search.

Moves travel as ids and are written as ``Game.move_text`` (the wire and file format); people read
``Game.move_label`` (``x2 y3, rotate top-right`` rather than ``2 3 1 0``).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from engine.core import DRAW, Outcome, SearchSettings
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
        if self.game.is_terminal(self.state):
            raise ApiError(409, "the game is over")

    def push(self, move: int, info: dict | None = None) -> None:
        """Apply ``move`` (400 with the game's reason if it is illegal)."""
        if self.game.is_terminal(self.state):
            raise ApiError(409, "the game is over")
        try:
            state = self.game.apply(self.state, int(move))
        except ValueError as err:
            raise ApiError(400, f"move {self._text(move)} refused: {err}") from None
        self.states.append(state)
        self.moves.append(int(move))
        self.infos.append(info)

    def undo(self) -> int:
        """Take back plies until a person is to move again, having removed at least one of their
        moves (an agent's replies go with it). Returns the number of plies removed."""
        people = [i for i, a in enumerate(self.agents) if a is None]
        if self.mode != "play" or not people:
            raise ApiError(409, f"undo: only in play mode against an agent (this is {self.mode})")
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
        game, state = self.game, self.states[ply]
        terminal = game.is_terminal(state)
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
            "terminal": terminal, "result": _result(game, state, self.moves[:ply]) if terminal
            else None,
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
