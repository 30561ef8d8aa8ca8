"""``python -m engine.play --game NAME``: the play command of a game that has none of its own
(``GameBase``'s default ``cli_commands``): the shared loop of ``engine.core.commands.play`` with the
game's state text as the board and its players' names as the colours.

    python -m engine.play --game connect_four --opponent reference --depth 4
    python -m engine.play --opponent outputs/<run>/champion.json     # the file says the game
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
from engine.core.matches import specs
from engine.core.records import Champion
from engine.core.registry import get_game


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--game", required=True)
    known, _ = pre.parse_known_args(argv)
    try:
        game = get_game(known.game)
    except ValueError as exc:
        print(f"error: --game: {exc}", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog=f"python -m engine.play --game {game.name}",
                                     description=f"Play {game.description or game.name}.")
    parser.add_argument("--game", help=argparse.SUPPRESS)
    opponent = game.default_panel[0] if game.default_panel else "random"
    add_options(parser, opponent, ", ".join(game.agent_specs()), game.players, depth=3)
    args = parser.parse_args(argv)
    try:
        agent, shown = opponent_agent(game, args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    view = View(game.state_text, tuple(game.players), how_to_move="a move as the game writes it")
    return run(game, agent, game.players.index(args.colour), view, stdin, stdout, shown)


def opponent_agent(game, args):
    """The options checked and the opponent made at its search: (agent, the search to show, or
    None for an agent that does not search); ``ValueError`` for bad options."""
    check_options(args)
    opponent = specs.resolve_player(game, args.opponent)  # a champion file: read once, here
    specs.check_spec(game, opponent)
    search = champion_opponent_search(args, opponent)
    agent = clocked(specs.make_agent(game, opponent, search.search, args.seed), args, game)
    return agent, shown_search(game, args.opponent, search)


def champion_opponent_search(args, opponent: specs.Player):
    """The opponent's search: a loaded champion's record, flags over it
    (``engine.core.commands.play.opponent_search``)."""
    return opponent_search(args, opponent if isinstance(opponent, Champion) else None)


if __name__ == "__main__":
    sys.exit(main())
