package boardgame;

/** Stand-in of the framework's move base class. */
public abstract class Move implements Cloneable {
    public abstract String toPrettyString();

    public abstract String toTransportable();

    public abstract int getPlayerID();

    public abstract void setPlayerID(int playerId);

    public abstract void setFromBoard(boolean fromBoard);

    public int[] getReceivers() {
        return null;
    }

    public abstract boolean doLog();
}
