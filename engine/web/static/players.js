// The player and run lists: the game's agents first, then champions grouped by study (the
// folder holding their run), each run's final champion only unless "every generation" is
// ticked; a filter narrows them (every word must match the option, its run or its study).
// Which choices search (so the page shows the search fields only for them) comes from the
// server (Game.spec_searches).
"use strict";

const lists = {champions: [], runs: [], specSearches: {}};

// Every picker's tools: `<name>-filter`, a box of words, and `<name>-generations`, "every
// generation"; both narrow the selects named in the tools' `data-for`.
document.querySelectorAll(".picker-tools").forEach(tools => {
  const {name, for: selects, what} = tools.dataset;
  tools.replaceChildren(
    el("input", {id: `${name}-filter`, class: "player-filter", "data-for": selects, type: "search",
                 placeholder: "filter agents and runs", "aria-label": `filter ${what}`}),
    el("label", {class: "check"}, [
      el("input", {id: `${name}-generations`, class: "player-generations", "data-for": selects,
                   type: "checkbox"}),
      " every generation"]));
});

function filterWords(inputId) {
  return $(inputId).value.toLowerCase().split(/\s+/).filter(Boolean);
}

function matches(words, ...texts) {
  const haystack = texts.join(" ").toLowerCase();
  return words.every(w => haystack.includes(w));
}

// Groups of current runs first, then groups holding only legacy runs, then only runs that
// cannot be replayed (the server marks both); within each, top-level runs (study = their root)
// first, then the studies by name.
function groupRank(list) {
  if (list.every(item => item.replayable === false)) return 2;
  return list.every(item => item.legacy) ? 1 : 0;
}

function byStudy(items) {
  const groups = new Map();
  for (const item of items) {
    if (!groups.has(item.study)) groups.set(item.study, []);
    groups.get(item.study).push(item);
  }
  return [...groups.entries()].sort(([a, listA], [b, listB]) =>
    (groupRank(listA) - groupRank(listB)) || (a.includes("/") - b.includes("/")) ||
    a.localeCompare(b));
}

// Each run's final champion, or its latest generation while it has none yet.
function finalsOnly(champions) {
  const best = new Map();
  for (const c of champions) {
    const kept = best.get(c.run);
    const rank = c.generation === null ? Infinity : c.generation;
    if (!kept || rank > (kept.generation === null ? Infinity : kept.generation)) best.set(c.run, c);
  }
  return champions.filter(c => best.get(c.run) === c);
}

function championText(c) {
  return `${c.name} · ${c.generation === null ? "final" : `gen ${c.generation}`}`;
}

function fillPlayers(select) {
  const g = game();
  const filterId = document.querySelector(`.player-filter[data-for~="${select.id}"]`).id;
  const everyGeneration = document.querySelector(
    `.player-generations[data-for~="${select.id}"]`).checked;
  const words = filterWords(filterId);
  const previous = select.value;
  const specs = g.agent_specs.filter(s => !s.includes("<") && matches(words, s, "agent"));
  const agents = el("optgroup", {label: "Agents"}, specs.map(spec =>
    el("option", {value: `agent:${spec}`}, spec)));
  agents.append(el("option", {value: "custom"}, "other agent spec…"));
  const shown = (everyGeneration ? lists.champions : finalsOnly(lists.champions))
    .filter(c => matches(words, championText(c), c.run, c.study));
  const groups = byStudy(shown).map(([study, list]) => el("optgroup",
    {label: `Champions · ${study}`, "data-study": study},
    list.map(c => el("option", {value: `champion:${c.id}`, title: c.id}, championText(c)))));
  select.replaceChildren(agents, ...groups);
  const values = [...select.options].map(o => o.value);
  select.value = values.includes(previous) ? previous :
    values.includes("agent:greedy") && !words.length ? "agent:greedy" : values[0];
  toggleCustom(select);
}

function fillAllPlayers() {
  document.querySelectorAll(".player-select").forEach(fillPlayers);
}

async function loadChampions() {
  const g = game();
  const {champions} = await api("GET", `/api/champions?game=${encodeURIComponent(g.name)}`);
  lists.champions = champions;
  fillAllPlayers();
}

function toggleCustom(select) {
  const input = $(`${select.id}-spec`);
  const label = input && input.closest("label");
  if (label) label.hidden = select.value !== "custom" || select.closest(".tab").hidden;
  showSearchFields();
}

function playerChoice(selectId) {
  const value = $(selectId).value;
  if (value === "custom") return {type: "agent", spec: $(`${selectId}-spec`).value};
  const [type, ...rest] = value.split(":");
  const id = rest.join(":");
  return type === "champion" ? {type: "champion", id} : {type: "agent", spec: id};
}

