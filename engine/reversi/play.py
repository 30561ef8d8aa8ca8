"""Play a game in the terminal against any agent.

    python -m engine.play --opponent wpc1
    python -m engine.play --opponent course --depth 6 --color O --variant reversed
    python -m engine.play --opponent path/to/champion.json

Type a square (``d3``), ``moves`` to list the legal moves again, or ``quit``. Passes are played
automatically and announced. Without ``--variant`` the rules are those the opponent's weights
were made for (a weights file or reference set with a variant), else Othello; a ``--variant``
that contradicts the weights is played as asked, with a warning.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from engine.reversi.agents.factory import allowed_specs, load_spec_weights, make_agent, parse_spec
from engine.reversi.position import PASS, Position, Variant, move_name, parse_move

COLOURS = {"X": "X (black)", "O": "O (white)"}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m engine.play",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--opponent", default="wpc1", help=f"agent spec: {allowed_specs()}")
    parser.add_argument("--variant", default=None,
                        help="othello or reversed (default: the opponent's weights' variant, "
                             "else othello)")
    parser.add_argument("--color", "--colour", default="X", type=str.upper, choices=["X", "O"],
                        help="your colour (X = black, moves first)")
    parser.add_argument("--depth", type=int, default=4,
                        help="search depth of alpha-beta agents (>= 1)")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds per agent move (> 0)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the opponent's randomness")
    return parser.parse_args(argv)


def check_args(args: argparse.Namespace) -> None:
    """``ValueError`` with a one-line message for out-of-range numbers."""
    if args.depth < 1:
        raise ValueError(f"--depth must be >= 1, got {args.depth}")
    if args.time_limit is not None and not args.time_limit > 0:
        raise ValueError(f"--time-limit must be > 0 seconds, got {args.time_limit:g}")


def choose_variant(requested: str | None, opponent: str) -> tuple[Variant, str | None]:
    """The rules to play, and a warning if ``requested`` contradicts the opponent's weights."""
    source = parse_spec(opponent).weights
    made_for = load_spec_weights(source).variant if source is not None else None
    if requested is None:
        return Variant.parse(made_for or "othello"), None
    variant = Variant.parse(requested)
    if made_for is not None and Variant.parse(made_for) is not variant:
        return variant, (f"warning: playing {variant.value} rules as asked, but the opponent's "
                         f"weights {source} were made for {made_for}")
    return variant, None


class Quit(Exception):
    """The human typed ``quit`` or the input ended."""


def read_move(position: Position, stdin: TextIO, out: TextIO) -> int:
    """Prompt until a legal move is typed; never returns an illegal move."""
    legal = position.legal_moves()
    while True:
        out.write("your move> ")
        out.flush()
        line = stdin.readline()
        if not line:
            raise Quit("end of input: game abandoned")
        text = line.strip().lower()
        if text in ("quit", "exit", "q"):
            raise Quit("you quit the game")
        if text in ("moves", "?", "help"):
            out.write(f"legal moves: {position.legal_names()}\n")
            continue
        try:
            move = parse_move(text)
        except ValueError as err:
            out.write(f"{err}; legal moves: {position.legal_names()}\n")
            continue
        if move not in legal:
            out.write(f"illegal move {move_name(move)}; legal moves: {position.legal_names()}\n")
            continue
        return move


def show(position: Position, out: TextIO) -> None:
    out.write("\n" + position.pretty(marks=position.legal_moves_mask()) + "\n")


def result_line(position: Position, variant: Variant, human_black: bool) -> str:
    black, white = position.disc_counts()
    score = position.black_score(variant)
    if score == 0:
        verdict = "draw"
    else:
        winner_black = score > 0
        who = "you win" if winner_black == human_black else "you lose"
        verdict = f"{COLOURS['X' if winner_black else 'O']} wins: {who}"
    rule = "fewer discs wins" if variant.is_reversed else "more discs wins"
    return f"game over: X {black}  O {white} ({variant.value}, {rule}); {verdict}"


def play(agent, variant: Variant, human_black: bool, stdin: TextIO, out: TextIO) -> Position:
    position = Position.start()
    while True:
        legal = position.legal_moves()
        if not legal:
            return position
        side = "X" if position.black_to_move else "O"
        human = position.black_to_move == human_black
        if legal == [PASS]:
            out.write(f"{COLOURS[side]} ({'you' if human else agent.name}) has no legal move "
                      "and passes.\n")
            position = position.play(PASS)
            continue
        if human:
            show(position, out)
            out.write(f"legal moves (*): {position.legal_names()}\n")
            move = read_move(position, stdin, out)
        else:
            move = agent.select_move(position)
            out.write(f"{COLOURS[side]} ({agent.name}) plays {move_name(move)}\n")
        position = position.play(move)


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    stdin = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    args = parse_args(argv)
    try:
        check_args(args)
        variant, warning = choose_variant(args.variant, args.opponent)
        agent = make_agent(args.opponent, variant, depth=args.depth, time_limit=args.time_limit,
                           seed=args.seed)
    except ValueError as err:  # includes WeightsFileError: one line, no traceback
        print(f"error: {err}", file=sys.stderr)
        return 2
    if warning:
        print(warning, file=sys.stderr)
    human_black = args.color == "X"
    out.write(f"You are {COLOURS[args.color]} against {agent.name} ({variant.value} rules). "
              "Type a move like d3, 'moves', or 'quit'.\n")
    try:
        final = play(agent, variant, human_black, stdin, out)
    except Quit as stop:
        out.write(f"\n{stop}\n")
        return 0
    except KeyboardInterrupt:
        out.write("\ninterrupted: game abandoned\n")
        return 130
    show(final, out)
    out.write(result_line(final, variant, human_black) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
