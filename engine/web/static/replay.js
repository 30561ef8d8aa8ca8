// Replay: the recorded games of a run, listed and filtered, and one of them stepped through
// (the row being replayed is highlighted). Uses the page state and helpers of app.js (loaded
// after this file, run once both are in).
"use strict";

function bindReplay() {
  $("page-prev").addEventListener("click", () => movePage(-1));
  $("page-next").addEventListener("click", () => movePage(1));
  const step = ply => () => run(() => gotoPly(ply()));
  $("nav-start").addEventListener("click", step(() => 0));
  $("nav-back").addEventListener("click", step(() => replayPly() - 1));
  $("nav-forward").addEventListener("click", step(() => replayPly() + 1));
  $("nav-end").addEventListener("click", step(() => page.tabs.replay.session.plies));
  $("nav-slider").addEventListener("input", step(() => Number($("nav-slider").value)));
  $("nav-play").addEventListener("click", () => run(playReplay));
  document.addEventListener("keydown", replayKeys);
}

async function loadRuns() {
  await loadRunList();
  if (!$("run").value) {
    $("recorded-summary").textContent = lists.runs.length ? "" :
      `No recorded games of ${game().name} (start the server with --runs DIR).`;
    $("recorded-list").replaceChildren();
    return;
  }
  await loadRecorded();
}

async function loadRecorded() {
  if (!$("run").value) {  // the filter left no run
    $("recorded-list").replaceChildren();
    $("recorded-summary").textContent = "";
    return;
  }
  offerTablesOf($("run").value);
  const params = new URLSearchParams({run: $("run").value, table: $("table").value,
    generation: $("filter-generation").value, player: $("filter-player").value,
    winner: $("filter-winner").value, offset: page.offset, limit: PAGE_SIZE});
  // quick changes (a table, then a run) overlap their requests: only the latest one is shown
  const ticket = page.recordedTicket = (page.recordedTicket || 0) + 1;
  const latest = () => ticket === page.recordedTicket;
  const data = await api("GET", `/api/recorded?${params}`).catch(err => {
    if (latest()) throw err;  // a stale request's error is not this listing's
  });
  if (!latest()) return;
  for (const [name, values] of Object.entries(data.filters)) {
    const select = $(`filter-${name}`), keep = select.value;
    select.replaceChildren(el("option", {value: ""}, "all"),
                           ...values.map(v => el("option", {value: v}, v)));
    select.value = values.includes(keep) ? keep : "";
  }
  const shown = shownColumns(data);
  const header = el("tr", {}, [el("th"), ...shown.map(c =>
    el("th", {title: c}, columnTitle(c, data.player_columns)))]);
  const rows = data.rows.map(row => el("tr", {"data-row": row.row},
    [el("td", {}, el("button", {class: "replay-row", "data-row": row.row, disabled: !data.replayable,
                                title: "Replay this game", "aria-label": "Replay",
                                onclick: () => run(() => startReplay(data, row.row))}, "▶")),
     ...shown.map(c => el("td", {}, row[c]))]));
  $("recorded-list").replaceChildren(el("table", {class: "recorded", "data-game": data.game,
                                                 "data-run": data.run, "data-table": data.table},
                                          [header, ...rows]));
  const end = Math.min(data.offset + PAGE_SIZE, data.total);
  $("recorded-summary").textContent = `${data.total} games, showing ${data.total ? data.offset + 1 : 0}–${end}` +
    (data.replayable ? "" : " (this table has no moves column: re-run the GA to replay)");
  page.total = data.total;
  markReplayedRow();
}

// The columns a reader looks for first (generation, the players, the winner, the plies), then
// the rest; moves and opening are what Replay shows, and pairing / game only index the row.
// The panel is narrow: a table cut at white_id hid the winner and the plies.
function shownColumns(data) {
  const first = ["generation", ...data.player_columns, "winner", "plies"]
    .filter(c => data.columns.includes(c));
  const hidden = new Set(["moves", "opening", "pairing", "game", ...first]);
  return [...first, ...data.columns.filter(c => !hidden.has(c))];
}

// Short headers (the column's own name is the tooltip): "gen", "black" for black_id.
function columnTitle(column, players) {
  if (column === "generation") return "gen";
  return players.includes(column) ? column.replace(/_id$/, "") : column.replace(/_/g, " ");
}

// Highlight the listed row that the Replay tab is showing (if it is on this page).
function markReplayedRow() {
  const table = document.querySelector("table.recorded");
  if (!table) return;
  const source = page.tabs.replay.session ? page.tabs.replay.session.source : null;
  table.querySelectorAll("tr[data-row]").forEach(tr => {
    tr.classList.toggle("replaying", !!source && source.run === table.dataset.run &&
      source.table === table.dataset.table && source.row === Number(tr.dataset.row));
  });
}

function movePage(step) {
  const offset = page.offset + step * PAGE_SIZE;
  if (offset < 0 || offset >= page.total) return;
  page.offset = offset;
  run(loadRecorded);
}

// A run may hold only some tables (committed runs keep the yardstick's games alone): offer
// those, and move off a table the run does not have instead of asking for it.
function offerTablesOf(runId) {
  const tables = (lists.runs.find(r => r.id === runId) || {tables: []}).tables;
  const select = $("table");
  for (const option of select.options) option.disabled = !tables.includes(option.value);
  if (tables.length && !tables.includes(select.value)) select.value = tables[0];
}

async function startReplay(data, row) {
  endSession("replay");
  page.loop++;
  update("replay", await tabApi("replay", "POST", "/api/replays",
                                {run: data.run, table: data.table, row}));
}

// The ply the replay is at, or is on its way to (quick clicks each take one more step).
function replayPly() {
  const state = page.tabs.replay;
  return state.target !== undefined ? state.target : state.session.ply;
}

async function gotoPly(ply) {
  const state = page.tabs.replay, s = state.session;
  if (!s) return;
  ply = state.target = Math.max(0, Math.min(s.plies, ply));
  const view = await tabApi("replay", "GET", `/api/sessions/${s.id}?ply=${ply}`);
  if (state.target !== ply || !state.session || state.session.id !== view.id) return;  // stale
  delete state.target;
  update("replay", view);
}

// Left / right arrows step through a replay, Home / End jump (not while typing in a field).
function replayKeys(event) {
  const steps = {ArrowLeft: -1, ArrowRight: 1};
  const s = page.tabs.replay.session;
  if (page.tab !== "replay" || !s || event.target.matches("input, select")) return;
  if (event.key in steps) run(() => gotoPly(replayPly() + steps[event.key]));
  else if (event.key === "Home") run(() => gotoPly(0));
  else if (event.key === "End") run(() => gotoPly(s.plies));
  else return;
  event.preventDefault();
}

async function playReplay() {
  const loop = ++page.loop, state = page.tabs.replay;
  if (state.session.ply === state.session.plies) await gotoPly(0);
  while (state.session && replayPly() < state.session.plies && loop === page.loop) {
    await sleep(delay());
    if (loop === page.loop) await gotoPly(replayPly() + 1);
  }
}
