"""Stand-in of the framework's ``Reversi.reversi_utils``: cell values and the disc count."""

from enum import Enum

GRID_SIZE = 8


class Cell(Enum):
    EMPTY = -1
    BLACK = 0
    WHITE = 1


def countScore(board, grid_size, player_color):  # noqa: N802 - the framework's name
    return sum(row[:grid_size].count(player_color) for row in board[:grid_size])
