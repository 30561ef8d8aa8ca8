package pentago_twist;

import boardgame.Board;
import boardgame.BoardState;
import boardgame.Move;

import java.util.ArrayList;
import java.util.Random;

/**
 * Stand-in of the course's game state, from the rules (docs/pentago_twist.md): place a stone,
 * then rotate a quadrant clockwise (swap 0) or mirror its columns (swap 1); after the whole
 * move, five in a row for both colours is a draw, for one colour a win for that colour (even
 * when the mover's twist made the opponent's five); 36 stones without a five is a draw. White
 * (0) moves first.
 */
public class PentagoBoardState extends BoardState {
    public static final int BOARD_SIZE = 6;
    public static final int WHITE = 0;
    public static final int BLACK = 1;
    public static final int MAX_TURNS = 18;

    public enum Piece {
        BLACK, WHITE, EMPTY;

        public String toString() {
            return this == EMPTY ? " " : this == WHITE ? "w" : "b";
        }
    }

    private Piece[][] board = new Piece[BOARD_SIZE][BOARD_SIZE];
    private int turnPlayer = WHITE;
    private int turnNumber = 0;
    private int stones = 0;
    private int winner = Board.NOBODY;
    private final Random rand = new Random(2019);

    PentagoBoardState() {
        for (Piece[] row : board) {
            java.util.Arrays.fill(row, Piece.EMPTY);
        }
    }

    Piece[][] getBoard() {
        return board;
    }

    @Override
    public Object clone() {
        PentagoBoardState copy = new PentagoBoardState();
        for (int x = 0; x < BOARD_SIZE; x++) {
            copy.board[x] = board[x].clone();
        }
        copy.turnPlayer = turnPlayer;
        copy.turnNumber = turnNumber;
        copy.stones = stones;
        copy.winner = winner;
        return copy;
    }

    @Override
    public int getWinner() {
        return winner;
    }

    @Override
    public void setWinner(int winner) {
        this.winner = winner;
    }

    @Override
    public int getTurnPlayer() {
        return turnPlayer;
    }

    @Override
    public int getTurnNumber() {
        return turnNumber;
    }

    @Override
    public boolean isInitialized() {
        return board != null;
    }

    @Override
    public int firstPlayer() {
        return WHITE;
    }

    @Override
    public boolean gameOver() {
        return winner != Board.NOBODY;
    }

    @Override
    public Move getRandomMove() {
        ArrayList<PentagoMove> moves = getAllLegalMoves();
        return moves.get(rand.nextInt(moves.size()));
    }

    public Piece getPieceAt(int xPos, int yPos) {
        if (xPos < 0 || yPos < 0 || xPos >= BOARD_SIZE || yPos >= BOARD_SIZE) {
            throw new IllegalArgumentException("Out of range");
        }
        return board[xPos][yPos];
    }

    public Piece getPieceAt(PentagoCoord coord) {
        return getPieceAt(coord.getX(), coord.getY());
    }

    /** Every placement on an empty cell with each of the 8 twists (none once the game is over). */
    public ArrayList<PentagoMove> getAllLegalMoves() {
        ArrayList<PentagoMove> moves = new ArrayList<>();
        if (gameOver()) {
            return moves;
        }
        for (int x = 0; x < BOARD_SIZE; x++) {
            for (int y = 0; y < BOARD_SIZE; y++) {
                if (board[x][y] != Piece.EMPTY) {
                    continue;
                }
                for (int quadrant = 0; quadrant < 4; quadrant++) {
                    for (int swap = 0; swap < 2; swap++) {
                        moves.add(new PentagoMove(x, y, quadrant, swap, turnPlayer));
                    }
                }
            }
        }
        return moves;
    }

    public boolean isLegal(PentagoMove m) {
        if (gameOver() || m.getPlayerID() != turnPlayer) {
            return false;
        }
        if (m.getASwap() < 0 || m.getASwap() > 3 || m.getBSwap() < 0 || m.getBSwap() > 1) {
            return false;
        }
        PentagoCoord c = m.getMoveCoord();
        return board[c.getX()][c.getY()] == Piece.EMPTY;
    }

    public boolean isPlaceLegal(PentagoCoord c) {
        return board[c.getX()][c.getY()] == Piece.EMPTY;
    }

    public void processMove(PentagoMove m) throws IllegalArgumentException {
        if (!isLegal(m)) {
            throw new IllegalArgumentException("Invalid move. Move: " + m.toPrettyString());
        }
        PentagoCoord c = m.getMoveCoord();
        Piece mine = turnPlayer == WHITE ? Piece.WHITE : Piece.BLACK;
        board[c.getX()][c.getY()] = mine;
        stones++;
        twistQuadrant(m.getASwap(), m.getBSwap());
        boolean moverFive = hasFive(mine);
        boolean otherFive = hasFive(mine == Piece.WHITE ? Piece.BLACK : Piece.WHITE);
        if (moverFive && otherFive) {
            winner = Board.DRAW;
        } else if (moverFive) {
            winner = turnPlayer;
        } else if (otherFive) {
            winner = 1 - turnPlayer;
        } else if (stones == BOARD_SIZE * BOARD_SIZE) {
            winner = Board.DRAW;
        }
        if (turnPlayer == BLACK) {
            turnNumber++;
        }
        turnPlayer = 1 - turnPlayer;
    }

    /** Local cell (i, j) of the quadrant goes to (j, 2 - i) when rotated clockwise, to
     * (i, 2 - j) when flipped. */
    private void twistQuadrant(int quadrant, int swap) {
        int top = quadrant < 2 ? 0 : 3;
        int left = quadrant % 2 == 0 ? 0 : 3;
        Piece[][] before = new Piece[3][3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                before[i][j] = board[top + i][left + j];
            }
        }
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                int ti = swap == 0 ? j : i;
                int tj = swap == 0 ? 2 - i : 2 - j;
                board[top + ti][left + tj] = before[i][j];
            }
        }
    }

    private boolean hasFive(Piece colour) {
        int[][] directions = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
        for (int[] d : directions) {
            for (int x = 0; x < BOARD_SIZE; x++) {
                for (int y = 0; y < BOARD_SIZE; y++) {
                    int run = 0;
                    while (run < 5) {
                        int cx = x + run * d[0], cy = y + run * d[1];
                        if (cx < 0 || cy < 0 || cx >= BOARD_SIZE || cy >= BOARD_SIZE
                            || board[cx][cy] != colour) {
                            break;
                        }
                        run++;
                    }
                    if (run == 5) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    public void printBoard() {
        System.out.println(this);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (int x = 0; x < BOARD_SIZE; x++) {
            for (int y = 0; y < BOARD_SIZE; y++) {
                Piece p = board[x][y];
                out.append(p == Piece.EMPTY ? '.' : p == Piece.WHITE ? 'W' : 'B');
            }
            out.append('\n');
        }
        return out.toString();
    }
}
