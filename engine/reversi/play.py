"""Play Othello or Reversed Reversi in the terminal against any agent.

    python -m engine.play --opponent wpc1
    python -m engine.play --opponent course --depth 6 --color O --variant reversed
    python -m engine.play --opponent path/to/champion.json

Type a square (``d3``), ``moves`` to list the legal moves again, or ``quit``. Passes are played
automatically and announced. Without ``--variant`` the rules are those the opponent's weights
were made for (a weights file or reference set with a variant), else Othello; a ``--variant``
that contradicts the weights is played as asked, with a warning. The loop is the one every game
shares (``engine.core.commands.play``); this module holds Reversi's options and board.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from engine.core.commands.play import (
    View,
    add_options,
    check_options,
    clocked,
    opponent_search,
    run,
    shown_search,
)
from engine.core.game import Champion
from engine.core.matches.specs import Player, resolve_player
from engine.reversi.agents.factory import allowed_specs, load_spec_weights, make_agent, parse_spec
from engine.reversi.game_states import only_pass
from engine.reversi.rules.state import Position, Variant

SIDES = ("X (black)", "O (white)")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m engine.play",
                                     description=__doc__.split("\n")[0])
    add_options(parser, "wpc1", allowed_specs(), ("X", "O"), depth=4, endgame_empties=10)
    parser.add_argument("--variant", default=None,
                        help="othello or reversed (default: the opponent's weights' variant, "
                             "else othello)")
    return parser.parse_args(argv)


def choose_variant(requested: str | None, opponent: Player) -> tuple[Variant, str | None]:
    """The rules to play, and a warning if ``requested`` contradicts the opponent's weights
    (a ``Champion``'s, or those its spec names)."""
    if isinstance(opponent, Champion):
        source, made_for = opponent.path, opponent.evaluation.variant
    else:
        source = parse_spec(opponent).weights
        made_for = load_spec_weights(source).variant if source is not None else None
    if requested is None:
        return Variant.parse(made_for or "othello"), None
    variant = Variant.parse(requested)
    if made_for is not None and Variant.parse(made_for) is not variant:
        return variant, (f"warning: playing {variant.value} rules as asked, but the opponent's "
                         f"weights {source} were made for {made_for}")
    return variant, None


def board(position: Position) -> str:
    """The board with coordinates, the legal squares marked ``*`` and listed."""
    picture = position.pretty(marks=position.legal_moves_mask())
    if position.is_game_over():
        return picture
    return picture + f"\nlegal moves (*): {position.legal_names()}"


def view(variant: Variant) -> View:
    rule = "fewer discs wins" if variant.is_reversed else "more discs wins"

    def score(position: Position) -> str:
        black, white = position.disc_counts()
        return f"X {black}  O {white} ({variant.value}, {rule})"

    return View(board, SIDES, how_to_move="a move like d3", about=f"{variant.value} rules",
                score=score, forced=only_pass)


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    from engine.reversi.game import OTHELLO, REVERSED_REVERSI

    args = parse_args(argv)
    try:
        check_options(args)
        opponent = resolve_player(OTHELLO, args.opponent)  # a weights file: read once, here
        variant, warning = choose_variant(args.variant, opponent)
        game = REVERSED_REVERSI if variant.is_reversed else OTHELLO
        if isinstance(opponent, Champion):
            search = opponent_search(args, opponent)
            agent = game.champion_agent(opponent, search.search, args.seed)
        else:
            searches = parse_spec(opponent).kind == "alphabeta"
            search = opponent_search(args, parse_spec(opponent).weights_file if searches
                                     else None)
            agent = make_agent(opponent, variant, depth=search.search.depth,
                               time_limit=search.search.time_limit, seed=args.seed,
                               endgame_empties=search.search.endgame_empties)
    except ValueError as err:  # includes WeightsFileError: one line, no traceback
        print(f"error: {err}", file=sys.stderr)
        return 2
    if warning:
        print(warning, file=sys.stderr)
    agent = clocked(agent, args, game)
    return run(game, agent, ("X", "O").index(args.colour), view(variant), stdin, stdout,
               shown_search(game, args.opponent, search))


if __name__ == "__main__":
    sys.exit(main())
