"""Play Pentago Twist in the terminal against any agent.

    python -m engine.play --game pentago_twist --opponent mcts --time-limit 1
    python -m engine.play --game pentago_twist --opponent path/to/champion.json --colour B

Type a move as the course writes it, ``x y a b``: place on row x (0 = top), column y, then
transform quadrant a (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right) with b = 0
(rotate clockwise) or b = 1 (flip horizontally). ``moves`` lists the legal moves, ``quit`` ends
the game. The loop is the one every game shares (``engine.core.commands.play``); this module holds
Pentago Twist's options and board.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from engine.core.commands.play import View, add_options, run
from engine.core.commands.play_any import opponent_agent
from engine.pentago.agents.factory import allowed_specs
from engine.pentago.game import GAME
from engine.pentago.rules.state import State, state_text


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m engine.play --game pentago_twist",
                                     description=__doc__.split("\n")[0])
    add_options(parser, "greedy", allowed_specs(), ("W", "B"), depth=3)
    return parser.parse_args(argv)


def board_picture(state: State) -> str:
    """The board with row and column numbers, the quadrants set apart."""
    rows = state_text(state).splitlines()[:6]
    lines = ["    0 1 2   3 4 5"]
    for x, row in enumerate(rows):
        cells = " ".join(row)
        lines.append(f" {x}  {cells[:5]}   {cells[6:]}")
        if x == 2:
            lines.append("")
    return "\n".join(lines)


VIEW = View(board_picture, ("W (white)", "B (black)"), how_to_move="a move as x y a b",
            prompt="your move (x y a b)> ")


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    args = parse_args(argv)
    try:
        agent, shown = opponent_agent(GAME, args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return run(GAME, agent, ("W", "B").index(args.colour), VIEW, stdin, stdout, shown)


if __name__ == "__main__":
    sys.exit(main())
