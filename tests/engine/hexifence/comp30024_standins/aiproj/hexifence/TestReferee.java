package aiproj.hexifence;

/** A referee for the tests, written from the rules: blue moves first, a move draws a free edge,
 * closing a cell captures it and gives the mover another move, the game ends when every edge is
 * drawn. It keeps its own board (TestBoard) and checks every answer of both players.
 *
 * Usage: TestReferee N BLUE_CLASS RED_CLASS [illegal]. Prints "RESULT winner blue red moves"
 * and exits 0, or prints "FAIL reason" and exits 1. With "illegal", after five moves it sends
 * the player to move an edge already drawn and checks it answers -1 and then INVALID. */
public class TestReferee implements Piece {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        boolean illegal = args.length > 3 && args[3].equals("illegal");
        Player[] players = {make(args[1]), make(args[2])};
        if (players[0].init(n, BLUE) != 0 || players[1].init(n, RED) != 0) {
            fail("init refused N=" + n);
        }
        TestBoard board = new TestBoard(n);
        int mover = BLUE, moves = 0;
        Move last = null;
        while (board.free > 0) {
            Player me = players[mover - 1], other = players[2 - mover];
            if (me.getWinner() != EMPTY || other.getWinner() != EMPTY) {
                fail("getWinner is not EMPTY with " + board.free + " edges left");
            }
            if (illegal && moves == 5) {
                Move again = new Move();
                again.P = 3 - mover;
                again.Row = last.Row;
                again.Col = last.Col;
                int answer = me.opponentMove(again);
                if (answer != -1 || me.getWinner() != INVALID) {
                    fail("a drawn edge was answered " + answer + ", getWinner " + me.getWinner());
                }
                System.out.println("RESULT illegal refused");
                return;
            }
            Move m = me.makeMove();
            if (m == null || m.P != mover || !board.isFree(m)) {
                fail("illegal move by " + mover + ": "
                     + (m == null ? "null" : m.P + " " + m.Row + " " + m.Col));
            }
            int captured = board.draw(m.Row, m.Col, mover);
            moves++;
            last = m;
            int answer = other.opponentMove(m);
            if (answer != (captured > 0 ? 1 : 0)) {
                fail("opponentMove answered " + answer + " for a move capturing " + captured);
            }
            if (captured == 0) {
                mover = 3 - mover;
            }
        }
        int winner = board.winner();
        for (Player p : players) {
            if (p.getWinner() != winner) {
                fail("getWinner " + p.getWinner() + ", the winner is " + winner);
            }
        }
        players[0].printBoard(System.out);
        System.out.println("RESULT " + winner + " " + board.cells[BLUE] + " " + board.cells[RED]
                           + " " + moves);
    }

    static Player make(String name) throws Exception {
        return (Player) Class.forName(name).getDeclaredConstructor().newInstance();
    }

    static void fail(String reason) {
        System.out.println("FAIL " + reason);
        System.exit(1);
    }
}
