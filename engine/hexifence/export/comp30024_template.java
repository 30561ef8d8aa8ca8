package aiproj.hexifence;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * An evolved Hexifence player for the COMP30024 (2016) referee, written by
 * {@code python -m evolve.export CHAMPION --format comp30024 --out DIR} from a board-evolve
 * champion. Standard library only, no file or network I/O.
 *
 * It is a port of the engine's alpha-beta ({@code engine/hexifence/search/negamax.py} on the kernel
 * {@code engine/kernels/search/alphabeta.py}): negamax over strings and coins where a capture keeps the
 * turn and costs no depth, Barker and Korf's capture filter, one boundary edge per cell, a
 * transposition table keyed by the smallest of the 12 hexagon symmetries' Zobrist hashes (the
 * engine's keys), the champion's evaluation summed in the engine's order, and MTD(f) exact play
 * once ENDGAME_EMPTIES or fewer edges are undrawn. At a fixed depth it plays the engine agent's
 * move; otherwise it deepens until MOVE_MS milliseconds per move are used, and always returns a
 * legal move.
 */
public class EvolvedPlayer implements Player, Piece {

    // --- BEGIN GENERATED ---
    static final String NAME = "reference";
    static final int FIXED_DEPTH = 0;
    static final int ENDGAME_EMPTIES = 12;
    static final long MOVE_MS = 1000;
    static final int NETWORK_SIZE = 0;
    static final int MODE = 0;
    static final double[][] WEIGHTS = {
        {1.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.5, 0.25},
    };
    static final String[] NETWORK = {};
    static final String[] KEYS_2 = {};
    static final String[] KEYS_3 = {};
    // --- END GENERATED ---

    static final int FEATURES_ONLY = 0, NETWORK_ONLY = 1, NETWORK_AND_FEATURES = 2;
    static final int[][] OFFSETS = {{-1, -1}, {-1, 0}, {0, -1}, {0, 1}, {1, 0}, {1, 1}};
    static final int NO_MOVE = -1;
    static final double INF = Double.POSITIVE_INFINITY;
    static final int SHALLOW_EXACT = 3;
    static final int EXACT_TAG = 10000;
    static final int BOUND_EXACT = 0, BOUND_LOWER = 1, BOUND_UPPER = 2;
    static final int PERMANENT_GEN = 1;
    static final int TT_BITS = 20;
    static final int CLOCK_EVERY = 255;  // nodes between two readings of the clock
    static final double STOP_AT = 0.85;  // share of the budget after which no search goes on
    static final double SOLVE_FOR = 0.6;  // share the exact endgame may take before deepening

    // the board: cells and edges in row-major order, as the engine numbers them
    int n, width, nCells, nEdges;
    int[] edgeRow, edgeCol, edgeOfPoint, cellOfPoint;
    int[][] cellEdges, edgeCells, sym, invSym, symCell;
    long[] zob1, zob2, zmar1, zmar2;
    long[][] zg1, zg2;

    // the game as the course sees it
    int colour, opponent, toMove;
    int[] edgeOwner, cellOwner;
    boolean invalid;

    // settings (the generated constants; a test or benchmark may change them)
    int depth = FIXED_DEPTH, endgameEmpties = ENDGAME_EMPTIES;
    long moveMs = MOVE_MS;

    // the search: one position changed in place, per-ply move lists, the table
    boolean[] undrawn;
    int[] deg;
    long[] hs1, hs2;
    int[][] mEdge, groundK;
    double[][] mKey;
    int[] featureCounts = new int[7];
    double[] buf = new double[11];
    int[] seenStack;
    boolean[] seen;
    long[] tk1, tk2;
    double[] tValue;
    short[] tMove, tDepth;
    byte[] tBound;
    int[] tGen;
    int gen = 2;
    long mask;
    long nodes, totalNodes, deadline;
    boolean timed, aborted;
    int rootBest, rootDone;
    double rootBestValue;

    // the n-tuple network (MODE != FEATURES_ONLY)
    int[] nodeOfEdge, nodeStates, instOffset, instLength;
    int[][] instCells, instPowers;
    double[][] net;

