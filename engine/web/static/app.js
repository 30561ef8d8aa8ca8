// The page: pick a game and players, then play against an agent, watch two agents, or replay
// a recorded game of a run. All game knowledge comes from the server (the game contract).
// Each tab owns its game, its message and its board: switching tabs shows the other tab's own
// (or an empty board), and a new game, another game picked or the page closed ends the old one
// on the server, which stops its search.
"use strict";

const TABS = ["play", "watch", "replay"];
const page = {
  games: {}, limits: null, tab: "play", busy: false, loop: 0, offset: 0,
  tabs: Object.fromEntries(TABS.map(t => [t, {session: null, message: "", request: null}])),
  get session() { return this.tabs[this.tab].session; },  // the game on show
};
const PAGE_SIZE = 20;
const HINTS = {play: "Pick an opponent and press New game.", watch: "Pick two players and press Start.",
               replay: "Pick a run and press Replay on a game."};

function game() { return page.games[$("game").value]; }
function renderer() { return BoardRenderers[game().renderer] || BoardRenderers.generic; }
function delay() { return Number($("speed").value); }

async function init() {
  const [{games}, limits] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/limits")]);
  for (const g of games) {
    page.games[g.name] = g;
    $("game").append(el("option", {value: g.name}, g.name));
  }
  showLimits(limits);
  document.querySelectorAll("#tabs button").forEach(b =>
    b.addEventListener("click", () => selectTab(b.dataset.tab)));
  document.querySelectorAll(".player-select").forEach(s =>
    s.addEventListener("change", () => toggleCustom(s)));
  document.querySelectorAll(".player-filter, .player-generations").forEach(input =>
    input.addEventListener("input", () => input.dataset.for.split(" ").forEach(id =>
      fillPlayers($(id)))));
  document.querySelectorAll(".spec-input").forEach(input =>
    input.addEventListener("change", () => run(() => checkSpec(input))));
  ["depth", "endgame", "time-limit"].forEach(id => $(id).addEventListener("input", searchEdited));
  $("game").addEventListener("change", () => run(onGameChange));
  $("new-game").addEventListener("click", () => run(newGame));
  $("undo").addEventListener("click", () => run(undo));
  $("watch-start").addEventListener("click", () => run(startWatch));
  $("watch-pause").addEventListener("click", pauseWatch);
  $("speed").addEventListener("input", showSpeed);
  $("run-filter").addEventListener("input", () => { fillRuns(); page.offset = 0; run(loadRecorded); });
  ["run", "table", "filter-generation", "filter-player", "filter-winner"].forEach(id =>
    $(id).addEventListener("change", () => { page.offset = 0; run(loadRecorded); }));
  bindReplay();
  window.addEventListener("pagehide", () => TABS.forEach(t => closeSession(page.tabs[t].session?.id)));
  showSpeed();
  setInterval(tickClocks, 100);
  await onGameChange();
  $("new-game").disabled = $("watch-start").disabled = false;  // ready
  document.body.dataset.ready = "true";
}

function showLimits(limits) {
  page.limits = limits;
  $("depth").max = limits.max_depth;
  $("time-limit").max = limits.max_seconds;
  $("endgame").max = limits.max_endgame;
  $("limits-hint").textContent = `This server: depth up to ${limits.max_depth}, at most ` +
    `${limits.max_seconds} s per move; any agent move is stopped after ${limits.move_seconds} s. ` +
    `A game clock (up to ${limits.max_clock} s each) sets each agent move's time instead.`;
}

// Run an action, showing its error (the server's reason) in the tab it belongs to.
async function run(action, tab = page.tab) {
  try {
    await action();
  } catch (err) {
    if (err.name !== "AbortError") setMessage(tab, err.message);
  }
}

function setMessage(tab, text) {
  page.tabs[tab].message = text || "";
  if (tab === page.tab) showMessage(text);
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
  show();
  if (tab === "replay") run(loadRuns);
  const s = page.session;
  if (!s || s.terminal) return;
  // back to a game the switch interrupted: the agent takes its turn; a watched game waits
  if (tab === "play" && !s.human_to_move) run(agentTurns, "play");
  if (tab === "watch") {
    $("watch-pause").disabled = false;
    $("watch-pause").textContent = "Resume";
  }
}

// Another game: every tab's game ends (on the server too) and the lists are the new game's.
async function onGameChange() {
  const g = game();
  delete document.body.dataset.game;
  page.loop++;
  TABS.forEach(endSession);
  $("game-description").textContent = g.description;
  $("colour").replaceChildren(...g.players.map((name, i) =>
    el("option", {value: i}, i === 0 ? `${name} (moves first)` : name)));
  document.querySelectorAll(".player-name").forEach(span => {
    span.textContent = g.players[Number(span.dataset.player)];
  });
  showSettingsHint(g);
  show();
  await loadChampions();
  if (page.tab === "replay") await loadRuns();
  document.body.dataset.game = g.name;  // the controls now belong to this game
}

function showSettingsHint(g) {
  const settings = JSON.stringify(g.settings).replace(/([,:])/g, "$1 ");  // wraps at spaces
  $("settings-box").classList.toggle("off", settings === "{}");  // nothing to set
  $("game-settings").value = "";
  $("settings-hint").textContent = `JSON; ${g.name}'s defaults: ${settings}. Left empty, a ` +
    "champion plays with its run's settings.";
}

// The tab's game ends: its request is dropped and the server forgets it (stopping its search).
function endSession(tab) {
  const state = page.tabs[tab];
  if (state.request) state.request.abort();
  closeSession(state.session?.id);
  Object.assign(state, {session: null, message: "", request: null});
  delete state.target;
}

