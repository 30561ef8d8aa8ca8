package aiproj.hexifence;

/** The tests' own board, from the rules (docs/hexifence.md): the (4N-1) x (4N-1) grid, an edge
 * at (y, x) when |y - x| <= 2N-1 and not both odd, cell centres at odd (y, x). */
class TestBoard implements Piece {
    static final int[][] OFFSETS = {{-1, -1}, {-1, 0}, {0, -1}, {0, 1}, {1, 0}, {1, 1}};
    final int n, width;
    final int[] owner;  // per grid point: 0 free edge, a colour when drawn or captured, -1 none
    final int[] cells = new int[3];
    int free;

    TestBoard(int n) {
        this.n = n;
        width = 4 * n - 1;
        owner = new int[width * width];
        for (int y = 0; y < width; y++) {
            for (int x = 0; x < width; x++) {
                boolean edge = Math.abs(y - x) <= 2 * n - 1 && !(y % 2 == 1 && x % 2 == 1);
                owner[y * width + x] = edge ? 0 : -1;
                free += edge ? 1 : 0;
            }
        }
    }

    boolean isFree(Move m) {
        return m != null && m.Row >= 0 && m.Col >= 0 && m.Row < width && m.Col < width
                && owner[m.Row * width + m.Col] == 0 && !(m.Row % 2 == 1 && m.Col % 2 == 1);
    }

    /** Draws the edge for colour p; returns the cells it closed (each now p's). */
    int draw(int row, int col, int p) {
        owner[row * width + col] = p;
        free--;
        int k = 0;
        for (int[] o : OFFSETS) {  // the cell centres around an edge are at minus an offset
            int cy = row - o[0], cx = col - o[1];
            if (cy % 2 == 0 || cx % 2 == 0 || cy < 0 || cx < 0 || cy >= width || cx >= width
                    || Math.abs(cy - cx) > 2 * n - 2) {
                continue;
            }
            boolean closed = true;
            for (int[] q : OFFSETS) {
                closed &= owner[(cy + q[0]) * width + cx + q[1]] > 0;
            }
            if (closed) {
                owner[cy * width + cx] = p;
                cells[p]++;
                k++;
            }
        }
        return k;
    }

    int winner() {
        if (free > 0) {
            return EMPTY;
        }
        return cells[BLUE] > cells[RED] ? BLUE : cells[RED] > cells[BLUE] ? RED : DEAD;
    }
}