    public int init(int n, int p) {
        if ((n != 2 && n != 3) || (NETWORK_SIZE != 0 && n != NETWORK_SIZE)
                || (p != BLUE && p != RED)) {
            return -1;
        }
        this.n = n;
        colour = p;
        opponent = p == BLUE ? RED : BLUE;
        toMove = BLUE;
        invalid = false;
        buildBoard();
        edgeOwner = new int[nEdges];
        cellOwner = new int[nCells];
        undrawn = new boolean[nEdges];
        deg = new int[nCells];
        hs1 = new long[12];
        hs2 = new long[12];
        mEdge = new int[nEdges + 2][nEdges];
        mKey = new double[nEdges + 2][nEdges];
        groundK = new int[nEdges + 2][1];
        seen = new boolean[nCells];
        seenStack = new int[nCells];
        if (tk1 == null) {
            int size = 1 << TT_BITS;
            tk1 = new long[size];
            tk2 = new long[size];
            tValue = new double[size];
            tMove = new short[size];
            tDepth = new short[size];
            tBound = new byte[size];
            tGen = new int[size];
            mask = size - 1;
        }
        gen++;
        if (MODE != FEATURES_ONLY) {
            loadNetwork();
        }
        return 0;
    }

    // ------------------------------------------------------------------ the course interface

    public Move makeMove() {
        Move m = new Move();
        m.P = colour;
        int e = chooseEdge();
        if (e == NO_MOVE) {
            m.Row = -1;
            m.Col = -1;
            return m;
        }
        m.Row = edgeRow[e];
        m.Col = edgeCol[e];
        play(e, colour);
        return m;
    }

    public int opponentMove(Move m) {
        int e = m == null ? -1 : edgeAt(m.Row, m.Col);
        if (invalid || e < 0 || edgeOwner[e] != 0 || toMove != opponent) {
            invalid = true;
            return -1;
        }
        return play(e, opponent) > 0 ? 1 : 0;
    }

    public int getWinner() {
        if (invalid) {
            return INVALID;
        }
        int blue = 0, red = 0;
        for (int c = 0; c < nCells; c++) {
            if (cellOwner[c] == BLUE) {
                blue++;
            } else if (cellOwner[c] == RED) {
                red++;
            } else {
                return EMPTY;
            }
        }
        return blue > red ? BLUE : red > blue ? RED : DEAD;
    }

    public void printBoard(PrintStream output) {
        StringBuilder sb = new StringBuilder();
        for (int row = 0; row < width; row++) {
            for (int col = 0; col < width; col++) {
                int e = edgeOfPoint[row * width + col];
                int c = cellOfPoint[row * width + col];
                char ch = '-';
                if (e >= 0) {
                    ch = "+BR".charAt(edgeOwner[e]);
                } else if (c >= 0) {
                    ch = "-br".charAt(cellOwner[c]);
                }
                sb.append(ch);
                sb.append(col + 1 < width ? ' ' : '\n');
            }
        }
        output.print(sb);
    }

    /** Sets the search: a fixed depth in turns (0: deepen to the clock), the exact endgame's
     * undrawn edges, the milliseconds per move (0: no clock). For tests and benchmarks. */
    public void configure(int depth, int endgameEmpties, long moveMs) {
        this.depth = depth;
        this.endgameEmpties = endgameEmpties;
        this.moveMs = moveMs;
    }

    /** Loads a position in the course's board text (rows of {@code + B R - b r}) with
     * {@code toMove} (BLUE or RED) to move, and forgets the table's heuristic entries. */
    public void loadPosition(String[] rows, int toMove) {
        for (int row = 0; row < width; row++) {
            String[] symbols = rows[row].trim().split("\\s+");
            for (int col = 0; col < width; col++) {
                char ch = symbols[col].charAt(0);
                int e = edgeOfPoint[row * width + col];
                int c = cellOfPoint[row * width + col];
                if (e >= 0) {
                    edgeOwner[e] = ch == 'B' ? BLUE : ch == 'R' ? RED : 0;
                } else if (c >= 0) {
                    cellOwner[c] = ch == 'b' ? BLUE : ch == 'r' ? RED : 0;
                }
            }
        }
        this.toMove = toMove;
        colour = toMove;
        opponent = toMove == BLUE ? RED : BLUE;
        invalid = false;
        gen++;
    }

