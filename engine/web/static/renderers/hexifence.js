// Hexifence: view = {size: N, grid: 4N-1 strings: "+" free edge, "B"/"R" drawn edge, "-" no
// edge, "b"/"r" captured cell centre, " " free cell centre}; move id = row * (4N-1) + col.
// Cell (r, c) is centred at grid (2r+1, 2c+1); a grid point (y, x) sits where the fractional
// cell (r, c) = ((y-1)/2, (x-1)/2) would, so an edge is drawn at the midpoint of its two cells.
"use strict";

BoardRenderers.hexifence = {
  render(container, session, ctx) {
    const n = session.view.size, grid = session.view.grid, width = 4 * n - 1;
    const d = 60;  // distance between neighbouring cell centres, in SVG units
    const side = d / Math.sqrt(3);
    const place = (r, c) => [(c - r / 2) * d, r * d * Math.sqrt(3) / 2];
    const pointOf = (y, x) => place((y - 1) / 2, (x - 1) / 2);
    const legal = new Set(session.legal.map(m => m.id));
    const last = session.last_move ? session.last_move.id : null;
    const centres = [];
    for (let y = 1; y < width; y += 2) {
      for (let x = 1; x < width; x += 2) if (grid[y][x] !== "-") centres.push(pointOf(y, x));
    }
    const left = Math.min(...centres.map(p => p[0])) - d, right = Math.max(...centres.map(p => p[0])) + d;
    const top = Math.min(...centres.map(p => p[1])) - d, bottom = Math.max(...centres.map(p => p[1])) + d;
    const root = svg("svg", {viewBox: `${left} ${top} ${right - left} ${bottom - top}`,
                             class: "board hexifence"});
    for (let y = 1; y < width; y += 2) {
      for (let x = 1; x < width; x += 2) {
        const mark = grid[y][x];
        if (mark === "-") continue;
        const [cx, cy] = pointOf(y, x);
        const points = [0, 1, 2, 3, 4, 5].map(k => {
          const angle = Math.PI / 180 * (60 * k + 30);
          return `${cx + side * Math.cos(angle)},${cy + side * Math.sin(angle)}`;
        }).join(" ");
        const owner = mark === "b" ? " blue" : mark === "r" ? " red" : "";
        root.append(svg("polygon", {points, class: "hex" + owner}));
      }
    }
    const onBoard = new Set();
    for (let y = 0; y < width; y++) {
      for (let x = 0; x < width; x++) {
        const mark = grid[y][x];
        if (!"+BR".includes(mark) || (y % 2 === 1 && x % 2 === 1)) continue;
        const id = y * width + x;
        // direction from a cell to this edge's other cell: (dy, dx) in half cells
        const [dr, dc] = y % 2 === 0 && x % 2 === 0 ? [1, 1] : y % 2 === 0 ? [1, 0] : [0, 1];
        const [vx, vy] = place(dr, dc);
        const length = Math.hypot(vx, vy), ux = vx / length, uy = vy / length;
        const [mx, my] = pointOf(y, x);
        const half = side / 2, reach = d / 4;  // the click target reaches a quarter of the way
        const ends = {x1: mx + uy * half, y1: my - ux * half, x2: mx - uy * half, y2: my + ux * half};
        // toward the centres of the two cells the edge separates: a rhombus, easy to hit
        const target = [[ends.x1, ends.y1], [mx + ux * reach, my + uy * reach], [ends.x2, ends.y2],
                        [mx - ux * reach, my - uy * reach]].map(p => p.join(",")).join(" ");
        const kind = mark === "B" ? "blue" : mark === "R" ? "red" : "free";
        const g = svg("g", {class: `edge ${kind}` + (legal.has(id) ? " legal" : "") +
                                   (id === last ? " last-move" : ""),
                            "data-move": id, "data-name": `${y} ${x}`});
        if (id === last) g.append(svg("line", {...ends, class: "last-halo"}));
        g.append(svg("line", {...ends, class: "edge-line"}));
        g.append(svg("polygon", {points: target, class: "edge-hit"}));
        placeMove(root, g, id, ctx, legal, onBoard);
      }
    }
    const [blue, red] = session.view.scores;
    showScored(container, root, `blue ${blue} · red ${red}`);
    return onBoard;
  },
};
