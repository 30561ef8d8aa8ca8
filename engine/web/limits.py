"""What a request may ask of the agents, and what the server allows any search.

Per request (a 400 naming the cap when asked for more): search depth, seconds per move, exact
endgame, and the numbers an agent spec names (playouts, nodes). Server-wide: every agent move is
stopped after ``move_seconds`` whatever it was asked; a fixed-depth alpha-beta is given a
``deadline`` before it, after which it plays the deepest depth it completed and says so (its
info: ``cut``, ``depth``, ``depth_asked``), so it answers instead of being stopped; at most
``workers`` searches run at once and at most ``queue`` more wait their turn (first come, first
served; beyond that a 429). A session has one move in flight at a time, so a tab that keeps
asking goes back to the end of the line after each move and cannot starve the others: a
request waits at most about ``ceil(queue / workers) * move_seconds`` before its search starts.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from engine.core import GameSettingsError, SearchSettings
from engine.core.matches.clock import TimeControl
from engine.web.errors import ApiError

SEARCH_FIELDS = ("depth", "endgame_empties", "time_limit")


@dataclass(frozen=True)
class Limits:
    max_depth: int = 12  # plies of a fixed-depth search
    max_seconds: float = 10.0  # a request's seconds per move (iterative deepening)
    max_endgame: int = 24  # moves from the end searched exactly
    max_nodes: int = 1_000_000  # playouts, nodes, ... named in an agent spec
    move_seconds: float = 30.0  # server-wide: any agent move is stopped after this
    queue: int = 8  # searches that may wait for a worker (beyond the running ones)
    max_clock: float = 3600.0  # a game clock's seconds per player

    def check(self) -> None:
        """``ValueError`` naming the command-line option that is out of range."""
        for flag, value, low, high in (("--max-depth", self.max_depth, 1, 64),
                                       ("--max-seconds", self.max_seconds, 0.01, 3600),
                                       ("--max-nodes", self.max_nodes, 1, 10**9),
                                       ("--move-seconds", self.move_seconds, 0.1, 3600),
                                       ("--queue", self.queue, 0, 10_000),
                                       ("--max-clock", self.max_clock, 1, 86_400)):
            if not low <= value <= high:
                raise ValueError(f"{flag} must be in {low:g}..{high:g}, got {value:g}")
        if self.max_seconds >= self.move_seconds:
            raise ValueError(f"--max-seconds ({self.max_seconds:g}) must be below --move-seconds "
                             f"({self.move_seconds:g}): a search that stops at its time limit "
                             "needs a moment more to answer")

    @property
    def deadline(self) -> float:
        """Seconds after which a fixed-depth alpha-beta plays its deepest completed depth, so
        that it answers before ``move_seconds`` stops it (a tenth of the cap, at least a second,
        is left for the rest of the move)."""
        return max(0.5 * self.move_seconds, self.move_seconds - max(1.0, 0.1 * self.move_seconds))

    def to_json(self) -> dict:
        return asdict(self)

    def search(self, value, game) -> SearchSettings:
        """``{"depth": 4, "endgame_empties": 8, "time_limit": null}`` within the caps and the
        game's own rules (``Game.check_search``)."""
        value = {} if value is None else value
        if not isinstance(value, dict):
            raise ApiError(400, "search: expected an object with depth, endgame_empties, "
                                "time_limit")
        unknown = sorted(set(value) - set(SEARCH_FIELDS))
        if unknown:
            raise ApiError(400, f"search: unknown field {unknown[0]!r} (allowed: "
                                f"{', '.join(SEARCH_FIELDS)})")
        defaults = SearchSettings()
        search = SearchSettings(
            depth=_bounded(value, "depth", defaults.depth, int, 1, self.max_depth),
            endgame_empties=_bounded(value, "endgame_empties", defaults.endgame_empties, int, 0,
                                     self.max_endgame),
            time_limit=None if value.get("time_limit") is None else
            _bounded(value, "time_limit", None, float, 0.01, self.max_seconds))
        try:
            game.check_search(search)
        except GameSettingsError as err:
            raise ApiError(400, f"search: {err}") from None
        return search


    def clock(self, value) -> TimeControl | None:
        """A game clock (``"60+1"``: 60 s per player, 1 s more after each move), None for
        none; its increment at most ``max_seconds`` (a move is never given more)."""
        if value is None or value == "":
            return None
        try:
            control = TimeControl.parse(value) if isinstance(value, str) else None
        except ValueError as err:
            raise ApiError(400, f"clock: {err}") from None
        if control is None:
            raise ApiError(400, f"clock: expected a string such as \"60+1\", got {value!r}")
        if not 1.0 <= control.base <= self.max_clock or control.increment > self.max_seconds:
            raise ApiError(400, f"clock: {value!r}: seconds in 1..{self.max_clock:g} and an "
                                f"increment of at most {self.max_seconds:g} (this server's limits)")
        return control

    def clocked(self, search: SearchSettings) -> SearchSettings:
        """The search of agents that play to a clock: timed (each move's limit is then set from
        the clock, at most ``max_seconds``)."""
        return search if search.time_limit is not None else replace(search,
                                                                    time_limit=self.max_seconds)


def _bounded(value: dict, name: str, default, kind, low, high):
    number = value.get(name, default)
    ok_type = isinstance(number, (int, float)) and not isinstance(number, bool)
    if kind is int:
        ok_type = ok_type and float(number).is_integer()
    if not ok_type or not low <= number <= high:
        raise ApiError(400, f"search.{name}: expected a number in {low:g}..{high:g} (this "
                            f"server's limit), got {number!r}")
    return kind(number)
