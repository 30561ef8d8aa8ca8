package aiproj.hexifence;

/** Stand-in for the course's move: the mover's colour and the edge's point on the
 * (4N-1) x (4N-1) grid. */
public class Move {
    public int P;
    public int Row;
    public int Col;
}
