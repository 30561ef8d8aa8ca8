"""The fixed-depth search (``--depth``): exactly the engine agent's move at that depth.
``cs303.py`` pastes the section between the markers into ``base.py``, after the parts before it
(``cs303.PARTS``).
"""
# ruff: noqa: F821 - a part, not a module: base.py and the other parts define the names it
# uses.

# --- BEGIN PART ---
# --- fixed depth: exactly the engine's agent ---------------------------------------------------
# The engine's alpha-beta at a fixed depth plays the first move, in a fixed root order, of those
# with the best value. Values do not depend on move order, so matching the engine needs only its
# root order and its values to the last bit (the evaluation summed in the engine's order).

SHALLOW_EXACT = 6  # the engine's exact search keeps moves in square order with this few empties


def _squares(x):
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


def evaluate_in_engine_order(P, O):
    """``evaluate``, term by term in the engine's summation order (bit-identical values)."""
    mob_own, mob_opp = _popcount(legal_moves(P, O)), _popcount(legal_moves(O, P))
    if mob_own == 0 and mob_opp == 0:
        return terminal_value(P, O)
    phase = PHASE_OF_DISCS[_popcount(P | O)]
    row = POSITIONAL[phase]
    value = 0.0
    for sq in _squares(P):
        value += row[sq]
    for sq in _squares(O):
        value -= row[sq]
    return add_features(value, P, O, WEIGHTS[phase], mob_own, mob_opp)


def fixed_value(P, O, depth, alpha, beta, exact):
    """Negamax alpha-beta value: ``depth`` plies then the evaluation, or (``exact``) the final
    disc difference; a pass keeps the depth, as in the engine."""
    moves = legal_moves(P, O)
    if not exact and depth == 0:
        return evaluate_in_engine_order(P, O)
    if not moves:
        if not legal_moves(O, P):
            return float(final_score(P, O)) if exact else terminal_value(P, O)
        return -fixed_value(O, P, depth, -beta, -alpha, exact)
    best = -2 * WIN * WIN
    for sq in _squares(moves):
        f = flips(P, O, sq)
        child = depth if exact else depth - 1
        value = -fixed_value(O ^ f, P ^ f ^ (1 << sq), child, -beta, -alpha, exact)
        if value > best:
            best = value
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    return best


def root_order(P, O, moves, depth, exact):
    """The engine's root order: descending key, equal keys in square order."""
    empties = 64 - _popcount(P | O)
    keys = {}
    for sq in _squares(moves):
        f = flips(P, O, sq)
        nP, nO = O ^ f, P ^ f ^ (1 << sq)
        if exact:
            keys[sq] = 0.0 if empties <= SHALLOW_EXACT else -_popcount(legal_moves(nP, nO))
        elif depth >= 3:
            keys[sq] = -evaluate_in_engine_order(nP, nO)
        elif depth == 2:
            keys[sq] = -_popcount(legal_moves(nP, nO))
        else:
            keys[sq] = 0.0  # depth 1: the engine evaluates the moves in square order
    return sorted(keys, key=lambda sq: -keys[sq])


def fixed_depth_move(P, O):
    """The engine agent's move at ``FIXED_DEPTH`` plies, exact within ``ENDGAME_EMPTIES``."""
    empties = 64 - _popcount(P | O)
    exact = empties <= ENDGAME_EMPTIES
    depth = empties if exact else min(FIXED_DEPTH, 64)
    best, best_move = -2 * WIN * WIN, None
    for sq in root_order(P, O, legal_moves(P, O), depth, exact):
        f = flips(P, O, sq)
        child = depth if exact else depth - 1
        value = -fixed_value(O ^ f, P ^ f ^ (1 << sq), child, -2 * WIN * WIN, -best, exact)
        if value > best:
            best, best_move = value, sq
    return best_move


# --- END PART ---