    /** Nodes searched by the last move. */
    public long nodes() {
        return totalNodes;
    }

    // ------------------------------------------------------------------ the game

    int edgeAt(int row, int col) {
        if (row < 0 || col < 0 || row >= width || col >= width) {
            return -1;
        }
        return edgeOfPoint[row * width + col];
    }

    /** Draws edge e for player p; returns the cells captured (the mover then moves again). */
    int play(int e, int p) {
        edgeOwner[e] = p;
        int captured = 0;
        for (int j = 0; j < 2; j++) {
            int c = edgeCells[e][j];
            if (c < 0) {
                continue;
            }
            boolean closed = true;
            for (int k = 0; k < 6; k++) {
                if (edgeOwner[cellEdges[c][k]] == 0) {
                    closed = false;
                }
            }
            if (closed) {
                cellOwner[c] = p;
                captured++;
            }
        }
        if (captured == 0) {
            toMove = p == BLUE ? RED : BLUE;
        }
        return captured;
    }

    void buildBoard() {
        width = 4 * n - 1;
        int span = 2 * n - 1;
        int[][] cellAt = new int[span][span];
        nCells = 0;
        for (int r = 0; r < span; r++) {
            for (int c = 0; c < span; c++) {
                cellAt[r][c] = Math.abs(r - c) <= n - 1 ? nCells++ : -1;
            }
        }
        edgeOfPoint = new int[width * width];
        cellOfPoint = new int[width * width];
        java.util.Arrays.fill(cellOfPoint, -1);
        nEdges = 0;
        for (int y = 0; y < width; y++) {
            for (int x = 0; x < width; x++) {
                boolean edge = Math.abs(y - x) <= 2 * n - 1 && !(y % 2 == 1 && x % 2 == 1);
                edgeOfPoint[y * width + x] = edge ? nEdges++ : -1;
            }
        }
        edgeRow = new int[nEdges];
        edgeCol = new int[nEdges];
        for (int y = 0; y < width; y++) {
            for (int x = 0; x < width; x++) {
                int e = edgeOfPoint[y * width + x];
                if (e >= 0) {
                    edgeRow[e] = y;
                    edgeCol[e] = x;
                }
            }
        }
        cellEdges = new int[nCells][6];
        edgeCells = new int[nEdges][2];
        for (int[] row : edgeCells) {
            row[0] = -1;
            row[1] = -1;
        }
        for (int r = 0; r < span; r++) {
            for (int c = 0; c < span; c++) {
                int ci = cellAt[r][c];
                if (ci < 0) {
                    continue;
                }
                cellOfPoint[(2 * r + 1) * width + 2 * c + 1] = ci;
                for (int j = 0; j < 6; j++) {
                    int e = edgeOfPoint[(2 * r + 1 + OFFSETS[j][0]) * width + 2 * c + 1
                            + OFFSETS[j][1]];
                    cellEdges[ci][j] = e;
                    edgeCells[e][edgeCells[e][0] < 0 ? 0 : 1] = ci;
                }
            }
        }
        buildSymmetries();
        String[] keys = n == 2 ? KEYS_2 : KEYS_3;
        zob1 = longs(keys[0]);
        zob2 = longs(keys[1]);
        zmar1 = longs(keys[2]);
        zmar2 = longs(keys[3]);
        long[] g1 = longs(keys[4]), g2 = longs(keys[5]);
        zg1 = new long[nCells][7];
        zg2 = new long[nCells][7];
        for (int c = 0; c < nCells; c++) {
            for (int k = 0; k < 7; k++) {
                zg1[c][k] = g1[7 * c + k];
                zg2[c][k] = g2[7 * c + k];
            }
        }
    }

