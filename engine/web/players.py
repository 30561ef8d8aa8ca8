"""Who plays each side of a session: a person, an agent spec, or a champion from the runs.

Agent specs come from the browser, and a game's spec may name a weights file; so a spec reaches
``make_panel_agent`` only if none of its ``:``-separated parts can name a file (plain words and
numbers, nothing that exists on disk). Champion files are reached through the run catalogue only,
and read once, here (``load_entry``): the ``Champion`` goes on to the search it records, the
game's agent and the workers that think with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from engine.core import Champion, ChampionFileError, SearchSettings, get_game
from engine.core.champions.files import champion_of, load_champion
from engine.core.champions.search import DEFAULTS, champion_search, search_text
from engine.core.matches import specs
from engine.web.errors import ApiError
from engine.web.limits import Limits
from engine.web.runs import RunCatalogue

PLAYER_TYPES = ("human", "agent", "champion")
_SPEC_PART = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_]*[0-9]*\.?[0-9]+)?$")
_NUMBER = re.compile(r"^[A-Za-z_]*([0-9]*\.?[0-9]+)$")  # "1000", "eps0.1": a (prefixed) number


@dataclass(frozen=True)
class PlayerChoice:
    type: str  # "human", "agent", "champion" ("recorded" in replays)
    label: str  # what the page shows
    source: str | None = None  # the spec given to make_panel_agent (a champion: its file)
    settings: dict | None = None  # a champion's game settings (its run's board size, ...)
    searches: bool = False  # whether the search settings apply to it (Game.spec_searches)
    config: Path | None = None  # a champion's run config (its study's recorded search)
    search: SearchSettings | None = None  # how it searches (None: a person, or no search)
    search_info: dict | None = None  # that search, where it comes from, in words
    fixed: str | None = None  # what an agent the settings do not change searches (in words)
    champion: Champion | None = None  # a champion, loaded once

    @property
    def player(self) -> specs.Player | None:
        """What plays: the loaded champion, else the agent spec."""
        return self.champion if self.champion is not None else self.source

    def to_json(self) -> dict:
        return {"type": self.type, "label": self.label, "searches": self.searches,
                "search": self.search_info, "fixed": self.fixed}


def check_web_spec(game, spec, limits: Limits, search: SearchSettings) -> str:
    """``spec`` if it is a plain agent spec the game accepts within ``limits``: numbers in it
    (playouts, nodes) and the depth its ``@d`` suffix gives with ``search`` (400 naming the
    problem if not)."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 100:
        raise ApiError(400, "spec: expected a non-empty agent spec of at most 100 characters")
    spec = spec.strip()
    inner, _ = specs.split_depth(spec, SearchSettings()) if "@d" in spec else (spec, None)
    depth = spec[len(inner):]  # "@d6" / "@d+2", checked by split_depth below
    if depth and not re.fullmatch(r"@d\+?[0-9]{1,2}", depth):
        raise ApiError(400, f"spec: {spec!r}: a depth suffix is @d<N> or @d+<K>")
    for part in inner.split(":"):
        if not _SPEC_PART.match(part) or (part and not _number(part) and Path(part).exists()):
            raise ApiError(400, f"spec: {spec!r}: each ':'-separated part must be a plain word "
                                f"or number that names no file (weights files: pick a champion "
                                f"of the runs; specs: {', '.join(game.agent_specs())})")
        budget = _NUMBER.match(part)
        if budget and float(budget[1]) > limits.max_nodes:  # no endless search from a page
            raise ApiError(400, f"spec: {spec!r}: numbers in a spec may be at most "
                                f"{limits.max_nodes} (this server's limit)")
    try:
        specs.check_spec(game, spec)
        depth = specs.split_depth(spec, search)[1].depth
    except ValueError as err:
        raise ApiError(400, f"spec: {err}") from None
    if depth > limits.max_depth:
        raise ApiError(400, f"spec: {spec!r} searches depth {depth}, above this server's limit "
                            f"{limits.max_depth}")
    return spec


def _number(text: str) -> bool:
    return _NUMBER.match(text) is not None


def parse_player(game, runs: RunCatalogue, value, index: int, limits: Limits,
                 search: SearchSettings) -> PlayerChoice:
    field = f"players[{index}]"
    if not isinstance(value, dict) or value.get("type") not in PLAYER_TYPES:
        raise ApiError(400, f"{field}: expected {{\"type\": one of {', '.join(PLAYER_TYPES)}}}")
    if value["type"] == "human":
        return PlayerChoice("human", "you")
    if value["type"] == "agent":
        spec = check_web_spec(game, value.get("spec"), limits, search)
        return PlayerChoice("agent", spec, spec, searches=game.spec_searches(spec))
    champion = runs.champion(value.get("id"))
    if champion.game != game.name:
        raise ApiError(400, f"{field}: champion {champion.id!r} plays {champion.game}, "
                            f"not {game.name}")
    label = champion.to_json()["label"]
    return PlayerChoice("champion", label, str(champion.path), champion.settings,
                        searches=True, config=study_config(runs, champion),
                        champion=load_entry(game, champion, label))


