"""The shared terminal play loop (``engine.core.commands.play``): every registered game plays to the
end from typed moves; bad input gets one line and the prompt again; forced moves, the agent's moves
and the result are announced; quitting and end of input end cleanly."""

from __future__ import annotations

import io
import re

import pytest

from engine.core import DRAW, game_names, get_game
from engine.core.base import GameBase
from engine.core.commands.play import View, run
from engine.core.game import Outcome

PROMPT = "your move> "


class FirstLegalAgent:
    """Plays the first legal move; says how many there were."""

    name = "first"

    def __init__(self, game):
        self.game, self.last_info = game, {}

    def reset(self, seed=None):
        pass

    def select_move(self, state):
        legal = self.game.legal_moves(state)
        self.last_info = {"choices": len(legal), "value": 0.25}
        return legal[0]


class TypesTheLastListedMove(io.TextIOBase):
    """A person who asks for the legal moves, then types the last one listed."""

    def __init__(self, out: io.StringIO):
        self.out, self.asked = out, False

    def readline(self, size=-1):
        self.asked = not self.asked
        if self.asked:
            return "moves\n"
        listing = self.out.getvalue().rsplit("legal moves: ", 1)[1].splitlines()[0]
        return listing.split(", " if ", " in listing else " ")[-1] + "\n"


def play(game, text_or_reader, human=0, view=None, agent=None):
    out = io.StringIO()
    stdin = text_or_reader(out) if callable(text_or_reader) else io.StringIO(text_or_reader)
    view = view or View(game.state_text, game.players)
    code = run(game, agent or FirstLegalAgent(game), human, view, stdin, out)
    return code, out.getvalue()


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("human", [0, 1])
def test_every_game_plays_to_the_end_from_typed_moves(name, human):
    game = get_game(name)
    code, out = play(game, TypesTheLastListedMove, human)
    assert code == 0
    last = out.strip().splitlines()[-1]
    verdict = re.fullmatch(r"game over: (draw|(\w+) wins: you (win|lose))", last)
    assert verdict, last
    if verdict[1] != "draw":
        assert (verdict[3] == "win") == (game.players.index(verdict[2]) == human)
    assert "(first) plays" in out and "(choices " in out and "value 0.25" in out


class Race(GameBase):
    """A toy game: players take 1 or 2 from 4 counters; whoever takes the last one wins. A
    state is (counters left, player to move)."""

    name, players = "race", ("north", "south")

    def initial_state(self):
        return 4, 0

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        return [t for t in (1, 2) if t <= state[0]]

    def apply(self, state, move):
        if move not in self.legal_moves(state):
            raise ValueError(f"cannot take {move} from {state[0]}")
        return state[0] - move, 1 - state[1]

    def is_terminal(self, state):
        return state[0] == 0

    def outcome(self, state, moves=()):
        winner = 1 - state[1] if state[0] == 0 else DRAW
        return Outcome(winner, 1.0, len(moves), tuple(moves), {})

    def state_text(self, state):
        return f"{state[0]} counters, {self.players[state[1]]} to take"

    def move_label(self, move, state=None):
        return f"{move} (take {move})"


RACE_VIEW = View(lambda s: f"[{s[0]} left]", ("N", "S"), how_to_move="1 or 2",
                 score=lambda s: "0 left")


def test_bad_input_gets_one_line_and_the_prompt_again_and_nothing_is_applied():
    code, out = play(Race(), "7\nx\n\nquit\n", view=RACE_VIEW)
    assert code == 0
    lines = out.split(PROMPT)
    assert lines[1] == "move 7 is not legal here; legal moves: 1 2\n"
    assert lines[2] == "'x' is not a move (moves are numbers); legal moves: 1 2\n"
    assert lines[3].startswith("'' is not a move") and lines[3].count("\n") == 1
    assert lines[4] == "\nyou quit the game\n"
    assert "plays" not in out  # the agent never got a turn


def test_moves_are_announced_forced_ones_played_without_asking():
    # north takes 2 (typed), the agent (south) takes 1 (its first legal), north's last
    # counter is forced: north wins
    code, out = play(Race(), "2\n", view=RACE_VIEW)
    assert code == 0
    assert out.startswith("You are N against first. Type 1 or 2, 'moves', or 'quit'.\n\n[4 left]\n")
    assert "S (first) plays 1 (take 1) (choices 2, value 0.25)\n" in out
    assert "N (you) has only one legal move: 1 (take 1)\n" in out
    assert out.count(PROMPT) == 1
    assert out.endswith("[0 left]\ngame over: 0 left; N wins: you win\n")


def test_a_game_may_ask_even_for_forced_moves():
    view = View(RACE_VIEW.draw, RACE_VIEW.sides, forced=lambda legal: False)
    code, out = play(Race(), "2\n1\n", view=view)
    assert out.count(PROMPT) == 2 and "only one legal move" not in out
    assert out.endswith("game over: N wins: you win\n")


def test_end_of_input_and_interrupts_abandon_the_game():
    code, out = play(Race(), "", view=RACE_VIEW)
    assert code == 0 and out.endswith("\nend of input: game abandoned\n")

    class Interrupted(io.TextIOBase):
        def readline(self, size=-1):
            raise KeyboardInterrupt

    code, out = play(Race(), lambda out: Interrupted(), view=RACE_VIEW)
    assert code == 130 and out.endswith("\ninterrupted: game abandoned\n")


def test_a_long_legal_list_is_offered_not_printed_with_each_error():
    game = get_game("pentago_twist")  # 288 legal moves at the start
    code, out = play(game, "9 9 9 9\nquit\n")
    assert "x=9 must be in 0..5; type 'moves' for the legal moves\n" in out
