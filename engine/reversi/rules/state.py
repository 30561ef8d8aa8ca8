"""Positions, squares and moves as text, and the rule variants.

A ``Position`` is immutable: two bitboards (side to move, opponent) and whose turn it is.
Text format (the FFO/Edax ``.obf`` form): 64 characters ``X`` (black), ``O`` (white), ``-``
(empty) in a1, b1, ..., h1, a2, ..., h8 order, a space, and the side to move ``X``/``O``.
Moves are ``a1``..``h8`` or ``pass``; in code a move is a square index 0..63 or ``PASS``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

from engine.reversi.rules import bitboard as bb
from engine.reversi.rules.bitboard import PASS

FILES = "abcdefgh"
SQUARE_NAMES = tuple(f"{FILES[sq % 8]}{sq // 8 + 1}" for sq in range(64))
_SQUARE_INDEX = {name: sq for sq, name in enumerate(SQUARE_NAMES)}


def square(name: str) -> int:
    """Square index of a name such as ``"d4"`` (case-insensitive)."""
    sq = _SQUARE_INDEX.get(name.strip().lower())
    if sq is None:
        raise ValueError(f"not a square: {name!r} (expected a1..h8)")
    return sq


def move_name(move: int) -> str:
    return "pass" if move == PASS else SQUARE_NAMES[move]


def parse_move(text: str) -> int:
    """``"pass"`` or a square name to a move; raises ``ValueError`` otherwise."""
    if text.strip().lower() == "pass":
        return PASS
    try:
        return square(text)
    except ValueError:
        raise ValueError(f"not a move: {text!r} (expected a1..h8 or pass)") from None


class Variant(enum.Enum):
    """Rule variants: identical move rules, different outcome."""

    OTHELLO = "othello"  # more discs wins
    REVERSED = "reversed"  # Reversed Reversi: fewer discs wins

    @classmethod
    def parse(cls, value: str | Variant) -> Variant:
        if isinstance(value, Variant):
            return value
        try:
            return cls(str(value).lower())
        except ValueError:
            allowed = ", ".join(v.value for v in cls)
            raise ValueError(f"unknown variant {value!r} (allowed: {allowed})") from None

    @property
    def is_reversed(self) -> bool:
        return self is Variant.REVERSED


def bits_of(board: int) -> list[int]:
    """Set squares of a bitboard, ascending (lowest bit first: a few ops per set bit)."""
    out = []
    while board:
        low = board & -board
        out.append(low.bit_length() - 1)
        board ^= low
    return out


@dataclass(frozen=True)
class Position:
    player: int  # discs of the side to move
    opponent: int
    black_to_move: bool = True

    # --- construction ---
    @classmethod
    def start(cls) -> Position:
        """Standard start: black to move, d5 and e4 black, d4 and e5 white."""
        black = (1 << square("d5")) | (1 << square("e4"))
        white = (1 << square("d4")) | (1 << square("e5"))
        return cls(black, white, True)

    @classmethod
    def from_boards(cls, black: int, white: int, black_to_move: bool) -> Position:
        if black & white:
            raise ValueError("black and white boards overlap")
        return cls(black, white, True) if black_to_move else cls(white, black, False)

    @classmethod
    def parse(cls, text: str) -> Position:
        """Parse ``"<64 chars X/O/-> <X|O>"``; raises ``ValueError`` saying what is wrong."""
        parts = text.strip().split()
        if len(parts) != 2:
            raise ValueError(
                f"expected '<64 squares> <side to move>' (two fields), got {len(parts)} field(s)"
            )
        squares, side = parts
        if len(squares) != 64:
            raise ValueError(f"board must have 64 squares, got {len(squares)}")
        bad = sorted({c for c in squares if c not in "XOxo-."})
        if bad:
            raise ValueError(f"board has invalid character(s) {''.join(bad)!r} (use X, O, -)")
        if side.upper() not in ("X", "O"):
            raise ValueError(f"side to move must be X or O, got {side!r}")
        black = sum(1 << i for i, c in enumerate(squares) if c in "Xx")
        white = sum(1 << i for i, c in enumerate(squares) if c in "Oo")
        return cls.from_boards(black, white, side.upper() == "X")

    # --- views ---
    @property
    def black(self) -> int:
        return self.player if self.black_to_move else self.opponent

    @property
    def white(self) -> int:
        return self.opponent if self.black_to_move else self.player

    @property
    def boards(self) -> tuple[np.uint64, np.uint64]:
        return np.uint64(self.player), np.uint64(self.opponent)

    def __str__(self) -> str:
        return self.to_string()

    def to_string(self) -> str:
        black, white = self.black, self.white
        cells = ("X" if black >> i & 1 else "O" if white >> i & 1 else "-" for i in range(64))
        return "".join(cells) + (" X" if self.black_to_move else " O")

    def pretty(self, marks: int = 0) -> str:
        """Board with coordinates, rank 8 on top; ``marks`` squares shown as ``*``."""
        black, white = self.black, self.white
        lines = ["  a b c d e f g h"]
        for rank in range(8, 0, -1):
            row = []
            for f in range(8):
                i = 8 * (rank - 1) + f
                if black >> i & 1:
                    row.append("X")
                elif white >> i & 1:
                    row.append("O")
                else:
                    row.append("*" if marks >> i & 1 else ".")
            lines.append(f"{rank} {' '.join(row)} {rank}")
        lines.append("  a b c d e f g h")
        side = "X (black)" if self.black_to_move else "O (white)"
        lines.append(f"X {bin(black).count('1')}  O {bin(white).count('1')}  {side} to move")
        return "\n".join(lines)

    # --- rules ---
    def legal_moves_mask(self) -> int:
        return int(bb.legal_moves(*self.boards))

    def legal_moves(self) -> list[int]:
        """Legal squares ascending; ``[PASS]`` if the mover must pass; ``[]`` at game end."""
        moves = bits_of(self.legal_moves_mask())
        if moves:
            return moves
        return [] if self.is_game_over() else [PASS]

    def is_game_over(self) -> bool:
        return bool(bb.is_game_over(*self.boards))

    def play(self, move: int) -> Position:
        """Position after ``move``; an illegal move raises ``ValueError`` and changes nothing."""
        if move == PASS:
            if self.legal_moves_mask() or self.is_game_over():
                raise ValueError(f"pass is not legal here; legal moves: {self.legal_names()}")
            return Position(self.opponent, self.player, not self.black_to_move)
        if not 0 <= move < 64:
            raise ValueError(f"not a square index: {move}")
        p, o, flipped = bb.play(np.uint64(self.player), np.uint64(self.opponent), move)
        if flipped == 0:
            raise ValueError(f"illegal move {move_name(move)}; legal moves: {self.legal_names()}")
        return Position(int(p), int(o), not self.black_to_move)

    def legal_names(self) -> str:
        return " ".join(move_name(m) for m in self.legal_moves()) or "(none: game over)"

    @property
    def empties(self) -> int:
        return 64 - bin(self.player | self.opponent).count("1")

    def disc_counts(self) -> tuple[int, int]:
        """(black discs, white discs)."""
        return bin(self.black).count("1"), bin(self.white).count("1")

    def final_score(self, variant: Variant | str = Variant.OTHELLO) -> int:
        """Final score for the side to move (positive = win) under ``variant``."""
        return int(bb.final_score(*self.boards, Variant.parse(variant).is_reversed))

    def black_score(self, variant: Variant | str = Variant.OTHELLO) -> int:
        s = self.final_score(variant)
        return s if self.black_to_move else -s
