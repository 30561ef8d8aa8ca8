"""Names for people of what ``generations.csv`` columns hold: ``yardstick_wpc_negated@d+2`` is
"vs wpc_negated, 2 plies deeper", ``diversity_p0`` is "phase 0 genes"."""

from __future__ import annotations

import re

_DEPTH = re.compile(r"^(?P<spec>.+)@d(?P<plus>\+?)(?P<n>\d+)$")
_PHASE = re.compile(r"^p(\d+)$")


def opponent_label(spec: str) -> str:
    """``vs wpc_negated, 2 plies deeper`` for ``wpc_negated@d+2`` (the agent-spec suffixes of
    ``engine.core.specs``: ``@d+K`` K plies deeper than the run's search, ``@dN`` depth N)."""
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
