package student_player;

import pentago_twist.PentagoBoardState;

/**
 * The board-evolve Pentago Twist engine in plain Java (standard library only): bitboard rules,
 * the champion's evaluation and its alpha-beta search, written to play exactly the engine's
 * move at a fixed depth (engine/pentago: rules/bitboard.py, genome/evaluation.py,
 * search/negamax.py and the shared kernel engine/kernels/search/alphabeta.py).
 *
 * A position is two 36-bit masks in a long: P (side to move) and O (opponent); cell (x, y) is
 * bit 6x + y. A move id is (6x + y) * 8 + 2a + b: place on (x, y), then twist quadrant a
 * (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right) clockwise (b = 0) or mirror its
 * columns (b = 1): the course's PentagoMove(x, y, a, b, player).
 */
public final class MyTools {
    private MyTools() {
    }

    static final long FULL = (1L << 36) - 1;
    static final double WIN_SCORE = 1000000.0;
    static final int N_FEATURES = 9;
    static final int FEATURES_ONLY = 0, NETWORK_ONLY = 1, NETWORK_AND_FEATURES = 2;
    static final int ONGOING = 0, TO_MOVE_WINS = 1, TO_MOVE_LOSES = 2, DRAWN = 3;
    static final int NO_MOVE = -1;
    static final int[][] ORIGINS = {{0, 0}, {0, 3}, {3, 0}, {3, 3}};

    static final long[][] TWIST = new long[8][512];
    static final long[] QUAD_MASK = new long[4];
    static final int[] QUAD_SHIFT = new int[4];
    static final long[] WINDOWS = new long[32];
    static final long[][] TOUCHING = new long[4][32];
    static final long[][] UNTOUCHED = new long[4][32];
    static final int[] N_TOUCHING = new int[4];
    static final int[] N_UNTOUCHED = new int[4];
    static final long[] QUADRANT_LINES = new long[32];
    static final long CENTRES, CORNERS, EDGES;

