"""Who searches what in ``python -m evolve.evaluate``: each player's search, where it comes
from, and the matches whose sides do not search alike.

- A **champion** plays the search it records (``engine.core.champions.search``: its file's
  ``metadata.search``, else its study's config, else this command's defaults, depth 4 with an
  exact endgame from 8).
- A **fixed agent** that searches (an alpha-beta reference such as ``course``) plays the same
  search as the first champion among the players (the player, in a round robin the first
  champion listed), so that a champion meets the references at its own search; without a
  champion, the defaults. An agent the search settings do not change (``random``, ``greedy``,
  Reversi's 1-ply ``wpc1``, MCTS with a play-out budget: ``Game.spec_searches`` is false) plays
  its own search, said in the words of a search's settings (``Game.fixed_search``: ``wpc1``
  searches depth 1, greedy by its positional weights, no exact endgame), and every match it
  plays against a searching player is flagged as unequal.
- **Explicit flags win**: ``--depth``, ``--time``, ``--clock`` and ``--endgame-empties`` set
  that field for every player that searches, champions included, whatever they record; the
  fields not given still come from each champion's record. So two champions with different
  records each keep their own exact endgame under ``--depth 3``, and the strength tables'
  commands (which give both ``--depth`` and ``--endgame-empties``) play exactly what they say.
- ``--equal``: every searching player, champions included, plays the first champion's search
  (with the flags over it): one search for the whole evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.core.champions.search import DEFAULTS, champion_search
from engine.core.game import SearchSettings
from engine.core.matches.clock import TimeControl
from evolve.arena.matches import MAX_DEPTH_WITH_TIME

DEFAULT_SEARCH = SearchSettings(depth=4, endgame_empties=8)  # without a champion or flags
FLAGS = {"depth": "--depth", "endgame_empties": "--endgame-empties", "time_limit": "--time"}


@dataclass(frozen=True)
class PlayerSearch:
    """One player's search as played and as described."""

    spec: str
    searches: bool  # False: the search settings do not change this agent (Game.spec_searches)
    depth: int | None  # None: only a time limit (iterative deepening)
    endgame_empties: int
    time_limit: float | None = None
    clock: str | None = None  # a game clock for every player ("60+1")
    origin: str = DEFAULTS  # where the settings come from, in words
    fixed: str | None = None  # what an agent that does not search by the settings searches

    def settings(self) -> SearchSettings:
        """What the agent is built with (a clock: its base, the clock then sets each move)."""
        depth = self.depth if self.depth is not None else MAX_DEPTH_WITH_TIME
        limit = TimeControl.parse(self.clock).base if self.clock else self.time_limit
        return SearchSettings(depth, self.endgame_empties, limit)

    def timed(self) -> bool:
        return self.time_limit is not None or self.clock is not None

    def alike(self, other: PlayerSearch) -> bool:
        """Whether two players search alike: the same settings, two rule agents, or a rule
        agent under the same time control (an MCTS agent takes the time per move too)."""
        if self.searches and other.searches:
            return (self.depth, self.endgame_empties, self.time_limit, self.clock) == \
                (other.depth, other.endgame_empties, other.time_limit, other.clock)
        if not self.searches and not other.searches:
            return True
        return self.timed() and other.timed()

    def text(self, epsilon: float = 0.0) -> str:
        """``depth 4, exact endgame from 10 empties (champion file)``, or the rule agent's
        line; with epsilon, the random moves."""
        if not self.searches:
            text = f"{self.fixed} (its own search" if self.fixed else "its own rule ("
            text += "; " if self.fixed else ""
            text += "the depth and exact endgame settings do not apply"
            text += ("; the same time per move where it takes one)" if self.timed() else ")")
        else:
            text = settings_text(self.depth, self.endgame_empties, self.time_limit,
                                 self.clock) + f" ({self.origin})"
        if epsilon:
            text += f"; a random move with probability {epsilon:g}"
        return text

    def short(self) -> str:
        """For the unequal-match line: ``searches depth 4, exact endgame from 10 empties``."""
        if not self.searches:
            if not self.fixed:
                return "plays by its own rule"
            no, _, how = self.fixed.partition("no search, ")
            return f"does not search ({how})" if how and not no else f"searches {self.fixed}"
        return "searches " + settings_text(self.depth, self.endgame_empties, self.time_limit,
                                           self.clock)

    def as_dict(self) -> dict:
        found = {"searches": self.searches, "depth": self.depth,
                 "endgame_empties": self.endgame_empties, "time_limit": self.time_limit,
                 "clock": self.clock, "origin": self.origin}
        return found if self.searches else {**found, "fixed": self.fixed}


