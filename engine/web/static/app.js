// The page: pick a game and players, then play against an agent, watch two agents, or replay
// a recorded game of a run. All game knowledge comes from the server (the game contract).
"use strict";

const page = {games: {}, tab: "play", session: null, busy: false, loop: 0, offset: 0};
const PAGE_SIZE = 20;

function game() { return page.games[$("game").value]; }
function renderer() { return BoardRenderers[game().renderer] || BoardRenderers.generic; }
function delay() { return Number($("speed").value); }

async function init() {
  const {games} = await api("GET", "/api/games");
  for (const g of games) {
    page.games[g.name] = g;
    $("game").append(el("option", {value: g.name}, g.name));
  }
  document.querySelectorAll("#tabs button").forEach(b =>
    b.addEventListener("click", () => selectTab(b.dataset.tab)));
  document.querySelectorAll(".player-select").forEach(s =>
    s.addEventListener("change", () => toggleCustom(s)));
  $("game").addEventListener("change", onGameChange);
  $("new-game").addEventListener("click", () => run(newGame));
  $("undo").addEventListener("click", () => run(undo));
  $("watch-start").addEventListener("click", () => run(startWatch));
  $("watch-pause").addEventListener("click", pauseWatch);
  $("speed").addEventListener("input", showSpeed);
  ["run", "table", "filter-generation", "filter-player", "filter-winner"].forEach(id =>
    $(id).addEventListener("change", () => { page.offset = 0; run(loadRecorded); }));
  $("page-prev").addEventListener("click", () => movePage(-1));
  $("page-next").addEventListener("click", () => movePage(1));
  $("nav-start").addEventListener("click", () => run(() => gotoPly(0)));
  $("nav-back").addEventListener("click", () => run(() => gotoPly(page.session.ply - 1)));
  $("nav-forward").addEventListener("click", () => run(() => gotoPly(page.session.ply + 1)));
  $("nav-end").addEventListener("click", () => run(() => gotoPly(page.session.plies)));
  $("nav-slider").addEventListener("input", () => run(() => gotoPly(Number($("nav-slider").value))));
  $("nav-play").addEventListener("click", () => run(playReplay));
  document.addEventListener("keydown", replayKeys);
  showSpeed();
  await onGameChange();
  $("new-game").disabled = $("watch-start").disabled = false;  // ready
  document.body.dataset.ready = "true";
}

// Run an action, showing its error (the server's reason) instead of failing silently.
async function run(action) {
  try {
    await action();
  } catch (err) {
    showMessage(err.message);
  }
}

function selectTab(tab) {
  page.tab = tab;
  page.loop++;  // stops a running watch or replay loop
  document.querySelectorAll("#tabs button").forEach(b =>
    b.classList.toggle("active", b.dataset.tab === tab));
  document.querySelectorAll(".tab").forEach(node => {
    node.hidden = !node.dataset.tab.split(" ").includes(tab);
  });
  document.querySelectorAll(".player-select").forEach(toggleCustom);
  $("replay-nav").hidden = tab !== "replay" || !page.session || page.session.mode !== "replay";
  if (tab === "replay") run(loadRuns);
  const s = page.session;
  if (!s || s.terminal) return;
  // back to a game the switch interrupted: the agent takes its turn; a watched game waits
  if (tab === "play" && s.mode === "play" && !s.human_to_move) run(agentTurns);
  if (tab === "watch" && s.mode === "watch") {
    $("watch-pause").disabled = false;
    $("watch-pause").textContent = "Resume";
  }
}

async function onGameChange() {
  const g = game();
  delete document.body.dataset.game;
  page.loop++;
  $("game-description").textContent = g.description;
  $("colour").replaceChildren(...g.players.map((name, i) =>
    el("option", {value: i}, i === 0 ? `${name} (moves first)` : name)));
  document.querySelectorAll(".player-name").forEach(span => {
    span.textContent = g.players[Number(span.dataset.player)];
  });
  const {champions} = await api("GET", `/api/champions?game=${encodeURIComponent(g.name)}`);
  document.querySelectorAll(".player-select").forEach(s => fillPlayers(s, g, champions));
  if (page.tab === "replay") await loadRuns();
  document.body.dataset.game = g.name;  // the controls now belong to this game
}

