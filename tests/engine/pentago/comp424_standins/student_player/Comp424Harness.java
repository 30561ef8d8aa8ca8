package student_player;

import boardgame.Board;
import boardgame.Move;
import pentago_twist.PentagoBoard;
import pentago_twist.PentagoBoardState;
import pentago_twist.PentagoMove;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.Random;

/**
 * Test driver of an exported student_player package (compiled next to it; not part of the
 * export). Positions are move sequences, one per line: moves "x y a b" joined by ",", an
 * empty line for the start.
 *
 *   games N SEED   N whole games against a random player, the export white in even games
 *   moves          per line: the export's move, the position's board and its winner
 *   nps DEPTH      per line: nodes and seconds of the fixed-depth search
 *   timed          per line: ms the export's chooseMove took, the depth it finished
 */
public final class Comp424Harness {
    public static void main(String[] args) throws Exception {
        if (args[0].equals("games")) {
            games(Integer.parseInt(args[1]), Long.parseLong(args[2]));
            return;
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StudentPlayer player = new StudentPlayer();
        String line;
        while ((line = in.readLine()) != null) {
            PentagoBoardState state = replay(line);
            if (args[0].equals("moves")) {
                Move m = player.chooseMove(state);
                String text = m.toTransportable();
                System.out.println(text.substring(0, text.lastIndexOf(' ')) + "\t"
                    + state.toString().replace("\n", "") + "\t" + state.getWinner());
            } else if (args[0].equals("nps")) {
                if (player.searcher == null) {
                    player.chooseMove(state);  // builds the searcher (and warms the JIT up)
                }
                MyTools.Searcher s = player.searcher;
                long[] b = MyTools.boards(state);
                s.nodes = 0;
                long t0 = System.nanoTime();
                MyTools.Result r = s.fixedDepth(b[0], b[1], Integer.parseInt(args[1]));
                double seconds = (System.nanoTime() - t0) / 1e9;
                System.out.println(s.nodes + "\t" + seconds + "\t" + r.move);
            } else {
                long t0 = System.nanoTime();
                player.chooseMove(state);
                double ms = (System.nanoTime() - t0) / 1e6;
                System.out.println(ms + "\t" + player.lastDepth);
            }
        }
    }

    static PentagoBoardState replay(String line) {
        PentagoBoard board = new PentagoBoard();
        for (String move : line.trim().isEmpty() ? new String[0] : line.trim().split(",")) {
            PentagoBoardState state = (PentagoBoardState) board.getBoardState();
            board.move(new PentagoMove(move.trim() + " " + state.getTurnPlayer()));
        }
        return (PentagoBoardState) ((PentagoBoard) board.clone()).getBoardState();
    }

    static void games(int n, long seed) {
        Random rng = new Random(seed);
        int wins = 0, draws = 0, losses = 0;
        double slowest = 0;
        for (int g = 0; g < n; g++) {
            int colour = g % 2;
            StudentPlayer student = new StudentPlayer();
            PentagoBoard board = new PentagoBoard();
            StringBuilder moves = new StringBuilder();
            while (board.getWinner() == Board.NOBODY) {
                PentagoBoardState state = (PentagoBoardState) board.getBoardState();
                PentagoBoardState copy = (PentagoBoardState) state.clone();
                Move m;
                if (state.getTurnPlayer() == colour) {
                    long t0 = System.nanoTime();
                    m = student.chooseMove(copy);
                    slowest = Math.max(slowest, (System.nanoTime() - t0) / 1e6);
                } else {
                    java.util.ArrayList<PentagoMove> legal = copy.getAllLegalMoves();
                    m = legal.get(rng.nextInt(legal.size()));
                }
                if (!(m instanceof PentagoMove) || !state.isLegal((PentagoMove) m)) {
                    System.out.println("ILLEGAL game " + g + " move " + (m == null ? "null"
                        : m.toTransportable()) + " after " + moves);
                    return;
                }
                board.move(m);
                moves.append(moves.length() > 0 ? "," : "").append(
                    m.toTransportable().substring(0, m.toTransportable().lastIndexOf(' ')));
            }
            int w = board.getWinner();
            if (w == colour) {
                wins++;
            } else if (w == Board.DRAW) {
                draws++;
            } else {
                losses++;
            }
            System.out.println("game " + g + " colour " + colour + " winner " + w + " moves " + moves);
        }
        System.out.println("summary wins " + wins + " draws " + draws + " losses " + losses
            + " slowest_ms " + slowest);
    }
}
