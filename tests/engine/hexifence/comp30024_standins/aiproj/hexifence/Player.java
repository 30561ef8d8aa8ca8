package aiproj.hexifence;

import java.io.PrintStream;

/** Stand-in for the course's player interface (same package and signatures), written for the
 * tests from the course's published interface. */
public interface Player {
    /** n: board dimension (2 or 3); p: this player's colour (BLUE or RED). 0 ok, -1 failed. */
    int init(int n, int p);

    /** This player's next edge; the player records it on its own board. */
    Move makeMove();

    /** The opponent's edge: -1 illegal, 0 legal, 1 legal and it captured a cell. */
    int opponentMove(Move m);

    /** INVALID after an illegal opponent move, EMPTY while the game runs, else the winner's
     * colour (DEAD for a draw). */
    int getWinner();

    /** The board in the course's characters. */
    void printBoard(PrintStream output);
}
