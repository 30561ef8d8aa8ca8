package pentago_twist;

import boardgame.Move;

/** Stand-in: place on (x, y), then quadrant aSwap (0 top-left, 1 top-right, 2 bottom-left,
 * 3 bottom-right) is rotated clockwise (bSwap 0) or flipped (bSwap 1). */
public class PentagoMove extends Move {
    private int playerId;
    private final int x;
    private final int y;
    private final int aSwap;
    private final int bSwap;

    public PentagoMove(PentagoCoord coord, int aSwap, int bSwap, int playerId) {
        this(coord.getX(), coord.getY(), aSwap, bSwap, playerId);
    }

    public PentagoMove(int x, int y, int aSwap, int bSwap, int playerId) {
        this.x = x;
        this.y = y;
        this.aSwap = aSwap;
        this.bSwap = bSwap;
        this.playerId = playerId;
    }

    public PentagoMove(String text) {
        String[] parts = text.trim().split(" ");
        try {
            x = Integer.parseInt(parts[0]);
            y = Integer.parseInt(parts[1]);
            aSwap = Integer.parseInt(parts[2]);
            bSwap = Integer.parseInt(parts[3]);
            playerId = Integer.parseInt(parts[4]);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a move: " + text);
        }
    }

    public PentagoCoord getMoveCoord() {
        return new PentagoCoord(x, y);
    }

    public int getASwap() {
        return aSwap;
    }

    public int getBSwap() {
        return bSwap;
    }

    public String getPlayerName(int player) {
        if (player != PentagoBoardState.WHITE && player != PentagoBoardState.BLACK) {
            return "Illegal";
        }
        return player == PentagoBoardState.WHITE ? "White" : "Black";
    }

    public String getPlayerName() {
        return getPlayerName(playerId);
    }

    @Override
    public int getPlayerID() {
        return playerId;
    }

    @Override
    public void setPlayerID(int playerId) {
        this.playerId = playerId;
    }

    @Override
    public void setFromBoard(boolean fromBoard) {
    }

    @Override
    public boolean doLog() {
        return true;
    }

    @Override
    public String toPrettyString() {
        return "Player " + playerId + ", Move: (" + x + ", " + y + "), R/F: (" + aSwap + ", " + bSwap + ")";
    }

    @Override
    public String toTransportable() {
        return x + " " + y + " " + aSwap + " " + bSwap + " " + playerId;
    }
}
