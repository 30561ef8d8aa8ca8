// Drawing one session view: the board (through the game's renderer), whose move it is, the
// moves the board cannot show (a forced pass), the last move with the agent's evaluation, the
// result and the move list. Moves are shown by their label (Game.move_label: "x2 y3, rotate
// top-right"); their text (Game.move_text, what files hold) is the tooltip.
"use strict";

const $ = id => document.getElementById(id);

// No game in this tab yet: an empty board and what to do.
function clearBoard(hint) {
  $("status").textContent = hint;
  $("player-searches").textContent = "";
  ["board", "extra-moves", "move-list"].forEach(id => $(id).replaceChildren());
  ["last-move", "result"].forEach(id => { $(id).textContent = ""; });
  $("result").className = "";
}

function showMessage(text, kind = "error") {
  $("message").textContent = text || "";
  $("message").className = text ? kind : "";
}

function playerLabel(session, index) {
  const player = session.players[index];
  return player.type === "human" ? `${player.name} (you)` : `${player.name} (${player.label})`;
}

function statusText(session) {
  const plies = session.mode === "replay" ? `ply ${session.ply}/${session.plies}` :
    `ply ${session.ply}`;
  if (session.terminal) return `${plies} · game over: ${session.result.text}`;
  return `${plies} · ${playerLabel(session, session.to_move)} to move`;
}

// How each agent of the game searches, and where that comes from (its record, the form).
function searchesText(session) {
  if (session.mode === "replay") return "";
  return session.players.filter(p => p.type !== "human").map(p =>
    `${p.name} (${p.label}): ${p.search ? p.search.text
                                         : p.fixed || "its own rule, no search settings"}`)
    .join(" · ");
}

function infoText(info) {
  if (!info) return "";
  const parts = [];
  if (info.forced) parts.push("forced");
  if (typeof info.eval === "number") parts.push(`eval ${info.eval.toFixed(2)}`);
  if (typeof info.win_rate === "number") parts.push(`win rate ${(100 * info.win_rate).toFixed(1)}%`);
  if (info.exact) parts.push("exact");
  if (info.cut) parts.push(`depth ${info.depth} of ${info.depth_asked} (the server's time cap)`);
  else if (typeof info.depth === "number") parts.push(`depth ${info.depth}`);
  if (typeof info.seconds === "number") parts.push(`${info.seconds.toFixed(2)} s` +
    (typeof info.budget === "number" ? ` of ${info.budget.toFixed(2)} s on its clock` : ""));
  return parts.join(" · ");
}

function clockText(seconds) {
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${(seconds - 60 * minutes).toFixed(1).padStart(4, "0")}`;
}

// The players' clocks of a game played on one; the running clock (a person to move) counts
// down from `since` (when the view arrived). Returns the running clock's seconds left
// (Infinity when none runs).
function drawClocks(session, since) {
  let left = Infinity;
  $("clocks").replaceChildren(...(session.clocks || []).map((clock, i) => {
    const remaining = Math.max(0, clock.running ?
      clock.remaining - (performance.now() - since) / 1000 : clock.remaining);
    if (clock.running) left = remaining;
    return el("span", {class: `clock${clock.running ? " running" : ""}` +
                              `${clock.flagged ? " flagged" : ""}`, "data-player": i},
              `${session.players[i].name} ${clockText(remaining)}`);
  }));
  return left;
}

// Draw `session`; `onMove(id)` is called for clicks when `interactive`, `onPly(k)` (if given)
// when a move of the list is clicked.
function drawSession(session, renderer, interactive, onMove, onPly) {
  const ctx = {interactive, onMove};
  const onBoard = renderer.render($("board"), session, ctx);
  const extra = session.legal.filter(m => !onBoard.has(m.id));
  $("extra-moves").replaceChildren(...(interactive ? extra : []).map(m =>
    el("button", {"data-move": m.id, class: "extra-move", title: m.text,
                  onclick: () => onMove(m.id)},
       m.text === "pass" ? "Pass (no legal move)" : m.label || m.text)));
  $("status").textContent = statusText(session);
  $("player-searches").textContent = searchesText(session);
  const last = session.last_move;
  $("last-move").textContent = last ?
    `last move: ${session.players[last.player].name} ${last.label || last.text}` +
    (last.info && infoText(last.info) ? ` (${infoText(last.info)})` : "") : "";
  $("result").textContent = session.terminal ? `Result: ${session.result.text}` : "";
  $("result").className = session.terminal ? "over" : "";
  const labels = session.labels || session.moves;
  const widest = Math.max(0, ...labels.map(label => label.length));  // one column per move
  $("move-list").style.setProperty("--move-width", `${widest + String(labels.length).length + 3}ch`);
  $("move-list").replaceChildren(...session.moves.map((text, i) =>
    el("li", {class: (i === session.ply - 1 ? "current" : "") + (onPly ? " link" : ""),
              "data-ply": i + 1, title: text, onclick: onPly && (() => onPly(i + 1))},
       [el("span", {class: "ply"}, `${i + 1}.`), ` ${labels[i]}`])));
}