    /** The 12 hexagon symmetries as edge and cell permutations: rotation (a, b) -> (a - b, a)
     * and the swap (a, b) -> (b, a) around the centre point, in the engine's order. */
    void buildSymmetries() {
        int centre = 2 * n - 1;
        sym = new int[12][nEdges];
        invSym = new int[12][nEdges];
        symCell = new int[12][nCells];
        for (int s = 0; s < 12; s++) {
            boolean mirror = s >= 6;
            int turns = s % 6;
            for (int e = 0; e < nEdges; e++) {
                int a = edgeRow[e] - centre, b = edgeCol[e] - centre;
                if (mirror) {
                    int t = a;
                    a = b;
                    b = t;
                }
                for (int k = 0; k < turns; k++) {
                    int t = a - b;
                    b = a;
                    a = t;
                }
                sym[s][e] = edgeOfPoint[(a + centre) * width + b + centre];
                invSym[s][sym[s][e]] = e;
            }
            for (int c = 0; c < nCells; c++) {
                for (int d = 0; d < nCells; d++) {
                    int hits = 0;
                    for (int j = 0; j < 6; j++) {
                        int x = cellEdges[d][j];
                        for (int i = 0; i < 6; i++) {
                            if (sym[s][cellEdges[c][i]] == x) {
                                hits++;
                            }
                        }
                    }
                    if (hits == 6) {
                        symCell[s][c] = d;
                    }
                }
            }
        }
    }

    /** The comma-separated items of a generated table ("": none). */
    static Stream<String> items(String text) {
        return text.isEmpty() ? Stream.empty() : Arrays.stream(text.split(","));
    }

    static long[] longs(String text) {
        return items(text).mapToLong(x -> Long.parseUnsignedLong(x, 16)).toArray();
    }

    static int[] ints(String text) {
        return items(text).mapToInt(Integer::parseInt).toArray();
    }

    // ------------------------------------------------------------------ choosing a move

    /** The move to play now (NO_MOVE when the game is over). */
    int chooseEdge() {
        totalNodes = 0;
        int left = 0;
        for (int e = 0; e < nEdges; e++) {
            if (edgeOwner[e] == 0) {
                left++;
            }
        }
        if (left == 0) {
            return NO_MOVE;
        }
        long start = System.nanoTime();
        timed = moveMs > 0;
        deadline = start + (long) (moveMs * 1e6 * STOP_AT);
        int move = NO_MOVE;
        if (left <= endgameEmpties) {
            long solveBy = depth > 0 ? deadline : start + (long) (moveMs * 1e6 * SOLVE_FOR);
            move = solve(left, solveBy);
            if (move != NO_MOVE) {
                return move;
            }
            timed = true;
        }
        if (depth > 0 && moveMs <= 0) {
            return run(depth, false, -INF, INF, NO_MOVE, left);
        }
        return deepen(depth > 0 ? Math.min(depth, left) : left, left, depth > 0);
    }

    /** Iterative deepening from depth 1 until the clock or maxDepth; each depth searches the
     * previous depth's move first, and a depth stopped by the clock plays its best root move
     * searched to the end (at least as good as that move). With fixedLast the last depth is
     * searched without that hint: when it finishes, its move is the fixed-depth search's. */
    int deepen(int maxDepth, int left, boolean fixedLast) {
        boolean wasTimed = timed;
        timed = false;
        int best = run(1, false, -INF, INF, NO_MOVE, left);  // depth 1 always finishes
        timed = wasTimed;
        for (int d = 2; d <= maxDepth; d++) {
            if (System.nanoTime() >= deadline) {
                break;
            }
            boolean hinted = !(fixedLast && d == maxDepth);
            int move = run(d, false, -INF, INF, hinted ? best : NO_MOVE, left);
            if (!aborted) {
                best = move;
                continue;
            }
            if (rootDone > 0 && hinted) {
                best = rootBest;
            }
            break;
        }
        return best;
    }

