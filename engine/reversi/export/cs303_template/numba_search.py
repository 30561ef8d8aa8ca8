"""The numba part of the CS303 agent: ``cs303.py`` pastes the section between the markers into
``base.py`` (in place of its pure-Python stubs) unless exported with ``--numba off``.

Its kernels (``_compile_kernels``): the same search as the template's ``Searcher``, move for
move: the same evaluation summed in the same order (the same bits), the same move ordering and
table rules; only the clock is read every 1,024 nodes instead of 32. The compile thread and the
search driver are ``numba_driver.py``; without numba, or if compiling fails,
every move is pure Python.
"""
# ruff: noqa: F821 - a part, not a module: the template defines the names it uses (Searcher,
# POSITIONAL, WEIGHTS, EDGE_STABLE, deepening_schedule, ...).

# --- BEGIN NUMBA SEARCH ---
# numba is optional (see ``start_compiling``): the search below is ``Searcher`` compiled, the
# same moves 20-30x as fast; the pure-Python search plays until it has compiled.
from collections import namedtuple  # noqa: E402 - the part begins mid-file

NUMBA_TABLE_BITS = 18  # transposition table of 2**18 entries (12.6 MB)
CLOCK_EVERY = 1023  # the numba search reads the clock every 1,024 nodes
_Tables = namedtuple("_Tables", "rays adjacent upward positional bytes weights phase edge unpack "
                                "offsets cells lengths network")
# an n-tuple network's agent (cs303_ntuple.py) defines INSTANCES and NETWORK: it evaluates with
# them instead of the square table
IS_NETWORK = "NETWORK" in globals()
# per slot: keys (the boards, then depth + 1 and best move + 1 a byte each; 0: empty) and
# bounds (lower, upper): two arrays, as each array passed down the recursion costs reference
# counting
_Table = namedtuple("_Table", "keys bounds")
_COMPILED = {"root": None, "evaluate": None, "solve_root": None, "error": None,
             "thread": None}  # once per process


def _numba_tables():
    """The evaluation's constants and the rays of ``flips``, as arrays for the kernels."""
    rays = np.zeros((64, 8), dtype=np.uint64)
    adjacent = np.zeros((64, 8), dtype=np.uint64)
    upward = np.zeros((64, 8), dtype=np.int64)
    for sq in range(64):
        k = 0
        for up, lists in ((1, _RAYS_UP), (0, _RAYS_DOWN)):
            for adj, ray in lists[sq]:
                rays[sq, k], adjacent[sq, k], upward[sq, k] = ray, adj, up
                k += 1
    instances = globals().get("INSTANCES", ((0, (0,)),))
    cells = np.zeros((len(instances), max(len(c) for _, c in instances)), dtype=np.uint64)
    for i, (_, instance_cells) in enumerate(instances):
        cells[i, :len(instance_cells)] = instance_cells
    return _Tables(
        rays, adjacent, upward, np.array(POSITIONAL, dtype=np.float64),
        np.array(_TABLES, dtype=np.float64), np.array(WEIGHTS, dtype=np.float64),
        np.array(PHASE_OF_DISCS, dtype=np.int64), np.array(EDGE_STABLE, dtype=np.uint64),
        np.array(UNPACK_FILE_A, dtype=np.uint64),
        np.array([offset for offset, _ in instances], dtype=np.int64), cells,
        np.array([len(c) for _, c in instances], dtype=np.int64),
        np.array(globals().get("NETWORK", ((0.0,),)), dtype=np.float64))


def _empty_table(bits):
    return _Table(np.zeros((1 << bits, 3), np.uint64), np.zeros((1 << bits, 2)))


