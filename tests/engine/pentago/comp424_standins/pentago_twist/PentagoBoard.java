package pentago_twist;

import boardgame.Board;
import boardgame.BoardState;
import boardgame.Move;

/** Stand-in of the server's board: a PentagoBoardState behind the Board calls. */
public class PentagoBoard extends Board {
    private PentagoBoardState state;

    public PentagoBoard() {
        state = new PentagoBoardState();
    }

    @Override
    public int getWinner() {
        return state.getWinner();
    }

    @Override
    public void forceWinner(int winner) {
        state.setWinner(winner);
    }

    @Override
    public int getTurnPlayer() {
        return state.getTurnPlayer();
    }

    @Override
    public int getTurnNumber() {
        return state.getTurnNumber();
    }

    @Override
    public void move(Move move) throws IllegalArgumentException {
        state.processMove((PentagoMove) move);
    }

    @Override
    public BoardState getBoardState() {
        return state;
    }

    @Override
    public Object clone() {
        PentagoBoard copy = new PentagoBoard();
        copy.state = (PentagoBoardState) state.clone();
        return copy;
    }

    @Override
    public Move getRandomMove() {
        return state.getRandomMove();
    }
}
