"""A sampled tournament: each individual plays k seeded opponents instead of all n - 1, so a
generation costs n * k / 2 pairings instead of n (n - 1) / 2 (linear, not quadratic, in n).

The pairs form a k-regular graph drawn from ``SeedSequence([seed, generation,
SAMPLED_STREAM])``: the population in a seeded random circle, everyone paired with the k / 2
nearest on each side (and, for odd k, the one opposite). Everyone plays exactly k opponents and
the same number of games, so summed points stay comparable, as in the full round robin.

Each pair keeps its full round-robin pairing index, hence its game seeds: a sampled game is
exactly the game the full round robin would have played, and a sampled generation's fitness is
the full round robin's restricted to the drawn pairs (which is how its agreement with the full
ranking is measured by ``python -m experiments.bench.study.scale``, its ``--opponents``). Scoring:
``score_round_robin``.
"""

from __future__ import annotations

import numpy as np

from evolve.ga.scoring.tournament import GameTask, pair_tasks

SAMPLED_STREAM = 1 << 28  # pairing slot for drawing the opponents (never a real pairing index)


def check_opponents(n: int, k: int) -> None:
    """``ValueError`` naming the key unless k opponents each can be drawn from n individuals."""
    if not 1 <= k < n:
        raise ValueError(f"games.opponents_per_individual={k} must satisfy "
                         f"1 <= opponents < population ({n})")
    if k % 2 and n % 2:
        raise ValueError(f"games.opponents_per_individual={k} must be even when the population "
                         f"({n}) is odd (every individual plays the same number of opponents)")


def pairing_index(i: int, j: int, n: int) -> int:
    """Position of the pair (i, j), i < j, in ``itertools.combinations(range(n), 2)``."""
    return i * (2 * n - i - 1) // 2 + (j - i - 1)


def sampled_pairs(n: int, k: int, seed: int, generation: int) -> list[tuple[int, int]]:
    """The generation's k-regular set of pairs (i < j), sorted, drawn from the seed only."""
    check_opponents(n, k)
    rng = np.random.default_rng(np.random.SeedSequence([seed, generation, SAMPLED_STREAM]))
    circle = rng.permutation(n)
    offsets = list(range(1, k // 2 + 1)) + ([n // 2] if k % 2 else [])
    pairs = set()
    for d in offsets:
        for a in range(n if 2 * d != n else n // 2):  # the opposite pairs once each
            i, j = int(circle[a]), int(circle[(a + d) % n])
            pairs.add((min(i, j), max(i, j)))
    return sorted(pairs)


def sampled_tasks(n: int, k: int, openings, seed: int, generation: int) -> list[GameTask]:
    """Every drawn pair plays every opening twice (i first, then j first), with the seeds the
    full round robin gives that pair."""
    return pair_tasks(((pairing_index(i, j, n), i, j) for i, j in sampled_pairs(n, k, seed,
                                                                              generation)),
                      openings, seed, generation)
