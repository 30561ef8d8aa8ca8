package student_player;

import boardgame.Move;

import pentago_twist.PentagoBoardState;
import pentago_twist.PentagoMove;
import pentago_twist.PentagoPlayer;

/**
 * A board-evolve champion for COMP 424 Pentago Twist, written by
 * {{COMMAND}}
 * Champion: {{CHAMPION_COMMENT}}
 *
 * chooseMove runs the engine's alpha-beta (MyTools) on the champion's weights below: iterative
 * deepening within the time budget, or exactly the engine agent's fixed-depth move when
 * FIXED_DEPTH > 0. It never returns an illegal move: depth 1 always completes first, and any
 * failure falls back to the first legal move.
 */
public class StudentPlayer extends PentagoPlayer {
    static final String CHAMPION = "{{CHAMPION}}";
    static final int FIXED_DEPTH = {{FIXED_DEPTH}};        // 0: timed iterative deepening
    static final int ENDGAME_EMPTIES = {{ENDGAME_EMPTIES}};   // exact search from this many empty cells
    static final long MOVE_MS = {{MOVE_MS}};              // the course's limit per move
    static final long FIRST_MOVE_MS = {{FIRST_MOVE_MS}};  // ... and for the first move
    static final double SAFETY = 0.85;                  // share of a limit the search may use
    static final long MARGIN_MS = 60;                   // kept back for returning the move
    static final int MODE = {{MODE}};                       // 0 features, 1 network, 2 both
    static final int[] PHASE_OF_STONES = {{PHASE_OF_STONES}};
    static final double[][] FEATURE_WEIGHTS = {  // per phase: own then opp, {{FEATURE_NAMES}}
{{FEATURE_WEIGHTS}}
    };
    static final int NETWORK_ENTRIES = {{NETWORK_ENTRIES}};  // per phase
    static final int[] INSTANCE_OFFSET = {{INSTANCE_OFFSET}};
    static final int[][] INSTANCE_CELLS = {{INSTANCE_CELLS}};
    static final String[] NETWORK_HEX = {  // phase after phase, 16 hex digits per weight
{{NETWORK_HEX}}
    };

    MyTools.Searcher searcher;
    int lastDepth;  // of the last move's search
    private boolean moved;

    public StudentPlayer() {
        super("{{STUDENT_ID}}");
    }

    public Move chooseMove(PentagoBoardState boardState) {
        long start = System.nanoTime();
        long limit = moved ? MOVE_MS : FIRST_MOVE_MS;
        moved = true;
        long[] boards = MyTools.boards(boardState);
        int move = MyTools.NO_MOVE;
        try {
            if (searcher == null) {
                searcher = new MyTools.Searcher(evaluator(), ENDGAME_EMPTIES);
            }
            long usable = (long) (limit * SAFETY) - MARGIN_MS;
            long deadline = start + Math.max(1L, usable) * 1000000L;
            MyTools.Result result = FIXED_DEPTH > 0
                ? searcher.fixedDepth(boards[0], boards[1], FIXED_DEPTH)
                : searcher.timed(boards[0], boards[1], start, deadline);
            move = result.move;
            lastDepth = result.depth;
        } catch (Throwable failure) {  // out of memory, a bug: still play a legal move
            move = MyTools.NO_MOVE;
        }
        PentagoMove chosen = move == MyTools.NO_MOVE ? null : toMove(move, boardState);
        if (chosen == null || !boardState.isLegal(chosen)) {
            chosen = firstLegal(boardState);
        }
        return chosen;
    }

    /** The course's move for a move id (6x + y) * 8 + 2a + b. */
    static PentagoMove toMove(int move, PentagoBoardState state) {
        int cell = move >> 3, t = move & 7;
        return new PentagoMove(cell / 6, cell % 6, t >> 1, t & 1, state.getTurnPlayer());
    }

    static PentagoMove firstLegal(PentagoBoardState state) {
        for (int x = 0; x < 6; x++) {
            for (int y = 0; y < 6; y++) {
                if (state.getPieceAt(x, y) == PentagoBoardState.Piece.EMPTY) {
                    return new PentagoMove(x, y, 0, 0, state.getTurnPlayer());
                }
            }
        }
        return (PentagoMove) state.getRandomMove();
    }

    static MyTools.Evaluator evaluator() {
        double[][] network = null;
        if (MODE != MyTools.FEATURES_ONLY) {
            int phases = FEATURE_WEIGHTS.length;
            double[] flat = MyTools.decodeDoubles(NETWORK_HEX, phases * NETWORK_ENTRIES);
            network = new double[phases][NETWORK_ENTRIES];
            for (int p = 0; p < phases; p++) {
                System.arraycopy(flat, p * NETWORK_ENTRIES, network[p], 0, NETWORK_ENTRIES);
            }
        }
        return new MyTools.Evaluator(FEATURE_WEIGHTS, PHASE_OF_STONES, MODE, network,
            INSTANCE_OFFSET, INSTANCE_CELLS);
    }
}
