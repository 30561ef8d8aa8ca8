"""Slow, independent references for the search and evaluation tests.

Written on the list-of-cells rules of ``reference_rules.py`` (no bit tricks), with plain
recursion and no pruning, so they share no code with the numba search except, where noted, the
leaf evaluation function (whose features are checked separately against slow code here).
"""

from __future__ import annotations

import numpy as np

from engine.reversi.rules.state import PASS, Position
from tests.engine.reversi import reference_rules as ref

WIN = 1e6


def final_diff(p: Position, reversed_rules: bool) -> int:
    """Final score for the side to move, counted here from the discs (empties to the winner in
    Othello; Reversed is its negation)."""
    own, opp = bin(p.player).count("1"), bin(p.opponent).count("1")
    diff = own - opp
    if diff:
        diff += p.empties if diff > 0 else -p.empties
    return -diff if reversed_rules else diff


def minimax(p: Position, depth: int, leaf, reversed_rules: bool) -> float:
    """Plain negamax without pruning. A pass keeps the depth; two passes end the game.

    ``leaf(position)`` scores a depth-0 node from the side to move's view. Rules come from
    ``Position`` (itself tested against ``reference_rules.py``): the recursion and the
    terminal scoring are what is independent of the search under test.
    """
    if depth == 0:
        return leaf(p)
    moves = p.legal_moves()
    if not moves:
        s = final_diff(p, reversed_rules)
        return (WIN + s) if s > 0 else (-WIN + s) if s < 0 else 0.0
    if moves == [PASS]:
        return -minimax(p.play(PASS), depth, leaf, reversed_rules)
    return max(-minimax(p.play(m), depth - 1, leaf, reversed_rules) for m in moves)


def exact_score(p: Position, reversed_rules: bool) -> int:
    """Perfect-play final score for the side to move, by exhaustive search."""
    moves = p.legal_moves()
    if not moves:
        return final_diff(p, reversed_rules)
    return max(-exact_score(p.play(m), reversed_rules) for m in moves)


# --- slow features ---------------------------------------------------------------------------

NEIGHBOURS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def frontier_count(cells: list[int], colour: int) -> int:
    """Discs of ``colour`` with at least one empty 8-neighbour."""
    count = 0
    for sq in range(64):
        if cells[sq] != colour:
            continue
        r, c = divmod(sq, 8)
        if any(
            0 <= r + dr < 8 and 0 <= c + dc < 8 and cells[8 * (r + dr) + c + dc] == 0
            for dr, dc in NEIGHBOURS
        ):
            count += 1
    return count


def slow_features(cells: list[int]) -> list[float]:
    opp_view = ref.pass_turn(cells)
    return [
        len(ref.legal_moves(cells)),
        len(ref.legal_moves(opp_view)),
        frontier_count(cells, -1),
        frontier_count(cells, 1),
    ]


def slow_positional(cells: list[int], row: np.ndarray) -> float:
    return sum(row[s] * cells[s] for s in range(64) if cells[s])


# --- positions -------------------------------------------------------------------------------


def with_passes(n: int, seed: int) -> list[Position]:
    """Reachable positions where the side to move must pass (found by seeded random play)."""
    found = []
    rng = np.random.default_rng(seed)
    while len(found) < n:
        p = Position.start()
        while True:
            moves = p.legal_moves()
            if not moves:
                break
            if moves == [PASS]:
                found.append(p)
                break
            p = p.play(moves[rng.integers(len(moves))])
    return found


def positions_with_empties(n: int, empties: int, seed: int) -> list[Position]:
    """Reachable non-final positions with exactly ``empties`` empty squares."""
    out = []
    s = seed
    while len(out) < n:
        s += 1
        rng = np.random.default_rng([seed, s])
        p = Position.start()
        while p.empties > empties and p.legal_moves():
            moves = p.legal_moves()
            p = p.play(moves[rng.integers(len(moves))])
        if p.empties == empties and p.legal_moves():
            out.append(p)
    return out
