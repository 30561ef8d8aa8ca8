"""Pentago Twist positions as small immutable values, their text forms, and move text.

``State`` holds the two colours' 36-bit masks (bit ``6x + y`` = cell (x, y), as in
``engine.pentago.rules.bitboard``). White moves first and every move adds one stone, so the side to
move follows from the stone count; the text form still spells it out (a 7th line ``W``/``B``)
and ``parse_state`` checks that it agrees.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.pentago.rules import bitboard as bb

WHITE, BLACK = 0, 1
SYMBOLS = ("W", "B")
EMPTY = "."
MOVE_FORMAT = '"x y a b" (x row 0..5 from the top, y column 0..5, quadrant a 0..3, ' \
              "b 0 = rotate clockwise / 1 = flip)"


@dataclass(frozen=True)
class State:
    white: int = 0
    black: int = 0

    @property
    def stones(self) -> int:
        return (self.white | self.black).bit_count()

    @property
    def to_move(self) -> int:
        return self.stones % 2

    def boards(self) -> tuple[np.uint64, np.uint64]:
        """(P, O): the side to move's stones first, as the kernels take them."""
        mine, theirs = (self.white, self.black) if self.to_move == WHITE else \
            (self.black, self.white)
        return np.uint64(mine), np.uint64(theirs)

    def after(self, move: int) -> State:
        """The state after ``move`` (assumed legal: see ``apply``)."""
        P, O = self.boards()
        nP, nO = bb.play(P, O, np.int64(move))
        return from_boards(int(nP), int(nO), self.stones + 1)

    def result(self) -> int:
        """``bb.ONGOING`` / ``TO_MOVE_WINS`` / ``TO_MOVE_LOSES`` / ``DRAWN``."""
        return int(bb.result(*self.boards()))

    def winner(self) -> int | None:
        """WHITE, BLACK, -1 for a draw, or None while the game goes on."""
        r = self.result()
        if r == bb.ONGOING:
            return None
        if r == bb.DRAWN:
            return -1
        return self.to_move if r == bb.TO_MOVE_WINS else 1 - self.to_move

    def is_over(self) -> bool:
        return self.result() != bb.ONGOING

    def legal_moves(self) -> list[int]:
        return [int(m) for m in bb.legal_move_ids(*self.boards())]

    def apply(self, move: int) -> State:
        """The state after ``move``; ``ValueError`` saying why an illegal move is illegal."""
        move = int(move)
        if not 0 <= move < bb.MOVES:
            raise ValueError(f"move id {move} out of range 0..{bb.MOVES - 1}")
        if self.is_over():
            raise ValueError(f"move {move_text(move)!r}: the game is over")
        cell = move >> 3
        if (self.white | self.black) >> cell & 1:
            raise ValueError(f"move {move_text(move)!r}: cell ({cell // 6}, {cell % 6}) is taken")
        return self.after(move)


def from_boards(P: int, O: int, stones: int) -> State:
    """The state whose side to move (by ``stones``) owns ``P``."""
    return State(P, O) if stones % 2 == WHITE else State(O, P)


def move_id(x: int, y: int, a: int, b: int) -> int:
    return (x * 6 + y) * 8 + a * 2 + b


def move_text(move: int) -> str:
    """The course's form ``"x y a b"``."""
    cell, t = divmod(int(move), 8)
    return f"{cell // 6} {cell % 6} {t // 2} {t % 2}"


QUADRANT_NAMES = ("top-left", "top-right", "bottom-left", "bottom-right")
TWIST_NAMES = ("rotate", "flip")


def move_label(move: int) -> str:
    """For people: the cell as (row, column) as the board's margins show them, then the twist,
    e.g. ``"x2 y3, rotate top-right"``."""
    cell, t = divmod(int(move), 8)
    return f"x{cell // 6} y{cell % 6}, {TWIST_NAMES[t % 2]} {QUADRANT_NAMES[t // 2]}"


def parse_move(text: str, state: State | None = None) -> int:
    """The move id of ``"x y a b"``; ``ValueError`` on bad text or (given ``state``) an
    illegal move."""
    text = str(text).strip()
    parts = text.replace(",", " ").split()
    if len(parts) != 4 or not all(p.lstrip("-").isdigit() for p in parts):
        raise ValueError(f"move {text!r}: expected {MOVE_FORMAT}")
    x, y, a, b = (int(p) for p in parts)
    for name, value, top in (("x", x, 5), ("y", y, 5), ("a", a, 3), ("b", b, 1)):
        if not 0 <= value <= top:
            raise ValueError(f"move {text!r}: {name}={value} must be in 0..{top}")
    move = move_id(x, y, a, b)
    if state is not None:
        state.apply(move)  # raises if illegal
    return move


def state_text(state: State) -> str:
    """6 lines of 6 symbols (``W``, ``B``, ``.``), then ``W`` or ``B`` for the side to move."""
    rows = []
    for x in range(6):
        row = ""
        for y in range(6):
            bit = 1 << (6 * x + y)
            row += "W" if state.white & bit else "B" if state.black & bit else EMPTY
        rows.append(row)
    return "\n".join(rows + [SYMBOLS[state.to_move]])


def parse_state(text: str) -> State:
    """The inverse of ``state_text``; ``ValueError`` naming what is wrong."""
    lines = [line.strip() for line in str(text).strip().splitlines() if line.strip()]
    if len(lines) != 7:
        raise ValueError(f"board text: expected 6 rows of 6 symbols W/B/. and a line W or B "
                         f"(side to move), got {len(lines)} non-empty lines")
    white = black = 0
    for x, row in enumerate(lines[:6]):
        if len(row) != 6 or set(row) - {"W", "B", EMPTY}:
            raise ValueError(f"board text row {x}: {row!r} must be 6 symbols from W, B, .")
        for y, symbol in enumerate(row):
            if symbol != EMPTY:
                bit = 1 << (6 * x + y)
                white |= bit if symbol == "W" else 0
                black |= bit if symbol == "B" else 0
    if lines[6] not in SYMBOLS:
        raise ValueError(f"board text side to move: {lines[6]!r} must be W or B")
    state = State(white, black)
    n_white, n_black = white.bit_count(), black.bit_count()
    if n_white - n_black not in (0, 1):
        raise ValueError(f"board text: {n_white} white and {n_black} black stones cannot "
                         "happen (white moves first: white = black or black + 1)")
    if SYMBOLS[state.to_move] != lines[6]:
        raise ValueError(f"board text side to move: {lines[6]} contradicts the stone counts "
                         f"({n_white} white, {n_black} black: {SYMBOLS[state.to_move]} to move)")
    return state


def state_view(state: State) -> dict:
    """JSON-able description for renderers."""
    return {"board": state_text(state).splitlines()[:6], "to_move": state.to_move,
            "quadrants": 4, "stones": state.stones}
