"""Reading a run configuration: a composed Hydra config (or a plain dict, or a checkpoint's
saved dict) becomes a typed, validated ``Config`` (``evolve.ga.configuration.schema``);
``resolve`` returns it together with what it names (``ResolvedConfig``: its game, genome spec,
gene bounds, panel and fixed opponents), the game built and every champion file it names read
once; ``to_dict`` and ``config_hash`` go the other way.

The shape lives in ``schema``, the checks in ``validation`` and the command line's key checks in
``overrides`` (all in ``evolve.ga.configuration``); the names other modules import from here
(``Config``, ``ConfigError``, ``to_config``, ...) stay here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from typing import Any

import numpy as np
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from engine.core.matches.specs import Player
from engine.core.records import Champion
from evolve.errors import ConfigError
from evolve.ga.configuration.schema import (  # noqa: F401 - re-exported: the config's vocabulary
    Config,
    FitnessConfig,
    GAConfig,
    GameConfig,
    GamesConfig,
    ObjectiveConfig,
    PlayoffConfig,
    SearchConfig,
    TrackingConfig,
    YardstickConfig,
    _default_game,
    fitness_opponents,
    make_game,
)
from evolve.ga.configuration.validation import game_of, validate
from evolve.ga.population import gene_bounds

__all__ = ["Config", "ConfigError", "GAConfig", "ResolvedConfig", "config_hash", "from_dict",
           "make_game", "migrate", "moved_key_message", "parse", "resolve", "to_config",
           "to_dict"]


@dataclass(frozen=True)
class ResolvedConfig:
    """A validated config and what it names, each made once: the game (its settings applied),
    its genome spec, the gene bounds (``ga.bound_scale`` applied), the yardstick's panel (empty
    when the yardstick is off) and the fitness's fixed opponents (empty unless
    ``fitness.references`` > 0).

    Panel and opponents are players (``engine.core.matches.specs.Player``): the agent spec as
    written, or the ``Champion`` a champion file or run directory holds, read here and carried by
    the game tasks. ``*_labels`` keep the text the config names each by: what the outputs write."""

    config: Config
    game: Any  # engine.core.game.Game
    spec: Any  # engine.core.game.GenomeSpec
    bounds: tuple[np.ndarray, np.ndarray]
    panel: tuple[Player, ...]
    panel_labels: tuple[str, ...] = ()
    opponents: tuple[Player, ...] = ()
    opponent_labels: tuple[str, ...] = ()

    @property
    def seed_references(self) -> list[str]:
        """``game.seed_references``, else the game's own."""
        return list(self.config.game.seed_references or self.game.seed_references)

    def label(self, player):
        """How outputs name a task's player: a genome index or an agent spec as it is, a
        ``Champion`` of the panel or the opponents by the text the config names it by (the
        very object: the tasks carry these)."""
        if not isinstance(player, Champion):
            return player
        pairs = zip((*self.panel, *self.opponents), (*self.panel_labels, *self.opponent_labels),
                    strict=True)
        for known, text in pairs:
            if known is player:
                return text
        raise KeyError(f"{player.provenance}: not a player this config names")


def resolve(cfg: DictConfig | dict | Config) -> ResolvedConfig:
    """The validated config of a composed DictConfig (or plain dict, or ``Config``) with its
    game, genome spec, bounds, panel and fixed opponents. Raises ``ConfigError`` for the first
    bad value."""
    config = cfg if isinstance(cfg, Config) else _parsed(cfg)
    game = game_of(config)
    spec = game.genome_spec()
    named = validate(config, game, spec)
    return ResolvedConfig(config, game, spec, gene_bounds(spec, config.ga.bound_scale),
                          named.panel, named.panel_labels, named.opponents,
                          named.opponent_labels)


def to_config(cfg: DictConfig | dict | Config) -> Config:
    """Typed, validated ``Config`` from a composed DictConfig (or plain dict)."""
    return resolve(cfg).config


