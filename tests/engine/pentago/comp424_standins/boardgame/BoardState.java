package boardgame;

/** Stand-in of the framework's game-state base class. */
public abstract class BoardState implements Cloneable {
    public abstract boolean isInitialized();

    public abstract int getTurnPlayer();

    public abstract int getTurnNumber();

    public abstract int getWinner();

    public abstract void setWinner(int winner);

    public abstract int firstPlayer();

    public abstract boolean gameOver();

    public abstract Move getRandomMove();
}
