"""Checks every game's settings share, each failing with one line naming the key (a
``GameSettingsError``): unknown keys, integers in a range, one of a set of words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.core.records import GameSettingsError


def with_defaults(given: Mapping, defaults: Mapping, where: str) -> dict:
    """``given`` over ``defaults``; an unknown key names ``where`` (``game.genome``) and what is
    allowed."""
    if not isinstance(given, Mapping):
        raise GameSettingsError(f"{where}={given!r} must be a mapping")
    unknown = set(given) - set(defaults)
    if unknown:
        raise GameSettingsError(f"{where}.{sorted(unknown)[0]}: unknown key (allowed: "
                                f"{', '.join(defaults)})")
    return {**defaults, **given}


def int_in(key: str, value, low: int, high: int) -> int:
    """``value`` if it is an integer (not a bool) with ``low <= value <= high``."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise GameSettingsError(f"{key}={value} must satisfy {low} <= {key.rsplit('.', 1)[-1]}"
                                f" <= {high}")
    return value


def one_of(key: str, value, allowed: Iterable[str]) -> str:
    allowed = tuple(allowed)
    if value not in allowed:
        raise GameSettingsError(f"{key}={value} must be one of: {', '.join(allowed)}")
    return value
