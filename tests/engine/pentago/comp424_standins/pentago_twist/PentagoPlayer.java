package pentago_twist;

import boardgame.Board;
import boardgame.BoardState;
import boardgame.Move;
import boardgame.Player;

/** Stand-in of the course's abstract player. */
public abstract class PentagoPlayer extends Player {
    public PentagoPlayer(String name) {
        super(name);
    }

    public PentagoPlayer() {
        super("Player");
    }

    @Override
    public final Board createBoard() {
        return new PentagoBoard();
    }

    @Override
    public final Move chooseMove(BoardState boardState) {
        return chooseMove((PentagoBoardState) boardState);
    }

    public abstract Move chooseMove(PentagoBoardState boardState);
}
