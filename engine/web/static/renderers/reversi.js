// Reversi (othello, reversed_reversi): view = {board: 8 strings, "X" black / "O" white / "-",
// first string = rank 1}, move id = 8 * row + col, pass = 64 (a button, not a square).
"use strict";

BoardRenderers.reversi = {
  render(container, session, ctx) {
    const cell = 50, margin = 24, size = 8 * cell + 2 * margin;
    const board = session.view.board;
    const legal = new Set(session.legal.map(m => m.id));
    const last = session.last_move ? session.last_move.id : null;
    const root = svg("svg", {viewBox: `0 0 ${size} ${size}`, class: "board reversi",
                             role: "grid", "aria-label": "Reversi board"});
    for (let i = 0; i < 8; i++) {
      const at = margin + i * cell + cell / 2;
      root.append(svg("text", {x: at, y: margin - 7, class: "coord"}, "abcdefgh"[i]));
      root.append(svg("text", {x: margin - 13, y: at + 5, class: "coord"}, String(i + 1)));
    }
    const onBoard = new Set();
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const id = 8 * row + col, x = margin + col * cell, y = margin + row * cell;
        const square = svg("g", {class: "square" + (legal.has(id) ? " legal" : ""),
                                 "data-move": id, "data-name": "abcdefgh"[col] + (row + 1)});
        square.append(svg("rect", {x, y, width: cell, height: cell, class: "felt"}));
        const disc = board[row][col];
        if (disc !== "-") {
          square.append(svg("circle", {cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.4,
                                       class: disc === "X" ? "disc black" : "disc white"}));
        } else if (legal.has(id) && ctx.interactive) {
          square.append(svg("circle", {cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.1,
                                       class: "hint-dot"}));
        }
        if (id === last) {
          square.append(svg("rect", {x: x + 3, y: y + 3, width: cell - 6, height: cell - 6,
                                     class: "last-move"}));
        }
        placeMove(root, square, id, ctx, legal, onBoard);
      }
    }
    const [black, white] = session.view.discs;
    showScored(container, root, `black ${black} · white ${white}`);
    return onBoard;
  },
};
