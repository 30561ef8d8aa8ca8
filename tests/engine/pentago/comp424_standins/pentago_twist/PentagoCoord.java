package pentago_twist;

/** Stand-in: a cell (x = row from the top, y = column from the left). */
public class PentagoCoord {
    private final int x;
    private final int y;

    public PentagoCoord(int x, int y) throws IllegalArgumentException {
        if (x < 0 || y < 0 || x >= PentagoBoardState.BOARD_SIZE || y >= PentagoBoardState.BOARD_SIZE) {
            throw new IllegalArgumentException("no such cell: (" + x + ", " + y + ")");
        }
        this.x = x;
        this.y = y;
    }

    public int getX() {
        return x;
    }

    public int getY() {
        return y;
    }
}
