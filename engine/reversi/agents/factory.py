"""Build an agent from a short text spec: used by ``engine.reversi.play``, the GA's yardstick
panel and ``evolve.evaluate`` (through ``engine.reversi.game``).

Specs (``<weights>`` = a reference name ``course`` / ``wpc`` / ``wpc_negated`` or a path to a
``.json`` / ``.npz`` weights file):

- ``random``, ``greedy``;
- ``wpc1`` (1-ply weighted piece counter with the variant's literature matrix) or
  ``wpc1:<weights>`` (with that file's positional matrices);
- ``course`` / ``wpc`` / ``wpc_negated`` or a weights file path: alpha-beta at ``depth``;
- ``mcts``, ``mcts:<playouts>``, ``mcts:<playouts>:<weights>`` (playouts guided by the weights)
  and ``mcts::<weights>`` (default budget, or ``time_limit``);
- ``bfs``, ``bfs:<nodes>``, ``bfs:<nodes>:<weights>``, ``bfs::<weights>`` (the weights are the
  matrix of its last rule);
- ``eps<p>:<spec>`` (e.g. ``eps0.1:wpc1``) wraps any of them in an ``EpsilonAgent``.

``parse_spec`` turns a spec into an ``AgentSpec`` (and ``str()`` turns it back), so callers can
find or replace the weights file a spec names without parsing specs themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from engine.core.agent import Agent, Seed
from engine.reversi.agents.alphabeta import AlphaBetaAgent
from engine.reversi.agents.bfs import BFSEndgameAgent
from engine.reversi.agents.mcts import MCTSAgent
from engine.reversi.agents.simple import (
    EpsilonAgent,
    GreedyAgent,
    RandomAgent,
    WeightedPieceCounterAgent,
)
from engine.reversi.files import NtupleWeights, load_evaluation, reference_weights
from engine.reversi.genome.weights import REFERENCE_NAMES, Weights
from engine.reversi.rules.state import Variant

REFERENCE_SPECS = REFERENCE_NAMES
AGENT_SPECS = ("random", "greedy", "wpc1", *REFERENCE_SPECS, "mcts", "bfs")
MCTS_PLAYOUTS = 1000
WEIGHTS_SUFFIXES = (".json", ".npz")
_EPSILON = re.compile(r"^eps(?P<p>[0-9]*\.?[0-9]+):(?P<inner>.+)$")
_BUDGETED = re.compile(r"^(?P<kind>mcts|bfs)(?::(?P<n>[0-9]*)(?::(?P<weights>.+))?)?$")
_WPC1 = re.compile(r"^wpc1(?::(?P<weights>.+))?$")


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: ``kind`` is random, greedy, wpc1, alphabeta, mcts or bfs; ``budget`` the
    playouts (mcts) or nodes (bfs); ``weights`` a reference name or weights file path."""

    kind: str
    budget: int | None = None
    weights: str | None = None
    epsilon: float | None = None

    def __str__(self) -> str:
        if self.kind == "alphabeta":
            text = str(self.weights)
        elif self.weights is not None:
            budget = "" if self.budget is None else str(self.budget)
            text = f"{self.kind}:{self.weights}" if self.kind == "wpc1" else \
                f"{self.kind}:{budget}:{self.weights}"
        else:
            text = self.kind if self.budget is None else f"{self.kind}:{self.budget}"
        return text if self.epsilon is None else f"eps{self.epsilon:g}:{text}"

    @property
    def weights_file(self) -> str | None:
        """The weights file path the spec names (None for a reference name or no weights)."""
        return None if self.weights in (None, *REFERENCE_NAMES) else self.weights


def allowed_specs() -> str:
    return (", ".join(AGENT_SPECS) + ", a weights file (.json/.npz), wpc1:<weights>, "
            "mcts:<playouts>, mcts:<playouts>:<weights>, mcts::<weights>, bfs:<nodes>, "
            "bfs:<nodes>:<weights>, bfs::<weights>, or eps<p>:<spec> "
            f"(<weights> = {' / '.join(REFERENCE_NAMES)} or a weights file)")


def split_epsilon(spec: str) -> tuple[float | None, str]:
    """``"eps0.1:wpc1"`` -> ``(0.1, "wpc1")``; a spec without the prefix -> ``(None, spec)``.

    ``ValueError`` if the probability is outside [0, 1] or nothing follows the prefix."""
    text = str(spec).strip()
    match = _EPSILON.match(text)
    if not match:
        if text.startswith("eps") and re.match(r"^eps[0-9.]*:?$", text):
            raise ValueError(f"agent spec {text!r}: expected eps<p>:<spec>, e.g. eps0.1:wpc1")
        return None, text
    epsilon = float(match["p"])
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"agent spec {text!r}: epsilon must be in [0, 1], got {epsilon:g}")
    return epsilon, match["inner"]


