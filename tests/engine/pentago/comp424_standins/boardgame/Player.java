package boardgame;

/** Stand-in of the framework's player base class. */
public abstract class Player {
    private String name;
    protected int player_id;

    public Player(String name) {
        setName(name);
    }

    public void movePlayed(BoardState boardState, Move move) {
    }

    public abstract Move chooseMove(BoardState boardState);

    public void gameOver(String message, BoardState boardState) {
    }

    public abstract Board createBoard();

    public void setColor(int colour) {
        player_id = colour;
    }

    public final void setName(String name) {
        this.name = name.isEmpty() ? "<none>" : name;
    }

    public final int getColor() {
        return player_id;
    }

    public final String getName() {
        return name;
    }
}
