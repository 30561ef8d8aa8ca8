"""The players a config names besides the population: the yardstick's panel and the fitness's
fixed opponents. Each is written as text (an agent spec, or a champion file or run directory) and
played as a ``engine.core.matches.specs.Player``: a file is read once, when the config is resolved,
and its ``Champion`` travels in the game tasks; the outputs keep naming it by its text."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.matches import specs
from evolve.errors import ConfigError


@dataclass(frozen=True)
class Named:
    """The panel and the fixed fitness opponents a config names, as written (``*_labels``) and
    as played (a champion file or run directory read once into its ``Champion``)."""

    panel: tuple[specs.Player, ...] = ()
    panel_labels: tuple[str, ...] = ()
    opponents: tuple[specs.Player, ...] = ()
    opponent_labels: tuple[str, ...] = ()


def players(game, key: str, texts, check: bool = True) -> tuple[specs.Player, ...]:
    """Each of ``texts`` as a player (``specs.resolve_player``: a champion file or run
    directory read once, here), checked (``check``) as an agent spec of ``game``;
    ``ConfigError`` naming ``key`` and the first problem."""
    out = []
    for text in texts:
        try:
            player = specs.resolve_player(game, text)
            if check:
                specs.check_spec(game, player)
        except (ValueError, OSError, TypeError, KeyError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ConfigError(f"{key}: {first}") from None
        out.append(player)
    return tuple(out)