def settings_text(depth, endgame_empties, time_limit=None, clock=None) -> str:
    """``depth 4, exact endgame from 8 empties``, ``0.5 s per move``, or a game clock."""
    if clock is not None:
        parts = [f"a {clock} game clock per player (seconds for the game + after each move)"]
    elif time_limit is not None:
        parts = [f"{time_limit:g} s per move"]
        if depth is not None:
            parts.append(f"at most depth {depth}")
    else:
        parts = [f"depth {depth}"]
    parts.append(f"exact endgame from {endgame_empties} empties" if endgame_empties
                 else "no exact endgame")
    return ", ".join(parts)


def player_searches(players: list[str], game, args, labels: dict[str, str],
                    files: dict[str, str | None]) -> tuple[PlayerSearch, dict[str, PlayerSearch]]:
    """(the fixed agents' search, ``{spec: PlayerSearch}`` for every player); ``files``: spec
    -> its champion file (or the ``Champion`` read from it) or ``None``. See the module's
    rules."""
    flags = explicit_flags(args)
    timed = args.time is not None or args.clock is not None
    champions = {spec: _champion(spec, files[spec], game, flags, timed, args.clock)
                 for spec in players if files.get(spec) and game.spec_searches(spec)}
    first = next(iter(champions.values()), None)
    base = _fixed(first, labels, flags, timed, args.clock)
    found = {}
    for spec in players:
        if spec in champions and (not args.equal or spec == first.spec):
            found[spec] = champions[spec]
            continue
        origin = f"--equal: {base.origin}" if spec in champions else base.origin
        searches = game.spec_searches(spec)
        fixed = None if searches else game.fixed_search(spec)
        found[spec] = PlayerSearch(spec, searches, base.depth, base.endgame_empties,
                                   base.time_limit, base.clock, origin, fixed)
    return base, found


def explicit_flags(args) -> dict:
    """The search fields set on the command line (``--clock`` sets the time by its base)."""
    return {"depth": args.depth, "endgame_empties": args.endgame_empties,
            "time_limit": args.time}


def _flag_words(flags: dict, clock: str | None) -> str:
    words = [f"{FLAGS[k]} {v:g}" if isinstance(v, float) else f"{FLAGS[k]} {v}"
             for k, v in flags.items() if v is not None]
    if clock is not None:
        words.append(f"--clock {clock}")
    return " ".join(words)


def _champion(spec: str, file, game, flags: dict, timed: bool,
              clock: str | None) -> PlayerSearch:
    given = dict(flags)
    if timed and given["depth"] is None:
        given["depth"] = MAX_DEPTH_WITH_TIME  # the time decides; the depth is no limit
    found = champion_search(file, DEFAULT_SEARCH, given)
    recorded = settings_text(found.recorded.depth, found.recorded.endgame_empties,
                             found.recorded.time_limit)
    set_here = _flag_words(flags, clock)
    if set_here and (timed or any(getattr(found.search, k) != getattr(found.recorded, k)
                                  for k, v in flags.items() if v is not None)):
        origin = f"{set_here} for every player; its {found.source} records {recorded}"
    elif found.source == DEFAULTS:
        origin = "this command's defaults: the file records no search and is in no run"
    else:
        origin = found.source
    depth = None if timed and flags["depth"] is None else found.search.depth
    return PlayerSearch(spec, True, depth, found.search.endgame_empties,
                        found.search.time_limit, clock, origin)


def _fixed(first: PlayerSearch | None, labels: dict[str, str], flags: dict, timed: bool,
           clock: str | None) -> PlayerSearch:
    """The search of fixed agents: the first champion's, else the flags over the defaults."""
    if first is not None:
        return PlayerSearch("", True, first.depth, first.endgame_empties, first.time_limit,
                            clock, f"as {labels.get(first.spec, first.spec)}")
    set_here = _flag_words(flags, clock)
    depth = flags["depth"] if flags["depth"] is not None else \
        None if timed else DEFAULT_SEARCH.depth
    empties = flags["endgame_empties"] if flags["endgame_empties"] is not None else \
        DEFAULT_SEARCH.endgame_empties
    origin = set_here + (", otherwise this command's defaults" if
                         flags["endgame_empties"] is None or (flags["depth"] is None and
                                                              not timed) else "") \
        if set_here else "this command's defaults: no player is a champion"
    return PlayerSearch("", True, depth, empties, flags["time_limit"], clock, origin)


def unequal_lines(pairs: list[tuple[str, str]], searches: dict[str, PlayerSearch],
                  labels: dict[str, str]) -> list[str]:
    """One line per pairing whose sides do not search alike (a rule agent against a searching
    player counts: it plays its own search, whatever the depth)."""
    lines = []
    for a, b in pairs:
        sa, sb = searches[a], searches[b]
        if sa.alike(sb):
            continue
        lines.append(f"unequal search: {labels.get(b, b)} {sb.short()}; "
                     f"{labels.get(a, a)} {sa.short()}")
    return lines


def file_players(players: list[str], file_of) -> dict[str, str | None]:
    """``{spec: the champion file it names, or None}``."""
    found = {}
    for spec in players:
        path = file_of(spec)
        found[spec] = path if path is not None and Path(path).is_file() else None
    return found
