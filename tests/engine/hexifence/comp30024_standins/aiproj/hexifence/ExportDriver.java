package aiproj.hexifence;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;

/** Runs an exported player on positions from stdin, one a line:
 * {@code N DEPTH ENDGAME_EMPTIES MOVE_MS COLOUR ROW|ROW|...} (COLOUR: 1 blue or 2 red to move;
 * the rows in the course's characters). Prints {@code ROW COL NODES NANOS} per line.
 * Usage: ExportDriver CLASS [warmup]: with "warmup" every position is searched twice and the
 * second search is timed (the JIT has compiled the search by then). */
public class ExportDriver {
    public static void main(String[] args) throws Exception {
        Class<?> type = Class.forName(args[0]);
        boolean warmup = args.length > 1 && args[1].equals("warmup");
        Object player = type.getDeclaredConstructor().newInstance();
        Method configure = type.getMethod("configure", int.class, int.class, long.class);
        Method load = type.getMethod("loadPosition", String[].class, int.class);
        Method nodes = type.getMethod("nodes");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        int size = 0;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.trim().isEmpty()) {
                continue;
            }
            String[] f = line.trim().split(" ", 6);
            int n = Integer.parseInt(f[0]), colour = Integer.parseInt(f[4]);
            if (n != size) {
                ((Player) player).init(n, colour);
                size = n;
            }
            configure.invoke(player, Integer.parseInt(f[1]), Integer.parseInt(f[2]),
                             Long.parseLong(f[3]));
            String[] rows = f[5].split("\\|");
            Move m = null;
            long t0 = 0;
            for (int round = warmup ? 0 : 1; round < 2; round++) {
                load.invoke(player, rows, colour);
                t0 = System.nanoTime();
                m = ((Player) player).makeMove();
            }
            long nanos = System.nanoTime() - t0;
            out.append(m.Row).append(' ').append(m.Col).append(' ')
               .append(nodes.invoke(player)).append(' ').append(nanos).append('\n');
        }
        System.out.print(out);
    }
}