// A request of `tab`'s game, dropped if that game ends first.
async function tabApi(tab, method, path, body) {
  const state = page.tabs[tab];
  const request = state.request = new AbortController();
  try {
    return await api(method, path, body, request.signal);
  } finally {
    if (state.request === request) state.request = null;
  }
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

// The game clock typed in ("60+1"), or undefined for none.
function clockSetting() {
  return $("clock").value.trim() || undefined;
}

// The search fields; none while they still show the chosen champions' records as filled (the
// server then plays each champion at its own record). Waits for the record of a champion just
// picked: a game started before it arrived would send the fields of the previous choice.
async function searchSettings() {
  await searchForm.pending;
  if (searchForm.auto) return {};
  const search = {depth: Number($("depth").value), endgame_empties: Number($("endgame").value)};
  if ($("time-limit").value !== "") search.time_limit = Number($("time-limit").value);
  return search;
}

// Draw the shown tab's game (or an empty board with what to do).
function show() {
  const state = page.tabs[page.tab], s = state.session;
  showMessage(state.message);
  $("replay-nav").hidden = !s || s.mode !== "replay";
  $("undo").disabled = !s || s.mode !== "play" || page.busy || s.ply === 0 || !!s.clocks;
  if (!s) {
    clearBoard(HINTS[page.tab]);
    $("clocks").replaceChildren();
    return;
  }
  const interactive = s.mode === "play" && s.human_to_move && !page.busy;
  const onPly = s.mode === "replay" ? ply => run(() => gotoPly(ply)) : null;
  drawSession(s, renderer(), interactive, id => run(() => humanMove(id)), onPly);
  drawClocks(s, state.since);
  $("nav-slider").max = s.plies;
  $("nav-slider").value = s.ply;
  if (s.mode === "replay") markReplayedRow();
}

// A new view of `tab`'s game: kept, and drawn if that tab is on show.
function update(tab, session) {
  Object.assign(page.tabs[tab], {session, since: performance.now()});
  if (tab === page.tab) show();
}

// --- play ---------------------------------------------------------------------------------
async function newGame() {
  endSession("play");
  page.loop++;
  show();
  const human = Number($("colour").value);
  const players = [playerChoice("opponent"), playerChoice("opponent")];
  players[human] = {type: "human"};
  const search = await searchSettings();
  update("play", await tabApi("play", "POST", "/api/sessions", {
    game: game().name, mode: "play", players, search,
    settings: gameSettings(), clock: clockSetting()}));
  await agentTurns();
}

async function humanMove(id) {
  const s = page.tabs.play.session;
  if (!s.human_to_move || page.busy) return;
  setMessage("play", "");
  update("play", await tabApi("play", "POST", `/api/sessions/${s.id}/move`, {move: id}));
  await agentTurns();
}

// The agent replies (several times in a row when the rules give it more moves); a full line
// of searches (429) is asked again a moment later.
async function agentTurns() {
  const loop = page.loop, state = page.tabs.play;
  try {
    while (state.session && !state.session.terminal && !state.session.human_to_move &&
           loop === page.loop) {
      page.busy = true;
      show();
      $("status").textContent += " · thinking…";
      const reply = await agentMove("play", state.session);
      if (reply) update("play", reply);
      else await sleep(1000);
    }
  } finally {
    page.busy = false;
    if (page.tab === "play") show();
  }
}

// The agent's move in `tab`'s game, or null when the server was busy (429, said in the tab).
async function agentMove(tab, session) {
  try {
    const reply = await tabApi(tab, "POST", `/api/sessions/${session.id}/agent-move`);
    setMessage(tab, "");
    return reply;
  } catch (err) {
    if (err.status !== 429) throw err;
    setMessage(tab, `${err.message} (asking again…)`);
    return null;
  }
}

// The shown game's running clock counts down; at zero the server is asked for the game (it
// finds the person out of time and ends the game).
function tickClocks() {
  const state = page.tabs[page.tab], s = state.session;
  if (!s || !s.clocks || state.refreshing) return;
  if (drawClocks(s, state.since) > 0) return;
  state.refreshing = true;
  run(async () => {
    try {
      const tab = page.tab, view = await api("GET", `/api/sessions/${s.id}`);
      if (page.tabs[tab].session?.id === view.id) update(tab, view);
    } finally {
      state.refreshing = false;
    }
  });
}

async function undo() {
  const s = page.tabs.play.session;
  update("play", await tabApi("play", "POST", `/api/sessions/${s.id}/undo`));
  setMessage("play", "");
}

// --- watch --------------------------------------------------------------------------------
async function startWatch() {
  endSession("watch");
  page.loop++;
  show();
  const search = await searchSettings();
  update("watch", await tabApi("watch", "POST", "/api/sessions", {
    game: game().name, mode: "watch", players: [playerChoice("watch-0"), playerChoice("watch-1")],
    search, settings: gameSettings(), clock: clockSetting()}));
  await watchLoop();
}

async function watchLoop() {
  const loop = page.loop, state = page.tabs.watch;
  $("watch-pause").disabled = false;
  $("watch-pause").textContent = "Pause";
  while (state.session && !state.session.terminal && loop === page.loop) {
    await sleep(delay());
    if (loop !== page.loop) break;
    const reply = await agentMove("watch", state.session);
    if (reply) update("watch", reply);
    else await sleep(1000);
  }
  if (state.session && state.session.terminal) $("watch-pause").disabled = true;
}

function pauseWatch() {
  if ($("watch-pause").textContent === "Pause") {
    page.loop++;
    $("watch-pause").textContent = "Resume";
  } else {
    run(watchLoop, "watch");
  }
}

function showSpeed() {
  $("speed-label").textContent = `${delay()} ms between moves`;
}

run(init);