    /** Perfect play: MTD(f) null-window searches closing in on the exact final margin; the
     * move is the first optimal one in the root's order. NO_MOVE if the clock stopped it. */
    int solve(int left, long by) {
        long saved = deadline;
        boolean wasTimed = timed;
        deadline = by;
        double lower = -INF, upper = INF, guess = 0.0;
        int edge = NO_MOVE;
        try {
            while (lower < upper) {
                double beta = Math.max(guess, lower + 1);
                int e = run(0, true, beta - 1, beta, NO_MOVE, left);
                if (aborted) {
                    return NO_MOVE;
                }
                guess = rootBestValue;
                if (guess < beta) {
                    upper = guess;
                } else {
                    lower = guess;
                    edge = e;
                }
            }
            if (edge == NO_MOVE) {
                edge = run(0, true, lower - 1, lower + 1, NO_MOVE, left);
                if (aborted) {
                    return NO_MOVE;
                }
            }
            return edge;
        } finally {
            deadline = saved;
            timed = wasTimed;
        }
    }

    /** One search of the current position (side to move: toMove); returns the best edge and
     * leaves its value in rootBestValue. aborted: the clock stopped it (rootBest, rootDone
     * then say what the root finished). */
    int run(int d, boolean exact, double alpha, double beta, int rootHint, int left) {
        int margin = 0;
        for (int c = 0; c < nCells; c++) {
            if (cellOwner[c] != 0) {
                margin += cellOwner[c] == toMove ? 1 : -1;
            }
        }
        for (int e = 0; e < nEdges; e++) {
            undrawn[e] = edgeOwner[e] == 0;
        }
        for (int c = 0; c < nCells; c++) {
            int k = 0;
            for (int j = 0; j < 6; j++) {
                if (undrawn[cellEdges[c][j]]) {
                    k++;
                }
            }
            deg[c] = k;
        }
        rootHashes();
        nodes = 0;
        aborted = false;
        rootBest = NO_MOVE;
        rootDone = 0;
        rootBestValue = 0.0;
        int myGen = exact ? PERMANENT_GEN : gen;
        try {
            rootBestValue = negamax(0, d, exact, alpha, beta, margin, left, myGen, rootHint);
        } catch (OutOfTime t) {
            aborted = true;
            rootBestValue = rootDone > 0 ? rootBestValue : 0.0;
        }
        totalNodes += nodes;
        return rootBest;
    }

    static final class OutOfTime extends RuntimeException {
        OutOfTime() {
            super(null, null, false, false);
        }
    }

    // ------------------------------------------------------------------ the search

    int groundLeft(int c) {
        int k = 0;
        for (int j = 0; j < 6; j++) {
            int x = cellEdges[c][j];
            if (edgeCells[x][1] < 0 && undrawn[x]) {
                k++;
            }
        }
        return k;
    }

    void rootHashes() {
        for (int s = 0; s < 12; s++) {
            long h1 = 0, h2 = 0;
            for (int e = 0; e < nEdges; e++) {
                if (edgeCells[e][1] >= 0 && !undrawn[e]) {
                    h1 ^= zob1[sym[s][e]];
                    h2 ^= zob2[sym[s][e]];
                }
            }
            for (int c = 0; c < nCells; c++) {
                int k = groundLeft(c);
                h1 ^= zg1[symCell[s][c]][k];
                h2 ^= zg2[symCell[s][c]][k];
            }
            hs1[s] = h1;
            hs2[s] = h2;
        }
    }

    /** Draws e (undone by the same call with undo): the hashes, degrees and undrawn set;
     * returns the cells captured. */
    int drawEdge(int e, boolean undo) {
        int c0 = edgeCells[e][0];
        if (edgeCells[e][1] < 0) {
            int k = undo ? groundLeft(c0) + 1 : groundLeft(c0);
            for (int s = 0; s < 12; s++) {
                int t = symCell[s][c0];
                hs1[s] ^= zg1[t][k] ^ zg1[t][k - 1];
                hs2[s] ^= zg2[t][k] ^ zg2[t][k - 1];
            }
        } else {
            for (int s = 0; s < 12; s++) {
                hs1[s] ^= zob1[sym[s][e]];
                hs2[s] ^= zob2[sym[s][e]];
            }
        }
        undrawn[e] = undo;
        int captured = 0;
        for (int j = 0; j < 2; j++) {
            int c = edgeCells[e][j];
            if (c >= 0) {
                deg[c] += undo ? 1 : -1;
                if (deg[c] == 0) {
                    captured++;
                }
            }
        }
        return captured;
    }

