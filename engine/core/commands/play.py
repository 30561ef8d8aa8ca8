"""The terminal play loop every game's ``play`` command shares: a person against an agent, over
the ``Game`` state interface (``initial_state``, ``legal_moves``, ``to_move``, ``apply``,
``outcome``, ``parse_move``, ``move_text``, ``move_label``).

A game's command parses its own options, builds the agent and says how people see the game (a
``View``: the board drawing, the players' names, how moves are typed); ``run`` does the rest,
the same way for every game:

- before each of the person's moves the board is drawn; the person types a move as the game
  writes it (``parse_move``), ``moves`` (or ``?``, ``help``) for the legal moves, or ``quit``;
  a move that does not parse or is not legal gets one line saying why (with the legal moves
  when they are few) and the prompt again: nothing is applied;
- a forced move (``View.forced``; by default the only legal one) is played and announced;
- the agent's moves are announced, with what the agent says about them (``last_info``);
- the game ends with the final board and one line: the score if the game shows one, the
  winner, and whether you won. End of input or ``quit`` abandons the game (exit status 0),
  Ctrl-C too (130).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from engine.core.champions.search import ChampionSearch, champion_search
from engine.core.game import DRAW, Game, SearchSettings
from engine.core.matches.clock import ClockedAgent, TimeControl
from engine.core.matches.runner import only_move

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("moves", "?", "help")
MAX_LISTED = 40  # an error lists the legal moves up to this many (else: type 'moves')


class Quit(Exception):
    """The person typed ``quit`` or the input ended."""


@dataclass(frozen=True)
class View:
    """How people see one game in the terminal (what each game's play command supplies)."""

    draw: Callable[[Any], str]  # the board, and whatever helps to choose a move
    sides: tuple[str, str]  # the players as shown, in turn order: ("X (black)", "O (white)")
    how_to_move: str = "a move"  # for the first line: "Type a move like d3, ..."
    prompt: str = "your move> "
    about: str = ""  # after the opponent's name in the first line, e.g. "othello rules"
    score: Callable[[Any], str] | None = None  # the final count, e.g. "X 40  O 24"
    forced: Callable[[Sequence[int]], bool] = only_move  # played without asking


def add_options(parser: argparse.ArgumentParser, opponent: str, specs: str,
                colours: Sequence[str], depth: int, endgame_empties: int = 8) -> None:
    """The options every play command has: --opponent, --colour/--color (the first of
    ``colours`` moves first and is the default), --depth and --endgame-empties (default: a
    champion's recorded search, else ``depth`` and ``endgame_empties``), --time-limit or
    --clock, --seed."""
    parser.add_argument("--opponent", default=opponent, help=f"agent spec: {specs}")
    parser.add_argument("--colour", "--color", default=colours[0], choices=colours,
                        type=str.upper if colours[0].isupper() else str.lower,
                        help=f"your colour ({colours[0]} moves first)")
    parser.add_argument("--depth", type=int, default=None,
                        help="search depth of alpha-beta agents (>= 1; default: a champion's "
                        f"recorded depth, else {depth})")
    parser.add_argument("--endgame-empties", type=int, default=None, metavar="N",
                        help="search exactly from this many moves before the end (default: a "
                        f"champion's recorded setting, else {endgame_empties})")
    timing = parser.add_mutually_exclusive_group()
    timing.add_argument("--time-limit", type=float, default=None,
                        help="seconds per agent move (> 0)")
    timing.add_argument("--clock", default=None, metavar="BASE[+INC]",
                        help="the agent's game clock, e.g. 60+1: 60 s for the game, 1 s more "
                        "after each move (shared over its moves, more at mid-game)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the opponent's randomness")
    parser.set_defaults(search_defaults=SearchSettings(depth, endgame_empties))


def opponent_search(args: argparse.Namespace, champion: str | None) -> ChampionSearch:
    """The opponent's search: the ``champion`` file's recorded search (its ``metadata.search``,
    else its study's config), else the command's defaults, with the flags given over it
    (``engine.core.champions.search``). Call after ``check_options``."""
    return champion_search(champion, args.search_defaults,
                           {"depth": args.depth, "endgame_empties": args.endgame_empties,
                            "time_limit": args.time_limit})


def check_options(args: argparse.Namespace) -> None:
    """``ValueError`` with a one-line message for out-of-range numbers."""
    if args.depth is not None and args.depth < 1:
        raise ValueError(f"--depth must be >= 1, got {args.depth}")
    if args.time_limit is not None and not args.time_limit > 0:
        raise ValueError(f"--time-limit must be > 0 seconds, got {args.time_limit:g}")
    if (getattr(args, "endgame_empties", None) or 0) < 0:
        raise ValueError(f"--endgame-empties must be >= 0, got {args.endgame_empties}")
    if getattr(args, "clock", None) is not None:
        try:
            args.clock = TimeControl.parse(args.clock)
        except ValueError as err:
            raise ValueError(f"--clock: {err}") from None
        args.time_limit = args.clock.base  # the agent is built timed; its clock sets each move


def clocked(agent, args: argparse.Namespace, game: Game):
    """``agent`` under the ``--clock`` of ``args`` (after ``check_options``), else itself."""
    clock = getattr(args, "clock", None)
    return agent if clock is None else ClockedAgent(agent, clock, game)


@dataclass(frozen=True)
class FixedSearch:
    """The search of an agent the search settings do not change, as ``Game.fixed_search``
    words it; said in the first lines like a champion's search."""

    words: str

    def text(self) -> str:
        return f"{self.words} (its own search; the depth and exact endgame settings do not apply)"

    def sentence(self, name: str) -> str:
        no, _, how = self.words.partition("no search, ")
        return f"{name} does not search ({how})." if how and not no else \
            f"{name} searches {self.text()}."


def shown_search(game: Game, spec: str, search: ChampionSearch):
    """What the first lines say about the opponent ``spec``'s search: ``search`` for an agent
    that searches by the settings, else its own search in words (None if the game has none)."""
    if game.spec_searches(spec):
        return search
    words = game.fixed_search(spec)
    return FixedSearch(words) if words else None


def run(game: Game, agent, human: int, view: View, stdin: TextIO | None = None,
        out: TextIO | None = None, search: ChampionSearch | None = None) -> int:
    """One game between the person (player ``human``: 0 moves first) and ``agent``; returns
    the command's exit status. ``search``: how the agent searches, said in the first lines
    (``shown_search``; ``None``: nothing to say)."""
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    about = f" ({view.about})" if view.about else ""
    out.write(f"You are {view.sides[human]} against {agent.name}{about}. Type "
              f"{view.how_to_move}, 'moves', or 'quit'.\n")
    if isinstance(search, FixedSearch):
        out.write(search.sentence(agent.name) + "\n")
    elif search is not None:
        out.write(f"{agent.name} searches {search.text()}.\n")
    try:
        final = play(game, agent, human, view, stdin, out)
    except Quit as stop:
        out.write(f"\n{stop}\n")
        return 0
    except KeyboardInterrupt:
        out.write("\ninterrupted: game abandoned\n")
        return 130
    out.write("\n" + view.draw(final) + "\n" + result_line(game, final, human, view) + "\n")
    return 0


def play(game: Game, agent, human: int, view: View, stdin: TextIO, out: TextIO):
    """Play to the end; returns the final state (``Quit`` if the person stops)."""
    state = game.initial_state()
    while legal := game.legal_moves(state):
        player = game.to_move(state)
        if view.forced(legal):
            move = legal[0]
            who = "you" if player == human else agent.name
            out.write(f"{view.sides[player]} ({who}) has only one legal move: "
                      f"{move_shown(game, move, state)}\n")
        elif player == human:
            out.write("\n" + view.draw(state) + "\n")
            move = read_move(game, state, legal, view, stdin, out)
        else:
            move = int(agent.select_move(state))
            out.write(f"{view.sides[player]} ({agent.name}) plays "
                      f"{move_shown(game, move, state)}{info_text(agent)}\n")
        state = game.apply(state, move)
    return state


def read_move(game: Game, state, legal: Sequence[int], view: View, stdin: TextIO,
              out: TextIO) -> int:
    """Prompt until a legal move is typed; never returns an illegal move."""
    while True:
        out.write(view.prompt)
        out.flush()
        line = stdin.readline()
        if not line:
            raise Quit("end of input: game abandoned")
        text = line.strip()
        if text.lower() in QUIT_WORDS:
            raise Quit("you quit the game")
        if text.lower() in HELP_WORDS:
            out.write(f"legal moves: {legal_text(game, legal)}\n")
            continue
        try:
            move = game.parse_move(text, state)
            if move not in legal:
                raise ValueError(f"illegal move {game.move_text(move)}")
        except ValueError as err:
            hint = (f"legal moves: {legal_text(game, legal)}" if len(legal) <= MAX_LISTED
                    else "type 'moves' for the legal moves")
            out.write(f"{err}; {hint}\n")
            continue
        return move


def move_shown(game: Game, move: int, state) -> str:
    """The move as typed, and as described for people when that says more (``move_label``)."""
    text, label = game.move_text(move), game.move_label(move, state)
    return label if label.startswith(text) else f"{text} ({label})"


def legal_text(game: Game, legal: Sequence[int]) -> str:
    """The moves as typed, separated by spaces, or by commas when a move holds a space."""
    texts = [game.move_text(m) for m in legal]
    return (", " if any(" " in t for t in texts) else " ").join(texts)


def info_text(agent) -> str:
    """`` (eval 1.5, exact False)`` from the agent's ``last_info``; empty without one."""
    info = getattr(agent, "last_info", None) or {}
    parts = [f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}"
             for k, v in info.items() if v is not None]
    return f" ({', '.join(parts)})" if parts else ""


def result_line(game: Game, final, human: int, view: View) -> str:
    """``game over: <score>; <winner> wins: you win`` (or ``draw``)."""
    winner = game.outcome(final).winner
    verdict = "draw" if winner == DRAW else \
        f"{view.sides[winner]} wins: {'you win' if winner == human else 'you lose'}"
    score = view.score(final) if view.score is not None else ""
    return f"game over: {score}; {verdict}" if score else f"game over: {verdict}"
