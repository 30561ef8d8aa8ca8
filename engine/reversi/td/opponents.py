"""Fixed opponents of TD learning (``python -m evolve.td --opponents``): each as a network the
self-play kernel plays at 1 ply, and the schedule of blocks of games against them."""

from __future__ import annotations

import functools

import numpy as np

from engine.reversi.genome.network import NtupleWeights

OPPONENT_BLOCK = 100  # games in a row against one opponent (an even number: both colours)


def opponent_network(spec: str, reversed_rules: bool) -> NtupleWeights:
    """A fixed TD opponent as a network the kernel plays at 1 ply: a network file as it is; a
    square-table reference or file (``wpc``, ``othello_league.json``, ...) as a network of 64
    one-cell tuples without symmetry, which evaluates exactly as the table does; ``wpc1``: the
    League's matrix (the variant's literature WPC)."""
    from engine.reversi.agents.factory import load_spec_weights
    from engine.reversi.files import reference_weights
    from engine.reversi.genome.network import network_layout
    from engine.reversi.genome.projection import projected_network

    if spec == "wpc1":
        source = reference_weights("wpc_negated" if reversed_rules else "wpc")
    else:
        source = load_spec_weights(spec)
    if isinstance(source, NtupleWeights):
        return source
    cells = network_layout("square1", "identity")
    return projected_network(source, cells, source.phase_bounds, source.feature_groups,
                             "square1", "identity")


@functools.lru_cache(maxsize=16)
def opponent_networks(specs: tuple[str, ...], reversed_rules: bool) -> tuple:
    """``opponent_network`` of each spec, made once per process (a TD run calls ``td_learn``
    chunk by chunk); ``ValueError`` naming a spec that is not a square-table or network
    player."""
    out = []
    for spec in specs:
        try:
            out.append(opponent_network(spec, reversed_rules))
        except (ValueError, OSError) as err:
            raise ValueError(f"TD opponent {spec!r}: {str(err).splitlines()[0]}") from None
    return tuple(out)


def opponent_schedule(games: int, n_opponents: int, self_play_share: float,
                      rng: np.random.Generator) -> list[tuple[int, int]]:
    """``(opponent, games)`` blocks of ``OPPONENT_BLOCK`` games: opponent -1 (self-play) with
    probability ``self_play_share``, else one of the ``n_opponents`` uniformly."""
    blocks = []
    for done in range(0, games, OPPONENT_BLOCK):
        who = -1 if n_opponents == 0 or rng.random() < self_play_share else \
            int(rng.integers(n_opponents))
        blocks.append((who, min(OPPONENT_BLOCK, games - done)))
    return blocks