// Whether the choice in `selectId` searches: a champion does; a listed spec as the server
// said; a typed spec once the server has answered about it (until then: assume it does).
function choiceSearches(selectId) {
  const value = $(selectId).value;
  if (value.startsWith("champion:")) return lists.champions.some(c =>
    `champion:${c.id}` === value && c.searches);
  if (value === "custom") {
    const known = lists.specSearches[`${game().name}:${$(`${selectId}-spec`).value.trim()}`];
    return known !== undefined ? known : true;
  }
  return game().searching_specs.includes(value.slice("agent:".length));
}

function tabSelects() {
  return page.tab === "play" ? ["opponent"] : page.tab === "watch" ? ["watch-0", "watch-1"] : [];
}

function showSearchFields() {
  $("search").classList.toggle("off", !tabSelects().some(choiceSearches));
  searchForm.pending = run(showRecordedSearch);  // a game started meanwhile waits for it
}

// --- a champion's recorded search ------------------------------------------------------------
// Picking a champion fills the search fields with the search it records (its file, else its
// study's config: GET /api/champion-search). Left as filled, the game is started without
// search fields, so each champion plays its own record and searching agents the first
// champion's; a field changed by hand is sent and applies to every player.
const searchForm = {auto: false, filledFor: null, recorded: {}, pending: Promise.resolve()};

function chosenChampions() {
  return tabSelects().map(id => $(id).value).filter(v => v.startsWith("champion:"))
    .map(v => v.slice("champion:".length))
    .filter(id => lists.champions.some(c => c.id === id && c.searches));
}

async function recordedSearch(id) {
  if (!searchForm.recorded[id]) {
    const answer = await api("GET", `/api/champion-search?id=${encodeURIComponent(id)}`);
    searchForm.recorded[id] = answer.search;
  }
  return searchForm.recorded[id];
}

async function showRecordedSearch() {
  const ids = chosenChampions(), key = `${game().name}:${ids.join(" ")}`;
  const records = await Promise.all(ids.map(recordedSearch));
  if (key !== `${game().name}:${chosenChampions().join(" ")}`) return;  // changed meanwhile
  const first = records.find(r => r.source !== "defaults");
  if (key !== searchForm.filledFor) {
    searchForm.filledFor = key;
    searchForm.auto = !!first;
    if (first) {
      $("depth").value = first.depth;
      $("endgame").value = first.endgame_empties;
      $("time-limit").value = first.time_limit ?? "";
    }
  }
  describeSearch(ids, records);
}

function describeSearch(ids = chosenChampions(), records = ids.map(id => searchForm.recorded[id])) {
  const named = ids.map((id, i) => records[i] && `${championName(id)} records ${records[i].text}`)
    .filter(Boolean);
  const how = !named.length ? "" : searchForm.auto ?
    " Left as they are, each champion plays its own record and searching agents the first " +
    "champion's; a field you change applies to every player." :
    " The fields as set apply to every player that searches.";
  $("search-source").textContent = named.length ? `${named.join("; ")}.${how}` : "";
}

function championName(id) {
  const c = lists.champions.find(x => x.id === id);
  return c ? championText(c) : id;
}

// A search field changed by hand: sent with the game, for every player.
function searchEdited() {
  searchForm.auto = false;
  searchForm.filledFor = `${game().name}:${chosenChampions().join(" ")}`;  // no refill now
  describeSearch();
}

// A typed spec: ask the server whether it is valid and whether it searches.
// The input's data-checked holds the spec once the answer is in.
async function checkSpec(input) {
  const spec = input.value.trim(), name = game().name;
  delete input.dataset.checked;
  $("spec-problem").hidden = true;
  if (spec) {
    try {
      const answer = await api("GET", `/api/spec?game=${encodeURIComponent(name)}` +
                               `&spec=${encodeURIComponent(spec)}`);
      lists.specSearches[`${name}:${spec}`] = answer.searches;
    } catch (err) {
      $("spec-problem").textContent = err.message;
      $("spec-problem").hidden = false;
    }
  }
  input.dataset.checked = spec;
  showSearchFields();
}

// --- runs (Replay) -------------------------------------------------------------------------
async function loadRunList() {
  const {runs} = await api("GET", "/api/runs");
  lists.runs = runs.filter(r => r.game === game().name && r.tables.length);
  fillRuns();
}

function fillRuns() {
  const words = filterWords("run-filter");
  const previous = $("run").value;
  const shown = lists.runs.filter(r => matches(words, r.id));
  $("run").replaceChildren(...byStudy(shown).map(([study, list]) => el("optgroup",
    {label: study}, list.map(r => el("option", {value: r.id, title: r.id}, r.name)))));
  if (!shown.length) {
    $("run").append(el("option", {value: "", disabled: true},
                       lists.runs.length ? "no run matches" : "no runs with recorded games"));
  }
  const values = shown.map(r => r.id);
  const firstReplayable = shown.find(r => r.replayable !== false);
  $("run").value = values.includes(previous) ? previous
    : ((firstReplayable || shown[0] || {}).id || "");
}
