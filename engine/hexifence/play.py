"""Play Hexifence in the terminal against any agent, the board drawn as the course printed it.

    python -m engine.play --game hexifence --size 3 --opponent chain
    python -m engine.play --game hexifence --size 2 --opponent perfect --colour red
    python -m engine.play --game hexifence --opponent path/to/champion.json --time-limit 1

Type an edge as ``row col`` on the grid (the ``+`` points; row 0 at the top), or ``quit``.
A move that captures a cell gives the same player another move.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from engine.core import SearchSettings
from engine.hexifence.game import GAME
from engine.hexifence.state import PLAYER_NAMES, State


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m engine.play --game hexifence",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=3, help="dimension N (course: 2 or 3)")
    parser.add_argument("--opponent", default="chain",
                        help=f"agent spec: {', '.join(GAME.agent_specs())}")
    parser.add_argument("--colour", "--color", default="blue", type=str.lower,
                        choices=PLAYER_NAMES, help="your colour (blue moves first)")
    parser.add_argument("--depth", type=int, default=3, help="alpha-beta depth in turns (>= 1)")
    parser.add_argument("--endgame-empties", type=int, default=24,
                        help="alpha-beta plays exactly from this many undrawn edges")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per agent move")
    parser.add_argument("--seed", type=int, default=0, help="seed of the opponent's randomness")
    return parser.parse_args(argv)


def board_picture(state: State) -> str:
    """The course's printout with row and column numbers around it."""
    width = state.board.width
    lines = ["     " + " ".join(str(c % 10) for c in range(width))]
    for y, row in enumerate(state.to_text().splitlines()[1:width + 1]):
        lines.append(f"{y:>3}  {row}")
    blue, red = state.scores
    lines.append(f"blue {blue}  red {red}")
    return "\n".join(lines)


def read_move(game, state: State, stdin: TextIO, out: TextIO) -> int | None:
    while True:
        out.write("your move (row col)> ")
        out.flush()
        line = stdin.readline()
        if not line or line.strip().lower() in ("quit", "exit", "q"):
            return None
        try:
            return game.parse_move(line, state)
        except ValueError as exc:
            out.write(f"{exc}\n")


def play(args, stdin: TextIO = sys.stdin, out: TextIO = sys.stdout) -> int:
    game = GAME.with_settings({"size": args.size})
    search = SearchSettings(depth=args.depth, endgame_empties=args.endgame_empties,
                            time_limit=args.time_limit)
    opponent = game.make_panel_agent(args.opponent, search, args.seed)
    human = PLAYER_NAMES.index(args.colour)
    state = game.initial_state()
    while not state.is_terminal():
        out.write(board_picture(state) + f"\n{PLAYER_NAMES[state.to_move]} to move\n")
        if state.to_move == human:
            move = read_move(game, state, stdin, out)
            if move is None:
                out.write("game abandoned\n")
                return 0
        else:
            move = opponent.select_move(state)
            info = getattr(opponent, "last_info", None) or ""
            out.write(f"{opponent.name} plays {game.move_text(move)} {info}\n")
        state = state.play(move)
    blue, red = state.scores
    winner = 0 if blue > red else 1
    out.write(board_picture(state) + "\n" + ("you win" if winner == human else "you lose")
              + f" ({blue}-{red})\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.depth < 1:
            raise ValueError(f"--depth must be >= 1, got {args.depth}")
        if args.endgame_empties < 0:
            raise ValueError(f"--endgame-empties must be >= 0, got {args.endgame_empties}")
        if args.time_limit is not None and not args.time_limit > 0:
            raise ValueError(f"--time-limit must be > 0 seconds, got {args.time_limit:g}")
        GAME.with_settings({"size": args.size}).check_spec(args.opponent)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return play(args)


if __name__ == "__main__":
    sys.exit(main())
