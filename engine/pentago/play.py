"""Play Pentago Twist in the terminal against any agent.

    python -m engine.play --game pentago_twist --opponent mcts --time-limit 1
    python -m engine.play --game pentago_twist --opponent path/to/champion.json --colour B

Type a move as the course writes it, ``x y a b``: place on row x (0 = top), column y, then
transform quadrant a (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right) with b = 0
(rotate clockwise) or b = 1 (flip horizontally). ``quit`` ends the game.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from engine.core import SearchSettings
from engine.pentago.game import GAME
from engine.pentago.specs import allowed_specs
from engine.pentago.state import State, move_text, parse_move, state_text


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m engine.play --game pentago_twist",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--opponent", default="greedy", help=f"agent spec: {allowed_specs()}")
    parser.add_argument("--colour", "--color", default="W", type=str.upper, choices=["W", "B"],
                        help="your colour (W = white, moves first)")
    parser.add_argument("--depth", type=int, default=3, help="alpha-beta depth (>= 1)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per agent move")
    parser.add_argument("--seed", type=int, default=0, help="seed of the opponent's randomness")
    return parser.parse_args(argv)


def board_picture(state: State) -> str:
    rows = state_text(state).splitlines()[:6]
    lines = ["    0 1 2   3 4 5"]
    for x, row in enumerate(rows):
        cells = " ".join(row)
        lines.append(f" {x}  {cells[:5]}   {cells[6:]}")
        if x == 2:
            lines.append("")
    return "\n".join(lines)


def read_move(state: State, stdin: TextIO, out: TextIO) -> int | None:
    while True:
        out.write("your move (x y a b)> ")
        out.flush()
        line = stdin.readline()
        if not line or line.strip().lower() in ("quit", "exit", "q"):
            return None
        try:
            return parse_move(line, state)
        except ValueError as exc:
            out.write(f"{exc}\n")


def play(args, stdin: TextIO = sys.stdin, out: TextIO = sys.stdout) -> int:
    search = SearchSettings(depth=args.depth, time_limit=args.time_limit)
    opponent = GAME.make_panel_agent(args.opponent, search, args.seed)
    human = 0 if args.colour == "W" else 1
    state = State()
    while not state.is_over():
        out.write(board_picture(state) + f"\n{'WB'[state.to_move]} to move\n")
        if state.to_move == human:
            move = read_move(state, stdin, out)
            if move is None:
                out.write("game abandoned\n")
                return 0
        else:
            move = opponent.select_move(state)
            info = getattr(opponent, "last_info", None) or ""
            out.write(f"{opponent.name} plays {move_text(move)} {info}\n")
        state = state.apply(move)
    winner = state.winner()
    out.write(board_picture(state) + "\n" + ("draw" if winner == -1 else
              ("you win" if winner == human else "you lose")) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.depth < 1:
            raise ValueError(f"--depth must be >= 1, got {args.depth}")
        if args.time_limit is not None and not args.time_limit > 0:
            raise ValueError(f"--time-limit must be > 0 seconds, got {args.time_limit:g}")
        GAME.check_spec(args.opponent)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return play(args)


if __name__ == "__main__":
    sys.exit(main())
