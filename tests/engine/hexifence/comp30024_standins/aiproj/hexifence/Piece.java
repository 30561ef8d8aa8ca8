package aiproj.hexifence;

/** Stand-in for the course's piece constants (same package and values). */
public interface Piece {
    int BLUE = 1, RED = 2, DEAD = 3, EMPTY = 0, INVALID = -1;
}
