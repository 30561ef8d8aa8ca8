"""Stand-in of the framework's ``Reversi.reversi_model``: standard Othello on
``board[x][y]`` (``Cell`` values), black first, ``"Pass"`` the only action of a side that
cannot move, the game over when neither side can move."""

import copy
import random

from Reversi.reversi_utils import GRID_SIZE, Cell, countScore
from template import GameRule, GameState

DIRECTIONS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


class ReversiState(GameState):
    def __init__(self, num_of_agents, grid_size, agent_colors):
        self.grid_size = grid_size
        self.agent_colors = agent_colors
        self.board = [[Cell.EMPTY] * grid_size for _ in range(grid_size)]
        h = grid_size // 2
        self.board[h - 1][h - 1] = self.board[h][h] = Cell.WHITE
        self.board[h][h - 1] = self.board[h - 1][h] = Cell.BLACK

    def getCell(self, cell):  # noqa: N802 - the framework's names
        return self.board[cell[0]][cell[1]]


def captured(board, x, y, colour):
    """Squares of the opponent's discs that ``colour`` flips by playing (x, y)."""
    out = []
    for dx, dy in DIRECTIONS:
        run, i, j = [], x + dx, y + dy
        while 0 <= i < GRID_SIZE and 0 <= j < GRID_SIZE and board[i][j] not in (Cell.EMPTY,
                                                                                 colour):
            run.append((i, j))
            i, j = i + dx, j + dy
        if run and 0 <= i < GRID_SIZE and 0 <= j < GRID_SIZE and board[i][j] == colour:
            out += run
    return out


class ReversiGameRule(GameRule):
    def __init__(self, num_of_agent, first_agent=None):
        self.first_agent = first_agent
        super().__init__(num_of_agent)

    def initialGameState(self):  # noqa: N802
        first = random.randrange(self.num_of_agent) if self.first_agent is None else \
            self.first_agent
        self.current_agent_index = first
        self.agent_colors = {first: Cell.BLACK, 1 - first: Cell.WHITE}
        return ReversiState(self.num_of_agent, GRID_SIZE, self.agent_colors)

    def getLegalActions(self, game_state, agent_id):  # noqa: N802
        colour = self.agent_colors[agent_id]
        board = game_state.board
        actions = [(x, y) for x in range(GRID_SIZE) for y in range(GRID_SIZE)
                   if board[x][y] == Cell.EMPTY and captured(board, x, y, colour)]
        return actions or ["Pass"]

    def generateSuccessor(self, state, action, agent_id):  # noqa: N802
        if action == "Pass":
            return state
        colour = self.agent_colors[agent_id]
        nxt = copy.deepcopy(state)
        for i, j in captured(nxt.board, action[0], action[1], colour):
            nxt.board[i][j] = colour
        nxt.board[action[0]][action[1]] = colour
        return nxt

    def gameEnds(self):  # noqa: N802
        state = self.current_game_state
        return all(self.getLegalActions(state, i) == ["Pass"] for i in range(2))

    def calScore(self, game_state, agent_id):  # noqa: N802
        return countScore(game_state.board, GRID_SIZE, self.agent_colors[agent_id])
