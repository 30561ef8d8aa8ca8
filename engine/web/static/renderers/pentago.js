// Pentago Twist: view = {board: 6 strings of "W"/"B"/"."}, move id = (x*6 + y)*8 + a*2 + b
// (x row from the top, y column, a quadrant 0 TL 1 TR 2 BL 3 BR, b 0 rotate clockwise,
// 1 flip horizontally). Click a cell, then pick the quadrant and the twist.
"use strict";

const PENTAGO_QUADRANTS = ["top-left", "top-right", "bottom-left", "bottom-right"];
const PENTAGO_TWISTS = ["rotate ↻", "flip ⇆"];

BoardRenderers.pentago = {
  selected: null,  // the cell picked before its twist, kept across re-renders of one position

  render(container, session, ctx) {
    const cell = 56, gap = 8, margin = 24;
    const size = 6 * cell + gap + 2 * margin;
    const legal = new Set(session.legal.map(m => m.id));
    const legalCells = new Set([...legal].map(id => Math.floor(id / 8)));
    const key = `${session.id}:${session.ply}`;
    if (this.selectedKey !== key) this.selected = null;
    this.selectedKey = key;
    const last = session.last_move ? session.last_move.id : null;
    const lastCell = last === null ? null : this.landing(last);
    const root = svg("svg", {viewBox: `0 0 ${size} ${size}`, class: "board pentago"});
    for (let a = 0; a < 4; a++) {
      const qx = margin + (a % 2) * (3 * cell + gap), qy = margin + Math.floor(a / 2) * (3 * cell + gap);
      const twisted = last !== null && Math.floor((last % 8) / 2) === a;
      root.append(svg("rect", {x: qx, y: qy, width: 3 * cell, height: 3 * cell, rx: 10,
                               class: "quadrant" + (twisted ? " twisted" : "")}));
    }
    for (let i = 0; i < 6; i++) {  // x: row from the top, y: column (the move text "x y a b")
      const at = margin + i * cell + (i >= 3 ? gap : 0) + cell / 2;
      root.append(svg("text", {x: at, y: margin - 8, class: "coord"}, `y${i}`));
      root.append(svg("text", {x: margin - 12, y: at + 5, class: "coord"}, `x${i}`));
    }
    for (let x = 0; x < 6; x++) {
      for (let y = 0; y < 6; y++) {
        const c = 6 * x + y;
        const px = margin + y * cell + (y >= 3 ? gap : 0) + cell / 2;
        const py = margin + x * cell + (x >= 3 ? gap : 0) + cell / 2;
        const stone = session.view.board[x][y];
        const g = svg("g", {class: "cell" + (legalCells.has(c) ? " legal" : "") +
                                   (this.selected === c ? " selected" : ""),
                            "data-cell": c, "data-name": `${x} ${y}`});
        g.append(svg("circle", {cx: px, cy: py, r: cell * 0.42, class: "hole"}));
        if (stone !== ".") {
          g.append(svg("circle", {cx: px, cy: py, r: cell * 0.38,
                                  class: stone === "W" ? "stone white" : "stone black"}));
        }
        if (c === lastCell) {
          g.append(svg("circle", {cx: px, cy: py, r: cell * 0.44, class: "last-move"}));
        }
        if (ctx.interactive) g.addEventListener("click", () => this.pick(c, legalCells, ctx));
        root.append(g);
      }
    }
    const chooser = el("div", {class: "twist-chooser", id: "twist-chooser"});
    if (this.selected !== null && ctx.interactive) {
      chooser.append(el("span", {}, `Stone at x${Math.floor(this.selected / 6)} ` +
                                      `y${this.selected % 6}, then twist:`));
      for (let a = 0; a < 4; a++) {
        for (let b = 0; b < 2; b++) {
          const id = this.selected * 8 + a * 2 + b;
          chooser.append(el("button", {"data-move": id, disabled: !legal.has(id),
                                       onclick: () => ctx.onMove(id)},
                            `${PENTAGO_QUADRANTS[a]} ${PENTAGO_TWISTS[b]}`));
        }
      }
    }
    container.replaceChildren(root, chooser);
    this.container = container; this.session = session; this.ctx = ctx;
    return legal;  // every legal move is reachable from the board
  },

  // Where the stone of move `id` ends up: its quadrant's twist may carry it along.
  landing(id) {
    const cellIndex = Math.floor(id / 8), a = Math.floor((id % 8) / 2), flip = id % 2 === 1;
    let x = Math.floor(cellIndex / 6), y = cellIndex % 6;
    const top = Math.floor(a / 2) * 3, left = (a % 2) * 3;
    if (x >= top && x < top + 3 && y >= left && y < left + 3) {
      const i = x - top, j = y - left;  // clockwise: (i, j) -> (j, 2 - i); flip: (i, 2 - j)
      [x, y] = flip ? [top + i, left + 2 - j] : [top + j, left + 2 - i];
    }
    return 6 * x + y;
  },

  pick(c, legalCells, ctx) {
    if (!legalCells.has(c)) {  // an occupied cell: let the server say why
      ctx.onMove(c * 8);
      return;
    }
    this.selected = c;
    this.render(this.container, this.session, this.ctx);
  },
};