    int lastEdge(int c) {
        for (int j = 0; j < 6; j++) {
            if (undrawn[cellEdges[c][j]]) {
                return cellEdges[c][j];
            }
        }
        return -1;
    }

    int otherEdge(int c, int e) {
        for (int j = 0; j < 6; j++) {
            int x = cellEdges[c][j];
            if (x != e && undrawn[x]) {
                return x;
            }
        }
        return -1;
    }

    /** Barker and Korf's filter: while a cell is capturable, the moves worth searching. */
    int captureCandidates(int[] out) {
        int first = -1;
        for (int c = 0; c < nCells; c++) {
            if (deg[c] == 1) {
                int e = lastEdge(c);
                int d = edgeCells[e][0] != c ? edgeCells[e][0] : edgeCells[e][1];
                if (d < 0 || deg[d] != 2) {
                    out[0] = e;
                    return 1;
                }
                if (first < 0) {
                    first = c;
                }
            }
        }
        if (first < 0) {
            return 0;
        }
        int e = lastEdge(first);
        int d = edgeCells[e][0] != first ? edgeCells[e][0] : edgeCells[e][1];
        out[0] = e;
        out[1] = otherEdge(d, e);
        return 2;
    }

    boolean isSafe(int e) {
        for (int j = 0; j < 2; j++) {
            int c = edgeCells[e][j];
            if (c >= 0 && deg[c] <= 2) {
                return false;
            }
        }
        return true;
    }

    boolean sameMove(int e, int hint) {
        if (e == hint) {
            return true;
        }
        return hint >= 0 && edgeCells[e][1] < 0 && edgeCells[hint][1] < 0
                && edgeCells[e][0] == edgeCells[hint][0];
    }

    boolean firstGround(int e) {
        int c = edgeCells[e][0];
        for (int j = 0; j < 6; j++) {
            int x = cellEdges[c][j];
            if (x < e && edgeCells[x][1] < 0 && undrawn[x]) {
                return false;
            }
        }
        return true;
    }

    /** Undrawn edges (one per cell's boundary), best first: the hint, safe edges, then the
     * smaller offers; ties in edge order. */
    int order(int ply, int hint) {
        int[] moves = mEdge[ply];
        double[] keys = mKey[ply];
        int count = 0;
        for (int e = 0; e < nEdges; e++) {
            if (!undrawn[e] || (edgeCells[e][1] < 0 && !firstGround(e))) {
                continue;
            }
            double key;
            if (sameMove(e, hint)) {
                key = 100.0;
            } else if (isSafe(e)) {
                key = 10.0;
            } else {
                key = 0.0;
                for (int j = 0; j < 2; j++) {
                    int c = edgeCells[e][j];
                    if (c >= 0 && deg[c] == 2) {
                        key -= 1.0;
                    }
                }
            }
            int i = count;
            while (i > 0 && keys[i - 1] < key) {
                keys[i] = keys[i - 1];
                moves[i] = moves[i - 1];
                i--;
            }
            keys[i] = key;
            moves[i] = e;
            count++;
        }
        return count;
    }