def _parsed(cfg: DictConfig | dict) -> Config:
    """The typed ``Config`` of a composed DictConfig (or plain dict), not yet validated."""
    if not isinstance(cfg, DictConfig):
        cfg = OmegaConf.create(cfg)
    plain = OmegaConf.to_container(cfg, resolve=True)
    plain.pop("hydra", None)
    game = game_config(plain.pop("game", None) or {})
    for key in MOVED_TO_GAME:
        if key in (plain.get("ga") or {}):
            raise ConfigError(moved_key_message(f"ga.{key}"))
    try:
        merged = OmegaConf.merge(OmegaConf.structured(Config), plain)
        config = OmegaConf.to_object(merged)
    except OmegaConfBaseException as exc:
        raise ConfigError(_one_line(exc)) from None
    config.game = game
    return config


# genome settings that moved from ``ga:`` to the game's config group (``game.genome``)
MOVED_TO_GAME = ("phases", "phase_bounds", "symmetric")


def moved_key_message(key: str) -> str:
    leaf = key.rsplit(".", 1)[-1]
    return (f"{key} moved to game.genome.{leaf} (the genome belongs to the game: set it in "
            f"conf/game/<name>.yaml or as game.genome.{leaf}=...)")


def game_config(node: dict) -> GameConfig:
    node = dict(node)
    name = node.pop("name", None) or _default_game()
    references = node.pop("seed_references", None)
    node.pop("settings", None)  # a dict written by ``to_dict`` before flattening: never
    return GameConfig(str(name), None if references is None else list(references), node)


def _one_line(exc: OmegaConfBaseException) -> str:
    key = getattr(exc, "full_key", None)
    msg = str(exc).splitlines()[0]
    return f"{key}: {msg}" if key else msg


def to_dict(c: Config) -> dict:
    d = dataclasses.asdict(c)
    settings = d["game"].pop("settings")
    d["game"].update(settings)  # the shape of conf/game/<name>.yaml
    return d


# keys that only say where and how visibly a run executes, or what it reports about itself
# (the objective a sweeper reads, the MLflow tracking): never change a result
RUNTIME_KEYS = ("resume", "backend", "ray", "plot", "progress", "objective", "tracking")


# settings added after runs were made with this hash: left out of it at their default values,
# so every config that does not use them keeps the hash it had (a resumed older run's champions
# name one hash)
LATER_KEYS = {"ga": ("mutation_genes", "mutation_blocks", "cma_diagonal", "es_sigma",
                     "es_learning_rate", "es_optimizer", "es_shaping", "local_search", "td_games",
                     "td_alpha", "td_epsilon", "td_learners"),
              "games": ("epsilon",)}
# the same for the game's settings (``conf/game/<name>.yaml``), which have no dataclass defaults:
# each with the value every run made before it existed had
LATER_GAME_KEYS = {"genome": {"kind": "weights", "layout": None, "symmetry": None}}


def config_hash(c: Config) -> str:
    """Hash of everything that determines the result (not where it runs or whether it resumed).
    ``ga.generations`` is left out too: generation g's result does not depend on how many
    generations follow, so a run extended on resume keeps the hash of its first generations."""
    d = to_dict(c)
    for key in RUNTIME_KEYS:
        d.pop(key)
    d["ga"].pop("generations")
    defaults = to_dict(Config(game=c.game))
    for section, keys in LATER_KEYS.items():
        for key in keys:
            if d[section][key] == defaults[section][key]:
                del d[section][key]
    for group, before in LATER_GAME_KEYS.items():
        node = d["game"].get(group) or {}
        for key, value in before.items():
            if key in node and node[key] == value:
                del node[key]
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


def from_dict(d: dict) -> Config:
    return to_config(OmegaConf.create(migrate(d)))


def parse(cfg: DictConfig | dict | Config) -> Config:
    """The typed ``Config`` of a composed DictConfig (or plain dict), not validated: no game
    is built (``resolve`` does that)."""
    return cfg if isinstance(cfg, Config) else _parsed(cfg)


def migrate(d: dict) -> dict:
    """A config saved before the genome settings moved to the game (checkpoints of older runs):
    ``ga.phases/phase_bounds/symmetric`` become ``game.genome.*``."""
    ga = dict(d.get("ga") or {})
    moved = {k: ga.pop(k) for k in MOVED_TO_GAME if k in ga}
    if not moved:
        return d
    game = dict(d.get("game") or {})
    game["genome"] = {**moved, **(game.get("genome") or {})}
    return {**d, "ga": ga, "game": game}
