package boardgame;

/** Stand-in of the framework's board base class: its result constants and the calls a
 * player's board needs (no server, logging or GUI). */
public abstract class Board implements Cloneable {
    public static final int DRAW = Integer.MAX_VALUE;
    public static final int NOBODY = Integer.MAX_VALUE - 1;
    public static final int CANCELLED0 = Integer.MAX_VALUE - 2;
    public static final int CANCELLED1 = Integer.MAX_VALUE - 3;
    public static final int BOARD = Integer.MAX_VALUE;

    public abstract int getWinner();

    public abstract void forceWinner(int winner);

    public abstract int getTurnPlayer();

    public abstract int getTurnNumber();

    public abstract void move(Move move) throws IllegalArgumentException;

    public abstract BoardState getBoardState();

    public abstract Object clone();

    public abstract Move getRandomMove();
}