    double negamax(int ply, int d, boolean exact, double alpha, double beta, int margin,
                   int left, int myGen, int rootHint) {
        nodes++;
        if (timed && (nodes & CLOCK_EVERY) == 0 && System.nanoTime() >= deadline) {
            throw new OutOfTime();
        }
        int n = captureCandidates(mEdge[ply]);
        if (left == 0) {
            return margin;
        }
        if (!exact && d <= 0 && n == 0) {
            return heuristic(margin, left);
        }
        int tag = exact ? EXACT_TAG : d;
        int hint = NO_MOVE, slot = -1, s = 0;
        long k1 = 0, k2 = 0;
        double offset = 0.0;
        if (exact ? left > SHALLOW_EXACT : d >= 1) {
            for (int t = 1; t < 12; t++) {
                if (Long.compareUnsigned(hs1[t], hs1[s]) < 0) {
                    s = t;
                }
            }
            k1 = hs1[s];
            k2 = hs2[s];
            if (!exact) {
                k1 ^= zmar1[margin + nCells];
                k2 ^= zmar2[margin + nCells];
            } else {
                offset = margin;
            }
            slot = (int) (k1 & mask);
            if (tGen[slot] == myGen && tk1[slot] == k1 && tk2[slot] == k2) {
                hint = tMove[slot] >= 0 ? invSym[s][tMove[slot]] : NO_MOVE;
                if (ply > 0 && tDepth[slot] == tag) {
                    double v = tValue[slot] + offset;
                    int b = tBound[slot];
                    if (b == BOUND_EXACT || (b == BOUND_LOWER && v >= beta)
                            || (b == BOUND_UPPER && v <= alpha)) {
                        return v;
                    }
                }
            }
        }
        double alpha0 = alpha;
        if (n == 0) {
            n = order(ply, ply > 0 ? hint : rootHint);
        }
        int[] moves = mEdge[ply];
        double best = -INF;
        int bestMove = moves[0];
        for (int i = 0; i < n; i++) {
            int e = moves[i];
            int caps = drawEdge(e, false);
            double v;
            try {
                if (caps > 0) {  // a capture keeps the turn and costs no depth
                    v = negamax(ply + 1, d, exact, alpha, beta, margin + caps, left - 1, myGen,
                                NO_MOVE);
                } else {
                    v = -negamax(ply + 1, d - 1, exact, -beta, -alpha, -margin, left - 1,
                                 myGen, NO_MOVE);
                }
            } finally {
                drawEdge(e, true);
            }
            if (v > best) {
                best = v;
                bestMove = e;
                if (v > alpha) {
                    alpha = v;
                }
            }
            if (ply == 0) {
                rootDone++;
                rootBest = bestMove;
                rootBestValue = best;
            }
            if (alpha >= beta) {
                break;
            }
        }
        if (slot >= 0) {
            int bound = best <= alpha0 ? BOUND_UPPER : best >= beta ? BOUND_LOWER : BOUND_EXACT;
            tk1[slot] = k1;
            tk2[slot] = k2;
            tGen[slot] = myGen;
            tValue[slot] = best - offset;
            tBound[slot] = (byte) bound;
            tDepth[slot] = (short) tag;
            tMove[slot] = (short) sym[s][bestMove];
        }
        return best;
    }

    // ------------------------------------------------------------------ the evaluation

    /** A leaf with nothing to capture, for the side to move (the engine's arithmetic). */
    double heuristic(int margin, int left) {
        int drawn = nEdges - left;
        if (MODE == FEATURES_ONLY) {
            return evaluate(margin, drawn);
        }
        double value = networkValue(net[drawn * net.length / (nEdges + 1)]);
        if (MODE == NETWORK_AND_FEATURES) {
            return value + evaluate(margin, drawn);
        }
        return value + margin;
    }

    double evaluate(int margin, int drawn) {
        int phase = drawn * WEIGHTS.length / (nEdges + 1);
        features(margin);
        double v = 0.0;
        double[] w = WEIGHTS[phase];
        for (int i = 0; i < buf.length; i++) {
            v += w[i] * buf[i];
        }
        return v;
    }

    /** Short chains, long chains, loops, cells in long chains, in loops, in short chains,
     * 3-cell loops: the components of cells with one or two undrawn edges. */
    void analyse(int[] out) {
        java.util.Arrays.fill(out, 0);
        java.util.Arrays.fill(seen, false);
        for (int start = 0; start < nCells; start++) {
            if (seen[start] || deg[start] == 0 || deg[start] > 2) {
                continue;
            }
            seen[start] = true;
            seenStack[0] = start;
            int top = 1, size = 0, links = 0;
            while (top > 0) {
                int c = seenStack[--top];
                size++;
                for (int j = 0; j < 6; j++) {
                    int e = cellEdges[c][j];
                    if (!undrawn[e]) {
                        continue;
                    }
                    int o = edgeCells[e][0] != c ? edgeCells[e][0] : edgeCells[e][1];
                    if (o >= 0 && deg[o] >= 1 && deg[o] <= 2) {
                        links++;
                        if (!seen[o]) {
                            seen[o] = true;
                            seenStack[top++] = o;
                        }
                    }
                }
            }
            links /= 2;
            if (links == size && size >= 4) {
                out[2]++;
                out[4] += size;
            } else if (links < size && size >= 3) {
                out[1]++;
                out[3] += size;
            } else {
                out[0]++;
                out[5] += size;
                if (links == size) {
                    out[6]++;
                }
            }
        }
    }