    static {
        for (int a = 0; a < 4; a++) {
            int r0 = ORIGINS[a][0], c0 = ORIGINS[a][1];
            QUAD_SHIFT[a] = 6 * r0 + c0;
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    QUAD_MASK[a] |= 1L << (6 * (r0 + i) + c0 + j);
                }
            }
            for (int b = 0; b < 2; b++) {
                for (int pattern = 0; pattern < 512; pattern++) {
                    long out = 0;
                    for (int i = 0; i < 3; i++) {
                        for (int j = 0; j < 3; j++) {
                            if ((pattern >> (3 * i + j) & 1) != 0) {
                                int ti = b == 0 ? j : i;  // clockwise: (i, j) -> (j, 2 - i)
                                int tj = b == 0 ? 2 - i : 2 - j;  // flip: (i, j) -> (i, 2 - j)
                                out |= 1L << (6 * (r0 + ti) + c0 + tj);
                            }
                        }
                    }
                    TWIST[2 * a + b][pattern] = out;
                }
            }
        }
        int n = 0;
        int[][] directions = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
        for (int[] dir : directions) {
            for (int x = 0; x < 6; x++) {
                for (int y = 0; y < 6; y++) {
                    int ex = x + 4 * dir[0], ey = y + 4 * dir[1];
                    if (ex < 0 || ex >= 6 || ey < 0 || ey >= 6) {
                        continue;
                    }
                    long w = 0;
                    for (int k = 0; k < 5; k++) {
                        w |= 1L << (6 * (x + k * dir[0]) + y + k * dir[1]);
                    }
                    WINDOWS[n++] = w;
                }
            }
        }
        for (int a = 0; a < 4; a++) {
            for (long w : WINDOWS) {
                if ((w & QUAD_MASK[a]) != 0) {
                    TOUCHING[a][N_TOUCHING[a]++] = w;
                } else {
                    UNTOUCHED[a][N_UNTOUCHED[a]++] = w;
                }
            }
        }
        int[][][] local = {
            {{0, 0}, {0, 1}, {0, 2}}, {{1, 0}, {1, 1}, {1, 2}}, {{2, 0}, {2, 1}, {2, 2}},
            {{0, 0}, {1, 0}, {2, 0}}, {{0, 1}, {1, 1}, {2, 1}}, {{0, 2}, {1, 2}, {2, 2}},
            {{0, 0}, {1, 1}, {2, 2}}, {{0, 2}, {1, 1}, {2, 0}}};
        long centres = 0, corners = 0, edges = 0;
        n = 0;
        for (int[] origin : ORIGINS) {
            int r0 = origin[0], c0 = origin[1];
            for (int[][] line : local) {
                long mask = 0;
                for (int[] cell : line) {
                    mask |= 1L << (6 * (r0 + cell[0]) + c0 + cell[1]);
                }
                QUADRANT_LINES[n++] = mask;
            }
            centres |= 1L << (6 * (r0 + 1) + c0 + 1);
            for (int k = 0; k < 4; k++) {
                corners |= 1L << (6 * (r0 + 2 * (k >> 1)) + c0 + 2 * (k & 1));
            }
            edges |= (1L << (6 * r0 + c0 + 1)) | (1L << (6 * (r0 + 1) + c0))
                | (1L << (6 * (r0 + 1) + c0 + 2)) | (1L << (6 * (r0 + 2) + c0 + 1));
        }
        CENTRES = centres;
        CORNERS = corners;
        EDGES = edges;
    }

    // ---- rules --------------------------------------------------------------------------------

    static long twist(long board, int t) {
        int a = t >> 1, s = QUAD_SHIFT[a];
        int pattern = (int) ((board >>> s) & 7 | ((board >>> (s + 6)) & 7) << 3
            | ((board >>> (s + 12)) & 7) << 6);
        return (board & ~QUAD_MASK[a]) | TWIST[t][pattern];
    }

    static boolean hasFive(long board) {
        for (long w : WINDOWS) {
            if ((board & w) == w) {
                return true;
            }
        }
        return false;
    }

    /** ONGOING, TO_MOVE_WINS, TO_MOVE_LOSES or DRAWN for the side to move (owning P). */
    static int result(long p, long o) {
        boolean p5 = hasFive(p), o5 = hasFive(o);
        if (p5 && o5) {
            return DRAWN;
        }
        if (p5) {
            return TO_MOVE_WINS;
        }
        if (o5) {
            return TO_MOVE_LOSES;
        }
        return (p | o) == FULL ? DRAWN : ONGOING;
    }

    /** Whether the side to move wins at once (in an unfinished position): twist t wins iff
     * some window holds 4+ of twist(P) and nothing of twist(O), and twist(O) has no five. */
    static boolean canWinNow(long p, long o) {
        if (Long.bitCount(p) < 4) {
            return false;
        }
        for (int a = 0; a < 4; a++) {
            boolean untouchedFour = false;
            for (int k = 0; k < N_UNTOUCHED[a]; k++) {
                long w = UNTOUCHED[a][k];
                if ((o & w) == 0 && Long.bitCount(p & w) >= 4) {
                    untouchedFour = true;
                    break;
                }
            }
            for (int t = 2 * a; t < 2 * a + 2; t++) {
                long tp = twist(p, t), to = twist(o, t);
                boolean four = untouchedFour, five = false;
                for (int k = 0; k < N_TOUCHING[a]; k++) {
                    long w = TOUCHING[a][k];
                    if ((to & w) == w) {
                        five = true;
                        break;
                    }
                    if ((to & w) == 0 && Long.bitCount(tp & w) >= 4) {
                        four = true;
                    }
                }
                if (four && !five) {
                    return true;
                }
            }
        }
        return false;
    }

    static final int DEDUP_SLOTS = 1024;

    /** One move per distinct successor (the first in move-id order), as (next player's P, O):
     * returns how many. */
    static int distinctChildren(long p, long o, long[] outP, long[] outO, int[] outMove,
                                int[] used) {
        java.util.Arrays.fill(used, 0);
        int n = 0;
        long empties = ~(p | o) & FULL;
        while (empties != 0) {
            int cell = Long.numberOfTrailingZeros(empties);
            empties &= empties - 1;
            long placed = p | (1L << cell);
            for (int t = 0; t < 8; t++) {
                long np = twist(o, t), no = twist(placed, t);
                int h = (int) (((np * 0x9E3779B97F4A7C15L) ^ (no * 0xC2B2AE3D27D4EB4FL)) >>> 54);
                while (used[h] != 0 && !(outP[used[h] - 1] == np && outO[used[h] - 1] == no)) {
                    h = (h + 1) & (DEDUP_SLOTS - 1);
                }
                if (used[h] == 0) {
                    used[h] = n + 1;
                    outP[n] = np;
                    outO[n] = no;
                    outMove[n] = cell * 8 + t;
                    n++;
                }
            }
        }
        return n;
    }

    /** (P, O) of the course's board: P the stones of the player to move. */
    static long[] boards(PentagoBoardState state) {
        long white = 0, black = 0;
        for (int x = 0; x < 6; x++) {
            for (int y = 0; y < 6; y++) {
                PentagoBoardState.Piece piece = state.getPieceAt(x, y);
                if (piece == PentagoBoardState.Piece.WHITE) {
                    white |= 1L << (6 * x + y);
                } else if (piece == PentagoBoardState.Piece.BLACK) {
                    black |= 1L << (6 * x + y);
                }
            }
        }
        return state.getTurnPlayer() == PentagoBoardState.WHITE
            ? new long[] {white, black} : new long[] {black, white};
    }

    // ---- evaluation ---------------------------------------------------------------------------

    /** The champion's evaluation: feature weights per phase, an n-tuple network, or both. */
    static final class Evaluator {
        final double[][] features;  // [phase][18]: own then opp
        final int[] phaseOfStones;  // [37]
        final int mode;
        final double[][] network;   // [phase][entries], or null
        final int[] offset;         // per instance: where its table starts
        final int[][] cells;        // per instance: its cells, most significant digit first

        Evaluator(double[][] features, int[] phaseOfStones, int mode, double[][] network,
                  int[] offset, int[][] cells) {
            this.features = features;
            this.phaseOfStones = phaseOfStones;
            this.mode = mode;
            this.network = network;
            this.offset = offset;
            this.cells = cells;
        }

        double heuristic(long p, long o) {
            int stones = Long.bitCount(p | o);
            if (mode == FEATURES_ONLY) {
                return features(p, o, features[phaseOfStones[stones]]);
            }
            double[] w = network[phaseOfStones[stones]];
            double value = 0.0;
            for (int i = 0; i < offset.length; i++) {
                int index = 0;
                for (int c : cells[i]) {
                    index = index * 3 + (int) ((p >>> c) & 1) + 2 * (int) ((o >>> c) & 1);
                }
                value += w[offset[i] + index];
            }
            if (mode == NETWORK_AND_FEATURES) {
                value += features(p, o, features[phaseOfStones[stones]]);
            }
            return value;
        }

        /** The weighted twist-proof features, summed in the engine's order. */
        static double features(long p, long o, double[] row) {
            double total = 0.0;
            for (long w : WINDOWS) {
                int pc = Long.bitCount(p & w), oc = Long.bitCount(o & w);
                if (oc == 0 && pc > 0) {
                    total += row[Math.min(pc, 4) - 1];
                } else if (pc == 0 && oc > 0) {
                    total += row[N_FEATURES + Math.min(oc, 4) - 1];
                }
            }
            total += row[4] * Long.bitCount(p & CENTRES) + row[N_FEATURES + 4] * Long.bitCount(o & CENTRES);
            total += row[5] * Long.bitCount(p & CORNERS) + row[N_FEATURES + 5] * Long.bitCount(o & CORNERS);
            total += row[6] * Long.bitCount(p & EDGES) + row[N_FEATURES + 6] * Long.bitCount(o & EDGES);
            for (long line : QUADRANT_LINES) {
                int pc = Long.bitCount(p & line), oc = Long.bitCount(o & line);
                if (pc == 3) {
                    total += row[7];
                } else if (oc == 3) {
                    total += row[N_FEATURES + 7];
                } else if (pc == 2 && oc == 0) {
                    total += row[8];
                } else if (oc == 2 && pc == 0) {
                    total += row[N_FEATURES + 8];
                }
            }
            return total;
        }

        static double terminalValue(long p, long o) {
            int r = result(p, o);
            int bonus = 36 - Long.bitCount(p | o);
            if (r == TO_MOVE_WINS) {
                return WIN_SCORE + bonus;
            }
            if (r == TO_MOVE_LOSES) {
                return -WIN_SCORE - bonus;
            }
            return 0.0;
        }

        /** Exact if the game is over or won in one move, else the heuristic. */
        double staticValue(long p, long o) {
            if (result(p, o) != ONGOING) {
                return terminalValue(p, o);
            }
            if (canWinNow(p, o)) {
                return WIN_SCORE + 35 - Long.bitCount(p | o);
            }
            return heuristic(p, o);
        }
    }

    // ---- search -------------------------------------------------------------------------------

    /** What a search found: the move id, its value for the side to move, the depth. */
    static final class Result {
        final int move;
        final double value;
        final int depth;
        final boolean partial;

        Result(int move, double value, int depth, boolean partial) {
            this.move = move;
            this.value = value;
            this.depth = depth;
            this.partial = partial;
        }
    }

    /**
     * Fail-soft negamax alpha-beta over distinct successors with a transposition table used for
     * cut-offs only at exactly the remaining depth, so a fixed-depth value is exact whatever the
     * table holds, and the root plays the first move (in its order) of the best value: the
     * engine's move. Root order: depth 1, successors in move-id order; deeper, by ascending
     * static value for the opponent (stable).
     */
    static final class Searcher {
        static final int TT_BITS = 20;
        static final int CAP = 40;
        static final int BOUND_EXACT = 0, BOUND_LOWER = 1, BOUND_UPPER = 2;

        final Evaluator eval;
        final int endgameEmpties;
        final long[] ttK1 = new long[1 << TT_BITS], ttK2 = new long[1 << TT_BITS];
        final double[] ttValue = new double[1 << TT_BITS];
        final short[] ttMove = new short[1 << TT_BITS], ttDepth = new short[1 << TT_BITS];
        final byte[] ttBound = new byte[1 << TT_BITS];
        final int[] ttGen = new int[1 << TT_BITS];
        final int generation = 1;  // one game's searches share the table, as the engine's agent

        final long[] sP = new long[CAP], sO = new long[CAP];
        final long[][] cP = new long[CAP][288], cO = new long[CAP][288];
        final int[][] cMove = new int[CAP][288], order = new int[CAP][288];
        final double[][] cKey = new double[CAP][288];
        final int[] dedup = new int[DEDUP_SLOTS];

        long nodes;
        long deadline;          // System.nanoTime() after which a search stops; Long.MAX_VALUE: none
        boolean aborted;
        int rootDone, rootBestMove;
        double rootBest;

        Searcher(Evaluator eval, int endgameEmpties) {
            this.eval = eval;
            this.endgameEmpties = endgameEmpties;
        }

        /** The engine agent's move at a fixed depth (exact with few empties). */
        Result fixedDepth(long p, long o, int depth) {
            int empties = 36 - Long.bitCount(p | o);
            int d = empties <= endgameEmpties ? empties : Math.min(depth, empties);
            return run(p, o, d, Long.MAX_VALUE, NO_MOVE);
        }

        /** Iterative deepening until ``deadline`` (System.nanoTime()): the deepest completed
         * depth's move, or a deeper depth's best root move searched to the end after the
         * previous best (searched first); depth 1 always completes. */
        Result timed(long p, long o, long start, long deadline) {
            int empties = 36 - Long.bitCount(p | o);
            if (empties <= endgameEmpties) {  // the exact search first, with half the time
                Result exact = run(p, o, empties, start + (deadline - start) / 2, NO_MOVE);
                if (exact != null && !exact.partial) {
                    return exact;
                }
            }
            Result best = run(p, o, 1, Long.MAX_VALUE, NO_MOVE);
            for (int d = 2; d <= empties; d++) {
                if (Math.abs(best.value) >= WIN_SCORE) {
                    break;  // a forced result: deeper search cannot change it
                }
                Result found = run(p, o, d, deadline, best.move);
                if (found == null) {
                    break;
                }
                best = found;
                if (found.partial) {
                    break;
                }
            }
            return best;
        }

        /** One fixed-depth search; null when the deadline stopped it before a root child was
         * searched to the end, a partial result when it stopped later. */
        Result run(long p, long o, int depth, long deadline, int rootHint) {
            this.deadline = deadline;
            aborted = false;
            rootDone = 0;
            rootBestMove = NO_MOVE;
            rootBest = Double.NEGATIVE_INFINITY;
            sP[0] = p;
            sO[0] = o;
            double value = negamax(0, depth, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                rootHint);
            if (aborted) {
                return rootDone > 0 ? new Result(rootBestMove, rootBest, depth, true) : null;
            }
            return new Result(rootBestMove, value, depth, false);
        }

        int slotOf(long p, long o) {
            return (int) (((p ^ (o * 0xC2B2AE3D27D4EB4FL)) * 0x9E3779B97F4A7C15L) >>> (64 - TT_BITS));
        }

        double negamax(int ply, int d, double alpha, double beta, int rootHint) {
            nodes++;
            if (deadline != Long.MAX_VALUE && System.nanoTime() > deadline) {
                aborted = true;
                return 0.0;
            }
            long p = sP[ply], o = sO[ply];
            if (result(p, o) != ONGOING || d == 0) {
                return eval.staticValue(p, o);
            }
            int slot = -1, hint = NO_MOVE;
            if (d >= 2) {
                slot = slotOf(p, o);
                if (ttGen[slot] == generation && ttK1[slot] == p && ttK2[slot] == o) {
                    hint = ttMove[slot];
                    if (ply > 0 && ttDepth[slot] == d) {
                        double v = ttValue[slot];
                        int b = ttBound[slot];
                        if (b == BOUND_EXACT || (b == BOUND_LOWER && v >= beta)
                            || (b == BOUND_UPPER && v <= alpha)) {
                            return v;
                        }
                    }
                }
            }
            double alpha0 = alpha;
            long[] kidsP = cP[ply], kidsO = cO[ply];
            int[] moves = cMove[ply];
            if (d == 1) {  // one ply from the horizon: the children's static values in place
                int n = distinctChildren(p, o, kidsP, kidsO, moves, dedup);
                double best = Double.NEGATIVE_INFINITY;
                int bestMove = NO_MOVE, evaluated = 0;
                for (int i = 0; i < n && alpha < beta; i++) {
                    double v = -eval.staticValue(kidsP[i], kidsO[i]);
                    evaluated++;
                    if (v > best) {
                        best = v;
                        bestMove = moves[i];
                        if (v > alpha) {
                            alpha = v;
                        }
                    }
                }
                nodes += evaluated;
                if (ply == 0) {
                    rootBestMove = bestMove;
                    rootBest = best;
                }
                return best;
            }
            int n = expand(ply, ply > 0 ? hint : rootHint);
            int[] ord = order[ply];
            double best = Double.NEGATIVE_INFINITY;
            int bestMove = moves[ord[0]];
            for (int i = 0; i < n; i++) {
                int k = ord[i];
                sP[ply + 1] = kidsP[k];
                sO[ply + 1] = kidsO[k];
                double v = -negamax(ply + 1, d - 1, -beta, -alpha, NO_MOVE);
                if (aborted) {
                    return 0.0;
                }
                if (v > best) {
                    best = v;
                    bestMove = moves[k];
                    if (v > alpha) {
                        alpha = v;
                    }
                }
                if (ply == 0) {
                    rootDone++;
                    rootBest = best;
                    rootBestMove = bestMove;
                }
                if (alpha >= beta) {
                    break;
                }
            }
            if (slot >= 0) {
                int bound = best <= alpha0 ? BOUND_UPPER : best >= beta ? BOUND_LOWER : BOUND_EXACT;
                ttK1[slot] = p;
                ttK2[slot] = o;
                ttGen[slot] = generation;
                ttValue[slot] = best;
                ttBound[slot] = (byte) bound;
                ttDepth[slot] = (short) d;
                ttMove[slot] = (short) bestMove;
            }
            return best;
        }

        /** The distinct children, best first: the hint, then ascending value for the opponent
         * (a stable insertion sort: ties keep move order). */
        int expand(int ply, int hint) {
            long[] kidsP = cP[ply], kidsO = cO[ply];
            int[] moves = cMove[ply], ord = order[ply];
            double[] key = cKey[ply];
            int n = distinctChildren(sP[ply], sO[ply], kidsP, kidsO, moves, dedup);
            for (int i = 0; i < n; i++) {
                double k = moves[i] == hint ? Double.NEGATIVE_INFINITY
                    : eval.staticValue(kidsP[i], kidsO[i]);
                int j = i;
                while (j > 0 && key[j - 1] > k) {
                    key[j] = key[j - 1];
                    ord[j] = ord[j - 1];
                    j--;
                }
                key[j] = k;
                ord[j] = i;
            }
            return n;
        }
    }

    /** Doubles written by the exporter as 16 hex digits of their IEEE bits each (exact). */
    static double[] decodeDoubles(String[] chunks, int count) {
        double[] out = new double[count];
        int n = 0;
        for (String chunk : chunks) {
            for (int i = 0; i + 16 <= chunk.length(); i += 16) {
                long hi = Long.parseLong(chunk.substring(i, i + 8), 16);
                long lo = Long.parseLong(chunk.substring(i + 8, i + 16), 16);
                out[n++] = Double.longBitsToDouble(hi << 32 | lo);
            }
        }
        if (n != count) {
            throw new IllegalStateException("network weights: " + n + " of " + count);
        }
        return out;
    }
}