def load_entry(game, entry, label: str) -> Champion:
    """The champion of a catalogue entry, from the content the scan read (else the file, once);
    400 if the game cannot read it, 404 if it is gone."""
    try:
        if entry.document is not None:
            return champion_of(entry.document, game)
        return load_champion(entry.path, game)
    except (ChampionFileError, ValueError) as err:
        raise ApiError(400, f"{label}: {err}") from None
    except OSError as err:  # removed since the runs were scanned
        raise ApiError(404, f"{label}: cannot read {Path(entry.path).name} ({err})") from None


def study_config(runs: RunCatalogue, champion) -> Path | None:
    """The champion's run's Hydra config, if it lies inside the run's ``--runs`` root (none for
    a loose champion file)."""
    return champion.config if champion.in_run else None


def recorded(choice: PlayerChoice, defaults: SearchSettings, overrides: dict | None = None):
    """A champion's search (``engine.core.champions.search``) with ``overrides`` over it."""
    return champion_search(choice.champion if choice.champion is not None else choice.source,
                           defaults, overrides, config=choice.config)


def assign_searches(game, choices: tuple[PlayerChoice, ...], search: SearchSettings,
                    explicit: dict, limits: Limits, clocked: bool) -> tuple[PlayerChoice, ...]:
    """Each player's search: a champion plays the search it records (its file, else its
    study's config) with the request's ``explicit`` fields over it; an agent that searches
    plays the first such champion's search (so the two meet at equal search), else the
    request's ``search``. Every search is checked against ``limits`` and the game's rules (400
    naming the player)."""
    out, first = [], None
    for choice in choices:
        if choice.type == "champion" and choice.searches:
            found = recorded(choice, search, explicit)
            checked = _within(limits, found.search, game, choice.label)
            choice = _searching(choice, limits.clocked(checked) if clocked else checked,
                                found.source, found.text())
            first = first or choice
        out.append(choice)
    base = first.search if first is not None else search
    source = f"as {first.label}" if first is not None else "set" if explicit else DEFAULTS
    for index, choice in enumerate(out):
        if choice.type == "agent" and choice.searches:
            check_web_spec(game, choice.source, limits, base)  # its @d+K over this depth
            out[index] = _searching(choice, base, source,
                                    f"{search_text(base)} ({source})")
        elif choice.type == "agent":  # the words evolve.evaluate and engine.play use too
            out[index] = replace(choice, fixed=game.fixed_search(choice.source))
    return tuple(out)


def _within(limits: Limits, search: SearchSettings, game, label: str) -> SearchSettings:
    try:
        return limits.search({"depth": search.depth, "endgame_empties": search.endgame_empties,
                              "time_limit": search.time_limit}, game)
    except ApiError as err:
        raise ApiError(400, f"{label}: its search: {err.message}") from None


def _searching(choice: PlayerChoice, search: SearchSettings, source: str,
               text: str) -> PlayerChoice:
    info = {"depth": search.depth, "endgame_empties": search.endgame_empties,
            "time_limit": search.time_limit, "source": source, "text": text}
    return replace(choice, search=search, search_info=info)


def configured_game(game, choices: tuple[PlayerChoice, ...]):
    """The game with the settings of the first champion that has some (a Hexifence champion
    plays on its run's board size); ``game`` itself when no champion brings settings."""
    for index, choice in enumerate(choices):
        if choice.settings:
            try:
                return get_game(game.name, choice.settings)
            except ValueError as err:  # GameSettingsError
                raise ApiError(400, f"players[{index}]: its run's game settings: {err}") from None
    return game


def build_agent(game, choice: PlayerChoice, search: SearchSettings, seed):
    """The agent for an agent or champion choice (400 if the game refuses it)."""
    try:
        return specs.make_agent(game, choice.player, choice.search or search, seed)
    except ValueError as err:  # ChampionFileError included
        raise ApiError(400, f"{choice.label}: {err}") from None
    except OSError as err:  # a champion file removed since the runs were scanned
        raise ApiError(404, f"{choice.label}: cannot read {Path(choice.source).name} ({err})") \
            from None
