"""Search spaces written in Hydra's own sweep grammar, as Optuna distributions.

``hydra.sweeper.params`` maps a config key to an override value, the syntax
hydra-optuna-sweeper used:

    choice(4, 6, 8)  or  4,6,8        categorical
    range(4, 9, step=2)               integers 4, 6, 8 (the end is excluded, as in Python)
    interval(0.05, 0.5)               a float in [0.05, 0.5]
    int(interval(1, 4))               an integer in [1, 4]
    tag(log, interval(0.01, 1.0))     the same on a log scale (floats or int(...))
    0.3                               not searched: every trial gets this value

A sweep on the command line (``ga.sigma=interval(0.05,0.2)``) adds or replaces a dimension; a
plain override (``+experiment=tune_smoke``) goes to every trial unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hydra.core.override_parser.overrides_parser import OverridesParser
from hydra.core.override_parser.types import IntervalSweep, Override, RangeSweep, Transformer
from hydra.errors import CompactHydraException
from omegaconf import DictConfig, OmegaConf


class SearchSpaceError(CompactHydraException):
    """A search space that cannot be searched; Hydra prints the one-line message alone."""


@dataclass
class SearchSpace:
    fixed: list[str] = field(default_factory=list)  # overrides every trial gets
    # Optuna parameter name (the config key) -> (the override's key as written, distribution)
    dimensions: dict[str, tuple[str, Any]] = field(default_factory=dict)

    def distributions(self) -> dict[str, Any]:
        return {name: dist for name, (_, dist) in self.dimensions.items()}

    def overrides(self, params: Mapping[str, Any]) -> list[str]:
        """The command-line overrides of one trial whose suggested values are ``params``."""
        return [*self.fixed, *(f"{key}={format_value(params[name])}"
                               for name, (key, _) in self.dimensions.items())]


def search_space(params: Mapping[str, Any] | None, arguments: Sequence[str],
                 config: DictConfig | None = None) -> SearchSpace:
    """The space of ``params`` (the sweeper's config) and the command line's ``arguments``,
    which win for a key in both. With ``config`` (the composed sweep config), a key it does not
    have is refused too, before any trial runs."""
    parser = OverridesParser.create()
    texts = [_override_text(key, value) for key, value in (params or {}).items()]
    by_key: dict[str, Override] = {}
    for text in [*texts, *arguments]:
        override = _parse(parser, text)
        by_key[override.get_key_element()] = override
    space = SearchSpace()
    for key, override in by_key.items():
        if config is not None:
            _check_key(override, config)
        if override.is_sweep_override():
            space.dimensions[override.key_or_group] = (key, distribution(override))
        else:
            space.fixed.append(override.input_line)
    return space


def distribution(override: Override):
    """The Optuna distribution of one sweep override (see the module's docstring)."""
    from optuna.distributions import (
        CategoricalDistribution,
        FloatDistribution,
        IntDistribution,
    )

    value = override.value()
    tags = set(getattr(value, "tags", None) or ())
    if tags - {"log"}:
        raise _error(override, f"unknown tag {', '.join(sorted(tags - {'log'}))} (only log)")
    log = "log" in tags
    try:
        if isinstance(value, IntervalSweep):
            ints = isinstance(value.start, int) and isinstance(value.end, int)
            kind = IntDistribution if ints else FloatDistribution
            return kind(value.start, value.end, log=log)
        if log:
            raise _error(override, "log goes with interval(...) only")
        if isinstance(value, RangeSweep) and not value.shuffle:
            return _range(override, value, IntDistribution, FloatDistribution)
        choices = list(override.sweep_iterator(transformer=Transformer.encode))
        if any(not isinstance(c, str | int | float | bool) for c in choices):
            raise _error(override, "choices must be numbers, strings or booleans")
        if len(set(map(repr, choices))) != len(choices):
            raise _error(override, "a choice is repeated")
        return CategoricalDistribution(choices)
    except ValueError as exc:  # Optuna's own checks (low > high, log from 0)
        raise _error(override, str(exc)) from None


def _range(override: Override, value: RangeSweep, int_kind, float_kind):
    values = list(override.sweep_iterator())
    if not values:
        raise _error(override, "the range is empty")
    low, high, step = min(values), max(values), abs(value.step)
    if all(isinstance(v, int) for v in values) and isinstance(step, int):
        return int_kind(low, high, step=step)
    return float_kind(low, high, step=step if len(values) > 1 else None)


def format_value(value: Any) -> str:
    """A suggested value as Hydra's grammar reads it back (strings came escaped)."""
    if isinstance(value, bool):
        return str(value).lower()
    if value is None:
        return "null"
    return repr(value) if isinstance(value, float) else str(value)


def _override_text(key: str, value: Any) -> str:
    if isinstance(value, Mapping | Sequence) and not isinstance(value, str) or \
            OmegaConf.is_config(value):
        raise SearchSpaceError(f"hydra.sweeper.params: {key}: write a search space as text, "
                               f"such as choice(1, 2) or interval(0.1, 0.5)")
    return f"{key}={format_value(value)}"


def _parse(parser: OverridesParser, text: str) -> Override:
    try:
        return parser.parse_override(text)
    except Exception as exc:  # noqa: BLE001 - Hydra's parse errors span lines: keep the reason
        lines = [line for line in str(exc).splitlines()
                 if line and not line.startswith(("Error parsing override", "See https"))]
        raise SearchSpaceError(f"search space {text}: {'; '.join(lines) or exc}") from None


def _check_key(override: Override, config: DictConfig) -> None:
    """Refuse a key the config lacks (``ga.populaton``), which would fail every trial."""
    groups = OmegaConf.select(config, "hydra.runtime.choices") or {}
    key = override.key_or_group
    if override.is_add() or override.is_force_add() or override.is_delete() or \
            key in groups or key.startswith("hydra."):
        return
    missing = object()
    if OmegaConf.select(config, key, default=missing, throw_on_missing=False) is missing:
        raise _error(override, "the config has no such key")


def _error(override: Override, reason: str) -> SearchSpaceError:
    text = override.input_line or override.get_key_element()
    return SearchSpaceError(f"search space {text}: {reason}")
