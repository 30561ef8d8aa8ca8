// Drawing one session view: the board (through the game's renderer), whose move it is, the
// moves the board cannot show (a forced pass), the last move with the agent's evaluation, the
// result and the move list.
"use strict";

const $ = id => document.getElementById(id);

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

function infoText(info) {
  if (!info) return "";
  const parts = [];
  if (info.forced) parts.push("forced");
  if (typeof info.eval === "number") parts.push(`eval ${info.eval.toFixed(2)}`);
  if (typeof info.win_rate === "number") parts.push(`win rate ${(100 * info.win_rate).toFixed(1)}%`);
  if (info.exact) parts.push("exact");
  if (typeof info.depth === "number") parts.push(`depth ${info.depth}`);
  if (typeof info.seconds === "number") parts.push(`${info.seconds.toFixed(2)} s`);
  return parts.join(" · ");
}

// Draw `session`; `onMove(id)` is called for clicks when `interactive`, `onPly(k)` (if given)
// when a move of the list is clicked.
function drawSession(session, renderer, interactive, onMove, onPly) {
  const ctx = {interactive, onMove};
  const onBoard = renderer.render($("board"), session, ctx);
  const extra = session.legal.filter(m => !onBoard.has(m.id));
  $("extra-moves").replaceChildren(...(interactive ? extra : []).map(m =>
    el("button", {"data-move": m.id, class: "extra-move", onclick: () => onMove(m.id)},
       m.text === "pass" ? "Pass (no legal move)" : m.text)));
  $("status").textContent = statusText(session);
  const last = session.last_move;
  $("last-move").textContent = last ?
    `last move: ${session.players[last.player].name} ${last.text}` +
    (last.info && infoText(last.info) ? ` (${infoText(last.info)})` : "") : "";
  $("result").textContent = session.terminal ? `Result: ${session.result.text}` : "";
  $("result").className = session.terminal ? "over" : "";
  $("move-list").replaceChildren(...session.moves.map((text, i) =>
    el("li", {class: i === session.ply - 1 ? "current" : "", "data-ply": i + 1,
              onclick: onPly && (() => onPly(i + 1))}, `${i + 1}. ${text}`)));
  const current = $("move-list").querySelector(".current");
  if (current) current.scrollIntoView({block: "nearest"});
}
