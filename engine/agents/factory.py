"""Build an agent from a short text spec: used by ``engine.play``, the GA's yardstick panel and
``evolve.evaluate``.

Specs: ``random``, ``greedy``, ``wpc1`` (1-ply weighted piece counter with the variant's
literature matrix), ``course`` / ``wpc`` / ``wpc_negated`` (alpha-beta with those reference
weights at ``depth``), ``mcts`` or ``mcts:<playouts>``, ``bfs`` or ``bfs:<nodes>``, a path to a
weights file (``.json`` / ``.npz``: alpha-beta with it), and ``eps<p>:<spec>`` (e.g.
``eps0.1:wpc1``) wrapping any of them in an ``EpsilonAgent``.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.agents.alphabeta import AlphaBetaAgent
from engine.agents.base import Agent, Seed
from engine.agents.bfs import BFSEndgameAgent
from engine.agents.mcts import MCTSAgent
from engine.agents.simple import EpsilonAgent, GreedyAgent, RandomAgent, WeightedPieceCounterAgent
from engine.position import Variant
from engine.weights import load_weights, reference_weights

REFERENCE_SPECS = ("course", "wpc", "wpc_negated")
AGENT_SPECS = ("random", "greedy", "wpc1", *REFERENCE_SPECS, "mcts", "bfs")
MCTS_PLAYOUTS = 1000
_EPSILON = re.compile(r"^eps(?P<p>[0-9]*\.?[0-9]+):(?P<inner>.+)$")
_BUDGET = re.compile(r"^(?P<kind>mcts|bfs):(?P<n>[0-9]+)$")
WEIGHTS_SUFFIXES = (".json", ".npz")


def allowed_specs() -> str:
    return (", ".join(AGENT_SPECS) + ", mcts:<playouts>, bfs:<nodes>, a weights file "
            "(.json/.npz), or eps<p>:<spec>")


def make_agent(spec: str, variant: Variant | str = "othello", depth: int = 4,
               time_limit: float | None = None, seed: Seed = None,
               endgame_empties: int = 10) -> Agent:
    """The agent named by ``spec``; ``ValueError`` naming the allowed specs if it is unknown."""
    variant = Variant.parse(variant)
    text = str(spec).strip()
    eps = _EPSILON.match(text)
    if eps:
        inner = make_agent(eps["inner"], variant, depth, time_limit, seed, endgame_empties)
        return EpsilonAgent(inner, float(eps["p"]), seed=seed)
    budget = _BUDGET.match(text)
    if text in ("mcts", "bfs") or budget:
        return _search_agent(text, budget, variant, time_limit, seed)
    if text == "random":
        return RandomAgent(seed)
    if text == "greedy":
        return GreedyAgent(variant, seed)
    if text == "wpc1":
        matrix = reference_weights("wpc_negated" if variant.is_reversed else "wpc")
        return WeightedPieceCounterAgent(matrix, seed, name="wpc1")
    if text in REFERENCE_SPECS:
        return _alphabeta(reference_weights(text), variant, depth, time_limit, seed,
                          endgame_empties, text)
    if text.lower().endswith(WEIGHTS_SUFFIXES) or Path(text).exists():
        return _from_file(text, variant, depth, time_limit, seed, endgame_empties)
    raise ValueError(f"unknown agent spec {spec!r} (allowed: {allowed_specs()})")


def _search_agent(text, budget, variant, time_limit, seed) -> Agent:
    kind = budget["kind"] if budget else text
    n = int(budget["n"]) if budget else None
    if n is not None and n < 1:
        raise ValueError(f"agent spec {text!r}: the budget must be >= 1")
    if kind == "mcts":
        playouts = n if n is not None else (None if time_limit else MCTS_PLAYOUTS)
        return MCTSAgent(variant, playouts=playouts, time_limit=time_limit if n is None else None,
                         seed=seed, name=text)
    if n is not None:
        return BFSEndgameAgent(variant, seed=seed, nodes=n, name=text)
    return BFSEndgameAgent(variant, time_limit=time_limit, seed=seed, name=text)


def _from_file(path: str, variant, depth, time_limit, seed, endgame_empties) -> Agent:
    if not Path(path).is_file():
        raise ValueError(f"weights file not found: {path} (agent specs: {allowed_specs()})")
    weights = load_weights(path)
    return _alphabeta(weights, variant, depth, time_limit, seed, endgame_empties,
                      weights.name or Path(path).stem)


def _alphabeta(weights, variant, depth, time_limit, seed, endgame_empties, name) -> Agent:
    return AlphaBetaAgent(weights, variant=variant.value, depth=depth, time_limit=time_limit,
                          endgame_empties=endgame_empties, seed=seed, name=name)
