"""Play Hexifence in the terminal against any agent, the board drawn as the course printed it.

    python -m engine.play --game hexifence --size 3 --opponent chain
    python -m engine.play --game hexifence --size 2 --opponent perfect --colour red
    python -m engine.play --game hexifence --opponent path/to/champion.json --time-limit 1

Type an edge as ``row col`` on the grid (the ``+`` points; row 0 at the top), ``moves`` for the
free edges, or ``quit``. A move that captures a cell gives the same player another move. The
loop is the one every game shares (``engine.core.commands.play``); this module holds Hexifence's
options and board.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import TextIO

from engine.core.commands.play import View, add_options, check_options, clocked, run, shown_search
from engine.core.commands.play_any import champion_opponent_search
from engine.core.matches import specs
from engine.hexifence.game import GAME
from engine.hexifence.rules.state import PLAYER_NAMES, State


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m engine.play --game hexifence",
                                     description=__doc__.split("\n")[0])
    add_options(parser, "chain", ", ".join(GAME.agent_specs()), PLAYER_NAMES, depth=3,
                endgame_empties=24)  # endgame: undrawn edges searched exactly
    parser.add_argument("--size", type=int, default=3, help="dimension N (course: 2 or 3)")
    return parser.parse_args(argv)


def board_picture(state: State) -> str:
    """The course's printout with row and column numbers around it, and the cells won."""
    width = state.board.width
    lines = ["     " + " ".join(str(c % 10) for c in range(width))]
    for y, row in enumerate(state.to_text().splitlines()[1:width + 1]):
        lines.append(f"{y:>3}  {row}")
    return "\n".join(lines) + "\n" + score(state)


def score(state: State) -> str:
    blue, red = state.scores
    return f"blue {blue}  red {red}"


VIEW = View(board_picture, PLAYER_NAMES, how_to_move="an edge as row col",
            prompt="your move (row col)> ", score=score)


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    args = parse_args(argv)
    try:
        check_options(args)
        game = GAME.with_settings({"size": args.size})
        opponent = specs.resolve_player(game, args.opponent)  # a champion file: read once, here
        specs.check_spec(game, opponent)
        search = champion_opponent_search(args, opponent)
        agent = clocked(specs.make_agent(game, opponent, search.search, args.seed), args, game)
    except ValueError as exc:  # GameSettingsError too: one line naming the setting
        print(f"error: {exc}", file=sys.stderr)
        return 2
    view = dataclasses.replace(VIEW, about=f"N={args.size}")
    shown = shown_search(game, args.opponent, search)
    return run(game, agent, PLAYER_NAMES.index(args.colour), view, stdin, stdout, shown)


if __name__ == "__main__":
    sys.exit(main())
