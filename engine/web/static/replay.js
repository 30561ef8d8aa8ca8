// Replay: the recorded games of a run, listed and filtered, and one of them stepped through.
// Uses the page state and helpers of app.js (loaded after this file, run once both are in).
"use strict";

async function loadRuns() {
  const {runs} = await api("GET", "/api/runs");
  const mine = runs.filter(r => r.game === game().name);
  const previous = $("run").value;
  $("run").replaceChildren(...mine.map(r => el("option", {value: r.id}, r.id)));
  if (mine.some(r => r.id === previous)) $("run").value = previous;
  if (!mine.length) {
    $("recorded-summary").textContent = `No runs of ${game().name} (start the server with --runs DIR).`;
    $("recorded-list").replaceChildren();
    return;
  }
  await loadRecorded();
}

async function loadRecorded() {
  const params = new URLSearchParams({run: $("run").value, table: $("table").value,
    generation: $("filter-generation").value, player: $("filter-player").value,
    winner: $("filter-winner").value, offset: page.offset, limit: PAGE_SIZE});
  const data = await api("GET", `/api/recorded?${params}`);
  for (const [name, values] of Object.entries(data.filters)) {
    const select = $(`filter-${name}`), keep = select.value;
    select.replaceChildren(el("option", {value: ""}, "all"),
                           ...values.map(v => el("option", {value: v}, v)));
    select.value = values.includes(keep) ? keep : "";
  }
  const shown = data.columns.filter(c => c !== "moves" && c !== "opening");
  const header = el("tr", {}, [...shown.map(c => el("th", {}, c)), el("th")]);
  const rows = data.rows.map(row => el("tr", {}, [...shown.map(c => el("td", {}, row[c])),
    el("td", {}, el("button", {class: "replay-row", "data-row": row.row, disabled: !data.replayable,
                               onclick: () => run(() => startReplay(data, row.row))}, "Replay"))]));
  $("recorded-list").replaceChildren(el("table", {class: "recorded", "data-game": data.game,
                                                 "data-run": data.run}, [header, ...rows]));
  const end = Math.min(data.offset + PAGE_SIZE, data.total);
  $("recorded-summary").textContent = `${data.total} games, showing ${data.total ? data.offset + 1 : 0}–${end}` +
    (data.replayable ? "" : " (this table has no moves column: re-run the GA to replay)");
  page.total = data.total;
}

function movePage(step) {
  const offset = page.offset + step * PAGE_SIZE;
  if (offset < 0 || offset >= page.total) return;
  page.offset = offset;
  run(loadRecorded);
}

async function startReplay(data, row) {
  page.loop++;
  showMessage("");
  page.session = await api("POST", "/api/replays", {run: data.run, table: data.table, row});
  show();
}

async function gotoPly(ply) {
  if (!page.session || page.session.mode !== "replay") return;
  ply = Math.max(0, Math.min(page.session.plies, ply));
  page.session = await api("GET", `/api/sessions/${page.session.id}?ply=${ply}`);
  show();
}

// Left / right arrows step through a replay, Home / End jump (not while typing in a field).
function replayKeys(event) {
  const steps = {ArrowLeft: -1, ArrowRight: 1};
  if (!page.session || page.session.mode !== "replay" || event.target.matches("input, select")) {
    return;
  }
  if (event.key in steps) run(() => gotoPly(page.session.ply + steps[event.key]));
  else if (event.key === "Home") run(() => gotoPly(0));
  else if (event.key === "End") run(() => gotoPly(page.session.plies));
  else return;
  event.preventDefault();
}

async function playReplay() {
  const loop = ++page.loop;
  if (page.session.ply === page.session.plies) await gotoPly(0);
  while (page.session.ply < page.session.plies && loop === page.loop) {
    await sleep(delay());
    if (loop === page.loop) await gotoPly(page.session.ply + 1);
  }
}
