"""Names for people of what ``generations.csv`` columns hold: ``yardstick_wpc_negated@d+2`` is
"vs wpc_negated, 2 plies deeper", ``diversity_p0`` is "phase 0 genes"; the champion's Elo
with its interval, in words where the interval has one end only."""

from __future__ import annotations

import math
import re

_DEPTH = re.compile(r"^(?P<spec>.+)@d(?P<plus>\+?)(?P<n>\d+)$")
_PHASE = re.compile(r"^p(\d+)$")


def opponent_label(spec: str) -> str:
    """``vs wpc_negated, 2 plies deeper`` for ``wpc_negated@d+2`` (the agent-spec suffixes of
    ``engine.core.matches.specs``: ``@d+K`` K plies deeper than the run's search, ``@dN``
    depth N)."""
    match = _DEPTH.match(spec)
    if not match:
        return f"vs {spec}"
    n = int(match["n"])
    if match["plus"]:
        return f"vs {match['spec']}, {n} ply deeper" if n == 1 else \
            f"vs {match['spec']}, {n} plies deeper"
    return f"vs {match['spec']} at depth {n}"


def diversity_label(column: str) -> str:
    """``phase 0 genes`` for ``diversity_p0``, ``mobility genes`` for ``diversity_mobility``."""
    group = column.removeprefix("diversity_")
    phase = _PHASE.match(group)
    return f"phase {phase.group(1)} genes" if phase else f"{group} genes"


NO_UPPER = "no upper bound: too few games"  # the interval passes a 100% score
NO_LOWER = "no lower bound: too few games"  # ... a 0% score


def elo_range(elo: float, low: float, high: float) -> str:
    """A champion's Elo against the panel with its 95% CI, ``+436 [+377, +502]``, and in words
    where the interval has one end only (never ``inf``; docs/analysis.md):

    - a 100% score (every panel game won) has no finite Elo, only the bound its interval
      gives: ``>= +406 (won every panel game: no upper bound)``; 0%: ``<= -406 (lost every
      panel game: no lower bound)``;
    - a finite Elo whose interval (score +- 1.96 standard errors) passes a 100% (0%) score,
      with few games: ``+191 [-35, no upper bound: too few games]``.

    Rounded to whole Elo (no ``-0``); ``n/a`` for a generation without panel games."""
    if any(math.isnan(v) for v in (elo, low, high)):
        return "n/a"
    if math.isinf(elo):
        if elo > 0 and math.isfinite(low):
            return f">= {round(low):+d} (won every panel game: no upper bound)"
        if elo < 0 and math.isfinite(high):
            return f"<= {round(high):+d} (lost every panel game: no lower bound)"
        return "unbounded"
    ends = [f"{round(low):+d}" if math.isfinite(low) else NO_LOWER,
            f"{round(high):+d}" if math.isfinite(high) else NO_UPPER]
    return f"{round(elo):+d} [{ends[0]}, {ends[1]}]"
