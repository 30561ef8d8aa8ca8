"""Slow, obviously correct Reversi rules on a list of 64 cells: the reference the numba
kernels are tested against. Used only by tests; written without bit tricks on purpose.

Cells: +1 = side to move, -1 = opponent, 0 = empty; index = 8 * row + col, row 0 = rank 1.
"""

from __future__ import annotations

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def from_boards(player: int, opponent: int) -> list[int]:
    return [1 if player >> i & 1 else -1 if opponent >> i & 1 else 0 for i in range(64)]


def to_boards(cells: list[int]) -> tuple[int, int]:
    player = sum(1 << i for i, c in enumerate(cells) if c == 1)
    opponent = sum(1 << i for i, c in enumerate(cells) if c == -1)
    return player, opponent


def flipped_squares(cells: list[int], sq: int) -> list[int]:
    """Opponent discs flipped if the side to move plays ``sq`` (empty list: illegal)."""
    if cells[sq] != 0:
        return []
    row, col = divmod(sq, 8)
    flipped = []
    for dr, dc in DIRECTIONS:
        run = []
        r, c = row + dr, col + dc
        while 0 <= r < 8 and 0 <= c < 8 and cells[8 * r + c] == -1:
            run.append(8 * r + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and cells[8 * r + c] == 1:
            flipped.extend(run)
    return sorted(flipped)


def legal_moves(cells: list[int]) -> list[int]:
    return [sq for sq in range(64) if flipped_squares(cells, sq)]


def play(cells: list[int], sq: int) -> list[int]:
    """Cells after the move, seen from the NEXT player (signs swapped)."""
    flipped = flipped_squares(cells, sq)
    assert flipped, "illegal move"
    after = list(cells)
    after[sq] = 1
    for f in flipped:
        after[f] = 1
    return [-c for c in after]


def pass_turn(cells: list[int]) -> list[int]:
    return [-c for c in cells]


def is_game_over(cells: list[int]) -> bool:
    return not legal_moves(cells) and not legal_moves(pass_turn(cells))


def final_score(cells: list[int], variant: str) -> int:
    """Disc difference for the side to move; empties go to the winner (Othello) or to the
    loser (Reversed Reversi, fewer discs wins) so the margin includes them in both."""
    own, opp = cells.count(1), cells.count(-1)
    empties = cells.count(0)
    if variant == "othello":
        if own > opp:
            return own - opp + empties
        if own < opp:
            return own - opp - empties
        return 0
    if own < opp:
        return opp - own + empties
    if own > opp:
        return opp - own - empties
    return 0


def perft(cells: list[int], depth: int, passed: bool = False) -> int:
    moves = legal_moves(cells)
    if not moves:
        if passed or depth == 1:
            return 1
        return perft(pass_turn(cells), depth - 1, True)
    if depth == 1:
        return len(moves)
    return sum(perft(play(cells, m), depth - 1) for m in moves)
