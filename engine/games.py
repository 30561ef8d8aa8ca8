"""The small game interface the GA uses, so other board games can be evolved later.

The GA (``evolve``) only talks to a ``Game``: it asks for the genome layout, turns genomes into
agents, draws random openings and plays one game. ``ReversiGame`` implements it for Othello and
Reversed Reversi by delegating to the engine modules (weights, alpha-beta agent, match runner).
A future Pentago or Hexifence module would provide the same handful of methods and register
itself in ``GAMES``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Protocol

import numpy as np

from engine.reversi.agents.base import Agent, Seed
from engine.reversi.position import Variant


@dataclass(frozen=True)
class SearchSettings:
    """How every evolved agent searches (identical for the whole population and the panel)."""

    depth: int = 2
    endgame_empties: int = 8

    def to_dict(self) -> dict:
        return asdict(self)


class Game(Protocol):
    """What the GA needs from a game."""

    name: str
    variant: Variant
    seed_references: tuple[str, ...]  # reference weights used to seed the initial population
    default_panel: tuple[str, ...]  # yardstick opponents (agent specs)

    def layout(self, n_phases: int, symmetric: bool): ...

    # phase_bounds: the disc counts where phases 2.. start (``engine.reversi.weights`` convention)
    def weights_from_genome(self, genome: np.ndarray, phase_bounds: tuple[int, ...],
                            symmetric: bool, name: str = ""): ...

    def reference_genome(self, reference: str, phase_bounds: tuple[int, ...],
                         symmetric: bool) -> np.ndarray: ...

    def make_agent(self, weights, search: SearchSettings, seed: Seed = None) -> Agent: ...

    def make_panel_agent(self, spec: str, search: SearchSettings, seed: Seed = None) -> Agent: ...

    def random_openings(self, n: int, seed: Seed, min_plies: int, max_plies: int) -> list: ...

    def play(self, black: Agent, white: Agent, opening: tuple[int, ...], seed: Seed): ...


class ReversiGame:
    """Othello / Reversed Reversi on the shared bitboard engine."""

    def __init__(self, name: str, variant: Variant | str, seed_references, default_panel):
        self.name = name
        self.variant = Variant.parse(variant)
        self.seed_references = tuple(seed_references)
        self.default_panel = tuple(default_panel)

    def __repr__(self) -> str:
        return f"ReversiGame({self.name!r})"

    def layout(self, n_phases: int, symmetric: bool):
        from engine.reversi.weights import GenomeLayout

        return GenomeLayout(n_phases, symmetric)

    def weights_from_genome(self, genome, phase_bounds: tuple[int, ...], symmetric: bool,
                            name: str = ""):
        from engine.reversi.weights import Weights

        genome = np.asarray(genome, dtype=np.float64)
        return Weights.from_genome(genome, tuple(phase_bounds), symmetric, name=name)

    def reference_genome(self, reference: str, phase_bounds: tuple[int, ...],
                         symmetric: bool) -> np.ndarray:
        """A reference weight set re-expressed in the requested layout: each of our phases takes
        the reference phase that covers its middle disc count (references may have fewer phases)."""
        from engine.reversi.weights import MIN_DISCS, Weights, phase_of_discs_table, reference_weights

        ref = reference_weights(reference)
        bounds = tuple(int(b) for b in phase_bounds)
        starts = (MIN_DISCS, *bounds)
        ends = (*bounds, 65)
        ref_phase_of = phase_of_discs_table(ref.phase_bounds)
        rows = [int(ref_phase_of[min(64, (s + e) // 2)]) for s, e in zip(starts, ends, strict=True)]
        projected = Weights(
            phase_bounds=bounds,
            positional=np.array(ref.positional[rows], dtype=np.float64),
            features=np.array(ref.features[rows], dtype=np.float64),
            symmetric=symmetric,
            name=reference,
        )
        return projected.to_genome()

    def make_agent(self, weights, search: SearchSettings, seed: Seed = None) -> Agent:
        from engine.reversi.agents.alphabeta import AlphaBetaAgent

        return AlphaBetaAgent(
            weights,
            variant=self.variant.value,
            depth=search.depth,
            endgame_empties=search.endgame_empties,
            seed=seed,
        )

    def make_panel_agent(self, spec: str, search: SearchSettings, seed: Seed = None) -> Agent:
        from engine.reversi.agents.factory import make_agent

        return make_agent(
            spec,
            self.variant.value,
            depth=search.depth,
            seed=seed,
            endgame_empties=search.endgame_empties,
        )

    def random_openings(self, n: int, seed: Seed, min_plies: int = 4, max_plies: int = 8) -> list:
        from engine.reversi.match import random_openings

        openings = random_openings(n, seed, min_plies=min_plies, max_plies=max_plies)
        return [tuple(o) for o in openings]

    def play(self, black: Agent, white: Agent, opening: tuple[int, ...], seed: Seed):
        from engine.reversi.match import play_game

        return play_game(black, white, variant=self.variant.value, opening=opening, seed=seed)


GAMES: dict[str, Game] = {
    "othello": ReversiGame(
        "othello", Variant.OTHELLO, seed_references=("wpc",),
        default_panel=("course", "wpc", "greedy", "random"),
    ),
    "reversed_reversi": ReversiGame(
        "reversed_reversi", Variant.REVERSED, seed_references=("course", "wpc_negated"),
        default_panel=("course", "wpc_negated", "greedy", "random"),
    ),
}


def get_game(name: str) -> Game:
    """The registered game called ``name``; ``ValueError`` lists the allowed names."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (allowed: {', '.join(GAMES)})") from None
