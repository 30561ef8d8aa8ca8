package aiproj.hexifence;

import java.io.PrintStream;
import java.util.Random;

/** A test opponent: a uniformly random free edge (seed: the system property "seed"). */
public class RandomPlayer implements Player, Piece {
    TestBoard board;
    int colour;
    boolean invalid;
    Random random;

    public int init(int n, int p) {
        board = new TestBoard(n);
        colour = p;
        random = new Random(Long.getLong("seed", 1L) * 2 + p);
        return 0;
    }

    public Move makeMove() {
        int pick = random.nextInt(board.free);
        Move m = new Move();
        m.P = colour;
        for (int i = 0; i < board.owner.length; i++) {
            m.Row = i / board.width;
            m.Col = i % board.width;
            if (board.isFree(m) && pick-- == 0) {
                break;
            }
        }
        board.draw(m.Row, m.Col, colour);
        return m;
    }

    public int opponentMove(Move m) {
        if (!board.isFree(m)) {
            invalid = true;
            return -1;
        }
        return board.draw(m.Row, m.Col, 3 - colour) > 0 ? 1 : 0;
    }

    public int getWinner() {
        return invalid ? INVALID : board.winner();
    }

    public void printBoard(PrintStream output) {
        output.println("(random player)");
    }
}
