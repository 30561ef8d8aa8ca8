// Talking to the server and building DOM nodes; shared by the page and the board renderers.
"use strict";

window.BoardRenderers = {};

// `signal` (an AbortSignal) drops the request: the server sees its client leave and stops the
// search it was waiting for.
async function api(method, path, body, signal) {
  const options = {method, headers: {}, signal};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data;
  try {
    data = await response.json();
  } catch (err) {
    throw new Error(`${response.status} ${response.statusText}`);
  }
  if (!response.ok) {
    const error = new Error(data.error || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

// el("div", {class: "x", onclick: f}, [children...]) -> an HTML element
function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of [].concat(children)) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// svg("circle", {cx: 1, ...}) -> an SVG element
function svg(tag, attrs = {}, children = []) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  setAttrs(node, attrs);
  for (const child of [].concat(children)) node.append(child);
  return node;
}

// A move's element on a board: clickable when `ctx.interactive`; a legal one joins `onBoard`
// (the moves the board offers itself, which the page does not repeat as buttons).
function placeMove(root, node, id, ctx, legal, onBoard) {
  if (ctx.interactive) node.addEventListener("click", () => ctx.onMove(id));
  if (legal.has(id)) onBoard.add(id);
  root.append(node);
}

// A drawn board with its score line under it.
function showScored(container, root, score) {
  container.replaceChildren(root, el("p", {class: "score"}, score));
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
}

// Forget a game on the server (its search stops); also works while the page is unloading.
function closeSession(id) {
  if (id) fetch(`/api/sessions/${id}`, {method: "DELETE", keepalive: true}).catch(() => {});
}

function sleep(ms) {
  return new Promise(resolve => setTimeout(resolve, ms));
}