function fillPlayers(select, g, champions) {
  const agents = el("optgroup", {label: "Agents"}, g.agent_specs.filter(s => !s.includes("<"))
    .map(spec => el("option", {value: `agent:${spec}`}, spec)));
  agents.append(el("option", {value: "custom"}, "other agent spec…"));
  const byRun = {};
  for (const c of champions) (byRun[c.run] = byRun[c.run] || []).push(c);
  const groups = Object.entries(byRun).map(([runId, list]) => el("optgroup",
    {label: `Champions of ${runId}`}, list.map(c => el("option", {value: `champion:${c.id}`},
      c.generation === null ? "final champion" : `generation ${c.generation}`))));
  select.replaceChildren(agents, ...groups);
  const preferred = g.agent_specs.includes("greedy") ? "agent:greedy" : agents.firstChild.value;
  select.value = preferred;
  toggleCustom(select);
}

function toggleCustom(select) {
  const label = $(`${select.id}-spec`) && $(`${select.id}-spec`).closest("label");
  if (label) label.hidden = select.value !== "custom" || select.closest(".tab").hidden;
}

function playerChoice(selectId) {
  const value = $(selectId).value;
  if (value === "custom") return {type: "agent", spec: $(`${selectId}-spec`).value};
  const [type, ...rest] = value.split(":");
  const id = rest.join(":");
  return type === "champion" ? {type: "champion", id} : {type: "agent", spec: id};
}

// The game settings typed in (JSON object), or undefined for the game's defaults (a champion
// then brings its run's settings).
function gameSettings() {
  const text = $("game-settings").value.trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`game settings: not valid JSON (${err.message})`);
  }
}

function searchSettings() {
  const search = {depth: Number($("depth").value), endgame_empties: Number($("endgame").value)};
  if ($("time-limit").value !== "") search.time_limit = Number($("time-limit").value);
  return search;
}

function show() {
  const s = page.session;
  const interactive = s.mode === "play" && s.human_to_move && !page.busy;
  const onPly = s.mode === "replay" ? ply => run(() => gotoPly(ply)) : null;
  drawSession(s, renderer(), interactive, id => run(() => humanMove(id)), onPly);
  $("undo").disabled = s.mode !== "play" || page.busy || s.ply === 0;
  $("replay-nav").hidden = s.mode !== "replay";
  $("nav-slider").max = s.plies;
  $("nav-slider").value = s.ply;
}

// --- play ---------------------------------------------------------------------------------
async function newGame() {
  page.loop++;
  showMessage("");
  const human = Number($("colour").value);
  const players = [playerChoice("opponent"), playerChoice("opponent")];
  players[human] = {type: "human"};
  page.session = await api("POST", "/api/sessions", {game: game().name, mode: "play", players,
                                                     search: searchSettings(),
                                                     settings: gameSettings()});
  show();
  await agentTurns();
}

async function humanMove(id) {
  if (!page.session.human_to_move || page.busy) return;
  page.session = await api("POST", `/api/sessions/${page.session.id}/move`, {move: id});
  showMessage("");
  show();
  await agentTurns();
}

// The agent replies (several times in a row when the rules give it more moves).
async function agentTurns() {
  const loop = page.loop;
  try {
    while (page.session.mode === "play" && !page.session.terminal &&
           !page.session.human_to_move && loop === page.loop) {
      page.busy = true;
      show();
      $("status").textContent += " · thinking…";
      page.session = await api("POST", `/api/sessions/${page.session.id}/agent-move`);
    }
  } finally {
    page.busy = false;
    show();
  }
}

async function undo() {
  page.session = await api("POST", `/api/sessions/${page.session.id}/undo`);
  showMessage("");
  show();
}

// --- watch --------------------------------------------------------------------------------
async function startWatch() {
  page.loop++;
  showMessage("");
  page.session = await api("POST", "/api/sessions", {
    game: game().name, mode: "watch", players: [playerChoice("watch-0"), playerChoice("watch-1")],
    search: searchSettings(), settings: gameSettings()});
  show();
  await watchLoop();
}

async function watchLoop() {
  const loop = page.loop;
  $("watch-pause").disabled = false;
  $("watch-pause").textContent = "Pause";
  while (!page.session.terminal && loop === page.loop) {
    await sleep(delay());
    if (loop !== page.loop) break;
    page.session = await api("POST", `/api/sessions/${page.session.id}/agent-move`);
    show();
  }
  if (page.session.terminal) $("watch-pause").disabled = true;
}

function pauseWatch() {
  if ($("watch-pause").textContent === "Pause") {
    page.loop++;
    $("watch-pause").textContent = "Resume";
  } else {
    run(watchLoop);
  }
}

function showSpeed() {
  $("speed-label").textContent = `${delay()} ms between moves`;
}

run(init);