def _compile_kernels():
    """The numba root search and evaluation (raises ImportError without numba). Every operand
    is uint64 or int64 on purpose: numba turns uint64 mixed with int64 into float64."""
    import sys
    import types

    import numba
    from numba import njit

    if __name__ not in sys.modules:  # loaded from a path: numba's recursion finds its module
        sys.modules[__name__] = module = types.ModuleType(__name__)  # by name, so name one
        module.__dict__.update(globals())

    u = np.uint64
    U0, U1, FF, FULL_ = u(0), u(1), u(0xFF), u(FULL)
    INNER_FILES_, NOT_A, NOT_H = u(INNER_FILES), u(NOT_FILE_A), u(NOT_FILE_H)
    FILE_A_, PACK, INNER_ = u(FILE_A), u(PACK_FILE), u(INNER)
    NOT_AB, NOT_GH, NOT_AD, NOT_EH = (u(NOT_FILES_AB), u(NOT_FILES_GH), u(NOT_FILES_A_D),
                                      u(NOT_FILES_E_H))
    CORNERS = (u(A1), u(H1), u(A8), u(H8))
    S = tuple(u(i) for i in range(65))
    HASH = u(0x9E3779B97F4A7C15)
    TABLE_SHIFT = u(64 - NUMBA_TABLE_BITS)
    INF = np.inf
    SORT_DEPTH = Searcher.SORT_DEPTH
    perf_counter = time.perf_counter  # a closure variable: objmode finds it however the
    # platform loads this file (a module global is looked up by the module's name)
    reversed_ = REVERSED
    network = IS_NETWORK
    win = WIN
    # the evaluation's tables as compile-time constants: arrays passed down the recursion would
    # cost two atomic reference counts each per call
    (RAYS, ADJACENT, UPWARD, SQUARE_WEIGHTS, BYTES, FEATURE_WEIGHTS, PHASE, EDGE, UNPACK, OFFSETS,
     CELLS, LENGTHS, NETWORK_) = (np.ascontiguousarray(a) for a in _numba_tables())

    @njit(cache=False)
    def popcount(x):
        x = x - ((x >> S[1]) & u(0x5555555555555555))
        x = (x & u(0x3333333333333333)) + ((x >> S[2]) & u(0x3333333333333333))
        x = (x + (x >> S[4])) & u(0x0F0F0F0F0F0F0F0F)
        return np.int64((x * u(0x0101010101010101)) >> S[56])

    @njit(cache=False)
    def low_square(x):
        return popcount((x & (~x + U1)) - U1)

    @njit(cache=False)
    def direction(P, m, s, s2):
        x = m & (P << s)
        x |= m & (x << s)
        pair = m & (m << s)
        x |= pair & (x << s2)
        x |= pair & (x << s2)
        moves = x << s
        x = m & (P >> s)
        x |= m & (x >> s)
        pair = m & (m >> s)
        x |= pair & (x >> s2)
        x |= pair & (x >> s2)
        return moves | (x >> s)

    @njit(cache=False)
    def legal(P, O):
        m = O & INNER_FILES_
        moves = direction(P, m, S[1], S[2]) | direction(P, O, S[8], S[16])
        moves |= direction(P, m, S[7], S[14]) | direction(P, m, S[9], S[18])
        return moves & ~(P | O) & FULL_

    @njit(cache=False)
    def flips(P, O, sq):
        flipped = U0
        for k in range(8):
            adj = ADJACENT[sq, k]
            if adj == U0:
                break
            if adj & O:
                ray = RAYS[sq, k]
                stop = ray & ~O
                if UPWARD[sq, k]:
                    stop &= ~stop + U1
                    if stop & P:
                        flipped |= ray & (stop - U1)
                elif stop:
                    stop |= stop >> S[1]
                    stop |= stop >> S[2]
                    stop |= stop >> S[4]
                    stop |= stop >> S[8]
                    stop |= stop >> S[16]
                    stop |= stop >> S[32]
                    stop ^= stop >> S[1]  # the highest square of the stop set
                    if stop & P:
                        flipped |= ray & ~(stop + stop - U1)
        return flipped

    @njit(cache=False)
    def neighbours(x):
        east = (x << S[1]) & NOT_A
        west = (x >> S[1]) & NOT_H
        row = x | east | west
        return (east | west | (row << S[8]) | (row >> S[8])) & FULL_

    @njit(cache=False)
    def final_score(P, O):
        diff = popcount(P) - popcount(O)
        empties = 64 - popcount(P | O)
        if diff > 0:
            diff += empties
        elif diff < 0:
            diff -= empties
        return -diff if reversed_ else diff

    @njit(cache=False)
    def terminal_value(P, O):
        s = final_score(P, O)
        sign = (s > 0) - (s < 0)
        return win * sign + s

    @njit(cache=False)
    def full_lines(occupied):
        h = occupied & (occupied >> S[1])
        h &= h >> S[2]
        h &= h >> S[4]
        h = (h & FILE_A_) * FF
        v = occupied & (occupied >> S[8])
        v &= v >> S[16]
        v &= v >> S[32]
        v = (v & FF) * FILE_A_
        empty = ~occupied & FULL_
        x = empty | ((empty << S[9]) & NOT_A) | ((empty >> S[9]) & NOT_H)
        x |= ((x << S[18]) & NOT_AB) | ((x >> S[18]) & NOT_GH)
        x |= ((x << S[36]) & NOT_AD) | ((x >> S[36]) & NOT_EH)
        d9 = ~x & FULL_
        x = empty | ((empty << S[7]) & NOT_H) | ((empty >> S[7]) & NOT_A)
        x |= ((x << S[14]) & NOT_GH) | ((x >> S[14]) & NOT_AB)
        x |= ((x << S[28]) & NOT_EH) | ((x >> S[28]) & NOT_AD)
        d7 = ~x & FULL_
        return h, v, d9, d7

    @njit(cache=False)
    def edge_stable(P, O):
        edge, unpack = EDGE, UNPACK
        stable = edge[np.int64(((P & FF) << S[8]) | (O & FF))]
        stable |= edge[np.int64(((P >> S[56]) << S[8]) | (O >> S[56]))] << S[56]
        p = (((P & FILE_A_) * PACK) >> S[56]) & FF
        o = (((O & FILE_A_) * PACK) >> S[56]) & FF
        stable |= unpack[np.int64(edge[np.int64((p << S[8]) | o)])]
        p = ((((P >> S[7]) & FILE_A_) * PACK) >> S[56]) & FF
        o = ((((O >> S[7]) & FILE_A_) * PACK) >> S[56]) & FF
        stable |= unpack[np.int64(edge[np.int64((p << S[8]) | o)])] << S[7]
        return stable

    @njit(cache=False)
    def stable_discs(P, O, h, v, d9, d7):
        stable = edge_stable(P, O) | (P & h & v & d9 & d7)
        if not stable:
            return stable
        central = P & INNER_
        while True:
            old = stable
            sh = (stable >> S[1]) | (stable << S[1]) | h
            sv = (stable >> S[8]) | (stable << S[8]) | v
            s9 = (stable >> S[9]) | (stable << S[9]) | d9
            s7 = (stable >> S[7]) | (stable << S[7]) | d7
            stable |= sh & sv & s9 & s7 & central
            if stable == old:
                return stable

    @njit(cache=False)
    def positional(P, O, phase):
        tables = BYTES
        total = 0.0
        for row in range(8):
            shift = S[8 * row]
            total += (tables[phase, row, np.int64((P >> shift) & FF)]
                      - tables[phase, row, np.int64((O >> shift) & FF)])
        return total

    @njit(cache=False)
    def parity_regions(empty):
        odd = even = 0
        while empty:
            region = empty & (~empty + U1)
            while True:
                grown = (region | neighbours(region)) & empty
                if grown == region:
                    break
                region = grown
            empty ^= region
            if popcount(region) & 1:
                odd += 1
            else:
                even += 1
        return odd, even

    @njit(cache=False)
    def network_value(P, O, phase):
        """``network_value`` of the network agent: instance by instance, the same bits."""
        total = 0.0
        for i in range(OFFSETS.shape[0]):
            index = 0
            for j in range(LENGTHS[i]):
                c = CELLS[i, j]
                index = 3 * index + np.int64((P >> c) & U1) + 2 * np.int64((O >> c) & U1)
            total += NETWORK_[phase, OFFSETS[i] + index]
        return total

    @njit(cache=False)
    def evaluate(P, O, moves):
        """``evaluate`` of the pure-Python agent, summed in the same order (the same bits)."""
        mob_own = popcount(moves)
        mob_opp = popcount(legal(O, P))
        if mob_own == 0 and mob_opp == 0:
            return terminal_value(P, O)
        phase = PHASE[popcount(P | O)]
        value = network_value(P, O, phase) if network else positional(P, O, phase)
        f = FEATURE_WEIGHTS[phase]
        value += f[0] * mob_own + f[1] * mob_opp
        occupied = P | O
        if f[2] != 0.0 or f[3] != 0.0:
            near_empty = neighbours(~occupied & FULL_)
            value += f[2] * popcount(O & near_empty) + f[3] * popcount(P & near_empty)
        if f[4] != 0.0 or f[5] != 0.0:
            h, v, d9, d7 = full_lines(occupied)
            value += f[4] * popcount(stable_discs(P, O, h, v, d9, d7))
            value += f[5] * popcount(stable_discs(O, P, h, v, d9, d7))
        if f[6] != 0.0 or f[7] != 0.0 or f[8] != 0.0 or f[9] != 0.0:
            a1, h1 = CORNERS[0] & ~occupied, CORNERS[1] & ~occupied
            a8, h8 = CORNERS[2] & ~occupied, CORNERS[3] & ~occupied
            x = (a1 << S[9]) | (h1 << S[7]) | (a8 >> S[7]) | (h8 >> S[9])
            c = (a1 << S[1]) | (a1 << S[8]) | (h1 >> S[1]) | (h1 << S[8])
            c |= (a8 << S[1]) | (a8 >> S[8]) | (h8 >> S[1]) | (h8 >> S[8])
            value += f[6] * popcount(P & x) + f[7] * popcount(O & x)
            value += f[8] * popcount(P & c) + f[9] * popcount(O & c)
        if f[10] != 0.0 or f[11] != 0.0:
            odd, even = parity_regions(~occupied & FULL_)
            value += f[10] * odd + f[11] * even
        return value

    @njit(cache=False)
    def ordered(P, O, moves, hint, out):
        """``Searcher._order``: ``hint`` first, then by positional weight (a stable sort)."""
        weights = SQUARE_WEIGHTS[PHASE[popcount(P | O) + 1]]
        n = 0
        while moves:
            sq = low_square(moves)
            moves &= moves - U1
            i = n
            while i > 0 and weights[out[i - 1]] < weights[sq]:
                out[i] = out[i - 1]
                i -= 1
            out[i] = sq
            n += 1
        for i in range(n):
            if out[i] == hint:
                for j in range(i, 0, -1):
                    out[j] = out[j - 1]
                out[0] = hint
                break
        return n

    @njit(cache=False)
    def sorted_by_value(P, O, moves, hint, out):
        """``Searcher._sorted``: by the evaluation after the move, ``hint`` first."""
        keys = np.empty(64, dtype=np.float64)
        n = 0
        while moves:
            sq = low_square(moves)
            low = moves & (~moves + U1)
            moves ^= low
            if sq == hint:
                key = -INF
            else:
                f = flips(P, O, sq)
                nP, nO = O ^ f, P ^ f ^ low
                key = evaluate(nP, nO, legal(nP, nO))
            i = n  # squares arrive in increasing order: equal keys stay in square order
            while i > 0 and keys[i - 1] > key:
                keys[i] = keys[i - 1]
                out[i] = out[i - 1]
                i -= 1
            keys[i] = key
            out[i] = sq
            n += 1
        return n

    @njit(cache=False)
    def clock():
        with numba.objmode(now="float64"):
            now = perf_counter()
        return now

    @njit(cache=False)
    def proven_bounds(best, alpha, beta, lower, upper):
        """``proven_bounds`` of the template."""
        if best <= alpha:
            upper = min(upper, best)
        elif best >= beta:
            lower = max(lower, best)
        else:
            lower = upper = best
        return lower, upper

    @njit(cache=False)
    def negamax(P, O, depth, alpha, beta, t, stats, deadline):
        stats[0] += 1
        if not stats[0] & CLOCK_EVERY and clock() > deadline:
            stats[1] = 1
        if stats[1]:
            return 0.0
        moves = legal(P, O)
        if not moves:
            if not legal(O, P):
                return terminal_value(P, O)
            return -negamax(O, P, depth, -beta, -alpha, t, stats, deadline)
        if depth == 0:
            return evaluate(P, O, moves)
        slot = np.int64(((P * HASH) ^ (O + (O >> S[29]))) * HASH >> TABLE_SHIFT)
        lower, upper, hint = -INF, INF, -1
        data = np.int64(t.keys[slot, 2])
        if data and t.keys[slot, 0] == P and t.keys[slot, 1] == O:
            hint = (data >> 8) - 1
            if (data & 255) - 1 == depth:
                lower, upper = t.bounds[slot, 0], t.bounds[slot, 1]
                if lower >= beta:
                    return lower
                if upper <= alpha or lower == upper:
                    return upper
        a = max(alpha, lower)
        b = min(beta, upper)
        best, best_move = -INF, -1
        squares = np.empty(64, dtype=np.int64)
        if depth >= SORT_DEPTH:
            n = sorted_by_value(P, O, moves, hint, squares)
        else:
            n = ordered(P, O, moves, hint, squares)
        for i in range(n):
            sq = squares[i]
            f = flips(P, O, sq)
            value = -negamax(O ^ f, P ^ f ^ (U1 << np.uint64(sq)), depth - 1, -b, -a, t, stats,
                             deadline)
            if stats[1]:
                return 0.0
            if value > best:
                best, best_move = value, sq
                if value > a:
                    a = value
                    if a >= b:
                        break
        lower, upper = proven_bounds(best, max(alpha, lower), b, lower, upper)
        t.keys[slot, 0], t.keys[slot, 1] = P, O
        t.keys[slot, 2] = np.uint64((depth + 1) | ((best_move + 1) << 8))
        t.bounds[slot, 0], t.bounds[slot, 1] = lower, upper
        return best

    @njit(cache=False)
    def root(P, O, depth, first, t, stats, deadline, events):
        """``Searcher.root``: ``events`` gets every move that becomes the best (``stats[2]``
        of them); returns the best move, or -1 when the deadline came first."""
        best, best_move = -INF, -1
        squares = np.empty(64, dtype=np.int64)
        n = ordered(P, O, legal(P, O), first, squares)
        for i in range(n):
            sq = squares[i]
            f = flips(P, O, sq)
            value = -negamax(O ^ f, P ^ f ^ (U1 << np.uint64(sq)), depth - 1, -INF, -best, t,
                             stats, deadline)
            if stats[1]:
                return -1
            if value > best:
                best, best_move = value, sq
                events[stats[2]] = sq
                stats[2] += 1
        return best_move

    solver = _compile_solver(popcount, low_square, legal, flips, final_score, clock,
                             proven_bounds)
    return root, evaluate, solver
# --- END NUMBA SEARCH ---