    void features(int margin) {
        int[] counts = featureCounts;
        analyse(counts);
        int two = 0, three = 0, free = 0, undrawnCount = 0, safe = 0;
        for (int c = 0; c < nCells; c++) {
            if (deg[c] == 2) {
                two++;
            } else if (deg[c] == 3) {
                three++;
            }
            if (deg[c] > 0) {
                free++;
            }
        }
        for (int e = 0; e < nEdges; e++) {
            if (undrawn[e]) {
                undrawnCount++;
                if (isSafe(e)) {
                    safe++;
                }
            }
        }
        double parity = Math.floorMod(undrawnCount - free + counts[1], 2) == 1 ? 1.0 : -1.0;
        int controlled = counts[3] + counts[4] - 4 * counts[1] - 8 * counts[2];
        if (counts[1] > 0) {
            controlled += 4;
        } else if (counts[2] > 0) {
            controlled += 8;
        }
        buf[0] = margin;
        buf[1] = counts[6];
        buf[2] = two;
        buf[3] = three;
        buf[4] = safe;
        buf[5] = safe % 2 == 1 ? 1.0 : -1.0;
        buf[6] = counts[0];
        buf[7] = counts[1];
        buf[8] = counts[2];
        buf[9] = parity;
        buf[10] = parity * controlled;
    }

    void loadNetwork() {
        nodeOfEdge = ints(NETWORK[0]);
        instOffset = ints(NETWORK[1]);
        instLength = ints(NETWORK[2]);
        int[] cells = ints(NETWORK[3]), powers = ints(NETWORK[4]);
        int count = instOffset.length, width = cells.length / Math.max(1, count);
        instCells = new int[count][width];
        instPowers = new int[count][width];
        int nodes = 0;
        for (int i = 0; i < count; i++) {
            for (int j = 0; j < width; j++) {
                instCells[i][j] = cells[i * width + j];
                instPowers[i][j] = powers[i * width + j];
            }
        }
        for (int x : nodeOfEdge) {
            nodes = Math.max(nodes, x + 1);
        }
        nodeStates = new int[nodes];
        int phases = Integer.parseInt(NETWORK[5]);
        int perPhase = Integer.parseInt(NETWORK[6]);
        StringBuilder all = new StringBuilder();
        for (int i = 7; i < NETWORK.length; i++) {
            all.append(NETWORK[i]);
        }
        net = new double[phases][perPhase];
        for (int p = 0; p < phases; p++) {
            for (int k = 0; k < perPhase; k++) {
                int at = 16 * (p * perPhase + k);
                net[p][k] = Double.longBitsToDouble(
                        Long.parseUnsignedLong(all.substring(at, at + 16), 16));
            }
        }
    }

    /** The network's sum: node states (an inner edge drawn or not, a rim cell's drawn boundary
     * edges), then every instance's entry, in the engine's order. */
    double networkValue(double[] weights) {
        java.util.Arrays.fill(nodeStates, 0);
        for (int e = 0; e < nEdges; e++) {
            if (!undrawn[e]) {
                nodeStates[nodeOfEdge[e]]++;
            }
        }
        double total = 0.0;
        for (int i = 0; i < instOffset.length; i++) {
            int index = 0;
            for (int j = 0; j < instLength[i]; j++) {
                index += nodeStates[instCells[i][j]] * instPowers[i][j];
            }
            total += weights[instOffset[i] + index];
        }
        return total;
    }
}