def parse_spec(spec: str) -> AgentSpec:
    """The ``AgentSpec`` of a text spec; ``ValueError`` naming the allowed specs if unknown.
    Files are not opened here (see ``make_agent``)."""
    epsilon, text = split_epsilon(spec)
    if epsilon is not None and split_epsilon(text)[0] is not None:
        raise ValueError(f"agent spec {spec!r}: only one eps<p>: prefix is allowed")
    budgeted, wpc1 = _BUDGETED.match(text), _WPC1.match(text)
    if budgeted:
        n = int(budgeted["n"]) if budgeted["n"] else None
        if n is not None and n < 1:
            raise ValueError(f"agent spec {text!r}: the budget must be >= 1")
        return AgentSpec(budgeted["kind"], n, budgeted["weights"], epsilon)
    if wpc1:
        return AgentSpec("wpc1", None, wpc1["weights"], epsilon)
    if text in ("random", "greedy"):
        return AgentSpec(text, epsilon=epsilon)
    if text in REFERENCE_SPECS or text.lower().endswith(WEIGHTS_SUFFIXES) or Path(text).exists():
        return AgentSpec("alphabeta", weights=text, epsilon=epsilon)
    raise ValueError(f"unknown agent spec {spec!r} (allowed: {allowed_specs()})")


def load_spec_weights(source: str, kind: str = "alphabeta") -> Weights | NtupleWeights:
    """A reference weight set by name, or a weights file (``WeightsFileError`` if malformed).
    An n-tuple network file plays alpha-beta only: ``wpc1``, ``mcts`` and ``bfs`` read square
    tables (``ValueError`` naming the spec)."""
    if source in REFERENCE_NAMES:
        return reference_weights(source)
    if not Path(source).is_file():
        raise ValueError(f"weights file not found: {source} (agent specs: {allowed_specs()})")
    weights = load_evaluation(source)
    if isinstance(weights, NtupleWeights) and kind != "alphabeta":
        raise ValueError(f"{kind} reads square tables, and {source} is an n-tuple network "
                         "(an alpha-beta player: give the file alone as the spec)")
    return weights


def make_agent(spec: str, variant: Variant | str = "othello", depth: int = 4,
               time_limit: float | None = None, seed: Seed = None,
               endgame_empties: int = 10, exact_solver: str = "pvs") -> Agent:
    """The agent named by ``spec``; ``ValueError`` naming the allowed specs if it is unknown."""
    variant = Variant.parse(variant)
    parsed = parse_spec(spec)
    inner = AgentSpec(parsed.kind, parsed.budget, parsed.weights)
    agent = _build(inner, variant, depth, time_limit, seed, endgame_empties, exact_solver)
    return agent if parsed.epsilon is None else EpsilonAgent(agent, parsed.epsilon, seed=seed)


def _build(spec: AgentSpec, variant: Variant, depth, time_limit, seed, endgame_empties,
           exact_solver: str = "pvs") -> Agent:
    weights = load_spec_weights(spec.weights, spec.kind) if spec.weights is not None else None
    name = str(spec)
    if spec.kind == "random":
        return RandomAgent(seed)
    if spec.kind == "greedy":
        return GreedyAgent(variant, seed)
    if spec.kind == "wpc1":
        default = reference_weights("wpc_negated" if variant.is_reversed else "wpc")
        return WeightedPieceCounterAgent(default if weights is None else weights, seed, name=name)
    if spec.kind == "mcts":
        timed = spec.budget is None and time_limit is not None
        playouts = spec.budget if spec.budget is not None else (None if timed else MCTS_PLAYOUTS)
        return MCTSAgent(variant, playouts=playouts, time_limit=time_limit if timed else None,
                         weights=weights, seed=seed, name=name)
    if spec.kind == "bfs":
        if spec.budget is not None:
            return BFSEndgameAgent(variant, weights=weights, seed=seed, nodes=spec.budget,
                                   name=name)
        return BFSEndgameAgent(variant, time_limit=time_limit, weights=weights, seed=seed,
                               name=name)
    label = spec.weights if spec.weights in REFERENCE_NAMES else \
        weights.name or Path(spec.weights).stem
    return AlphaBetaAgent(weights, variant=variant.value, depth=depth, time_limit=time_limit,
                          endgame_empties=endgame_empties, seed=seed, name=label,
                          exact_solver=exact_solver)
