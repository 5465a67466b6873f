// The page: Play (a game against the AI, hints), At the table (a real game followed
// entry by entry, hints), Your table (a position file, hints)
// and Review (a record, step by step, with each player's chance to win). Everything goes
// through the JSON API (docs/web.md); searches come as streams of JSON lines.
import { drawBoard, closeMenus } from "/static/board.js";
import { positionForm } from "/static/form.js";

const $ = (id) => document.getElementById(id);
const MOVES_SHOWN = 60;        // a longer list (a plan step's hundreds) is filtered by typing
const AI_PAUSE_MS = 250;       // between the AI's moves, so that each can be seen

// -- the API ----------------------------------------------------------------------------
class ApiError extends Error {
  constructor(status, body) {
    super(body.error || `error ${status}`);
    this.status = status;
    this.problems = body.problems || [];
  }
}

// The JSON of an answer; a body that is not JSON (a proxy's page, an empty body) as an
// error naming the status.
async function answerOf(r) {
  try { return await r.json(); } catch (e) { return { error: `${r.status} ${r.statusText}` }; }
}

async function api(method, path, body) {
  const r = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await answerOf(r);
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

// A search streamed as JSON lines: onProgress(line) for each, the result at the end.
async function stream(path, body, onProgress, signal) {
  const r = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}), signal,
  });
  if (!r.ok) throw new ApiError(r.status, await answerOf(r));
  if (!(r.headers.get("content-type") || "").includes("ndjson")) {   // already known
    return (await r.json()).result;
  }
  const reader = r.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      if (line.event === "done") return line.result;
      if (line.event === "error") throw new ApiError(line.status, { error: line.error });
      onProgress(line);
    }
  }
  throw new ApiError(499, { error: "the search was stopped" });
}

function showError(node, e) {
  node.replaceChildren();
  if (!e) return;
  // Where the person looks may be far from where the error is written (a long board).
  requestAnimationFrame(() => node.scrollIntoView({ block: "nearest" }));
  const p = document.createElement("p");
  const many = e.problems && e.problems.length > 1;
  p.textContent = many ? `${e.problems.length} problems:` : e.message;
  node.appendChild(p);
  if (many) {
    const ul = document.createElement("ul");
    for (const pr of e.problems) {
      const li = document.createElement("li");
      li.textContent = pr.where ? `${pr.where}: ${pr.reason}` : pr.reason;
      ul.appendChild(li);
    }
    node.appendChild(ul);
  }
}

// A measure and its 95% interval, `scale`d, with `unit`: "47% (45%-49%)"; no interval
// where the hints give none (a move searched too little). Rounded to whole units the two
// ends of an interval can meet ("50%-50%"), which would read as certainty: a decimal more
// is shown, the measure's too, until they differ.
function measureText(x, iv, scale, unit) {
  let digits = 0;
  while (iv && digits < 3 && (iv[0] * scale).toFixed(digits) === (iv[1] * scale).toFixed(digits)) digits++;
  const show = (v) => `${(v * scale).toFixed(digits)}${unit}`;
  return (x === null || x === undefined ? "-" : show(x)) + (iv ? ` (${show(iv[0])}-${show(iv[1])})` : "");
}

// The play the search expects after a move, a step an item, each step whole, as the
// hints word it ("a move you do not see", "a draw, not known yet": the line stops there).
// A line's steps name a seat "player N: "; `names` (the result's seat_names, where it
// gives them) says it as the page does ("you", a table's names).
function namedStep(step, names) {
  const found = /^player (\d+): /.exec(step);
  if (!found || !names || +found[1] >= names.length) return step;
  return `${names[+found[1]]}: ${step.slice(found[0].length)}`;
}

function expectedLine(steps, names) {
  const line = document.createElement("div");
  line.className = "line";
  line.textContent = "then:";
  const ol = document.createElement("ol");
  for (const step of steps.slice(0, 4)) {
    const li = document.createElement("li");
    li.textContent = namedStep(step, names);
    ol.appendChild(li);
  }
  line.appendChild(ol);
  return line;
}

// Hints as a table: the move, its share of the search, its win chance (solo: expected
// score) with the 95% interval, how it stands against the best (the hints' `standing`),
// the expected line.
function hintsTable(root, result, onAction) {
  root.replaceChildren();
  const h = document.createElement("h3");
  h.textContent = result.title || `Hints (${result.iterations.toLocaleString()} iterations, ${result.seconds} s)`;
  root.appendChild(h);
  const t = document.createElement("table");
  t.className = "hints";
  const word = result.score_word;
  t.innerHTML = `<thead><tr><th>move, then as the search expects</th><th>searched</th><th>${result.solo ? "expected " + word : "win"}</th><th>vs best</th></tr></thead>`;
  const body = document.createElement("tbody");
  for (const hint of result.hints) {
    const tr = document.createElement("tr");
    const move = document.createElement("td");
    const b = document.createElement("button");
    b.className = "hint-move";
    b.textContent = hint.text;
    b.disabled = !onAction;
    if (onAction) b.addEventListener("click", () => onAction(hint.action));
    move.appendChild(b);
    if (hint.line.length) move.appendChild(expectedLine(hint.line, result.seat_names));
    const measure = result.solo ? measureText(hint.expected_fame, hint.interval, 1, "")
      : measureText(hint.win_probability, hint.interval, 100, "%");
    tr.appendChild(move);
    for (const [text, style] of [[`${Math.round(hint.share * 100)}%`, ""], [measure, "measure"], [hint.standing || "-", ""]]) {
      const td = document.createElement("td");
      td.textContent = text;
      td.className = style;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  t.appendChild(body);
  root.appendChild(t);
  const cap = document.createElement("p");
  cap.className = "help";
  cap.textContent = (result.solo ? `expected final ${word} with a 95% interval` : "chance to win with a 95% interval")
    + "; best: the highest of the moves measured; level: the search cannot tell it from the best;"
    + " too few samples: searched too little for an interval. Ask again with more seconds to tell them apart.";
  if (result.notice) {
    // What the server says a reader must be told first (e.g. that nothing was searched).
    cap.textContent = result.notice + " " + cap.textContent;
  }
  root.appendChild(cap);
}

// -- tabs -------------------------------------------------------------------------------
for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => showTab(tab.dataset.tab));
}
function showTab(name) {
  sessionStorage.setItem("tab", name);
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === name);
  for (const p of document.querySelectorAll(".panel")) p.classList.toggle("active", p.id === name);
  if (name === "review") refreshRecords();
}

// -- Play -------------------------------------------------------------------------------
let info = null;
let current = null;        // the game's view
let searching = null;      // AbortController of the stream under way

async function loadInfo() {
  info = await api("GET", "/api/info");
  const select = $("game");
  for (const g of info.games) {
    const o = document.createElement("option");
    o.value = g.key; o.textContent = g.title;
    select.appendChild(o);
  }
  for (const b of info.bots) {
    const o = document.createElement("option"); o.value = b; $("bots").appendChild(o);
  }
  gameOptions($("new-game"), select);
  select.addEventListener("change", () => gameOptions($("new-game"), select));
}

// The settings the chosen game has (its parameters in /api/info): only those are shown
// in `form`, and only those are sent (the server refuses a setting the game does not have).
function gameOptions(form, select) {
  const g = chosenGame(select);
  form.querySelectorAll("[data-param]").forEach((n) => { n.hidden = !(n.dataset.param in g.parameters); });
}

function chosenGame(select = $("game")) {
  return info.games.find((x) => x.key === select.value);
}

// The game's settings from the inputs named `prefix` + a parameter's name: rounds, the
// variant, and each yes-or-no setting the game has (a box: characters, automa, factory
// piles, the solo game's difficulty), ticked or not.
function gameSettings(g, prefix) {
  const out = {};
  const has = (name) => name in g.parameters;
  const rounds = numberOrNull(prefix + "rounds"); if (has("rounds") && rounds !== null) out.rounds = rounds;
  if (has("variant") && $(prefix + "variant").value) out.variant = $(prefix + "variant").value;
  for (const name of Object.keys(g.parameters)) {
    const box = $(prefix + name);
    if (box && box.type === "checkbox") out[name] = box.checked;
  }
  return out;
}

function numberOrNull(id) {
  const v = $(id).value.trim();
  return v === "" ? null : Number(v);
}

// A search's progress against the seconds asked for (none asked: the server's default).
function ofSeconds(seconds) {
  return seconds === null ? "" : ` of ${seconds}`;
}

$("new-game").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError($("play-error"), null);
  const g = chosenGame();
  const body = {
    game: g.key, players: numberOrNull("players"), seat: numberOrNull("seat"),
    ai: $("ai").value.split(",").map((s) => s.trim()).filter(Boolean),
  };
  const iterations = numberOrNull("iterations");
  if (iterations !== null) body.iterations = iterations; else body.seconds = numberOrNull("seconds");
  const seed = numberOrNull("seed"); if (seed !== null) body.seed = seed;
  Object.assign(body, gameSettings(g, ""));
  try {
    const view = await api("POST", "/api/games", body);
    sessionStorage.setItem("game", view.id);     // a reload comes back to it (restore)
    $("new-game").hidden = true;
    $("game-area").hidden = false;
    $("log").replaceChildren();
    $("hints").replaceChildren();
    show(view);
    say(`Seed ${view.seed}: the same seed and the same moves give the same game.`, "dim");
    proceed();
  } catch (e) { showError($("play-error"), e); }
});

function say(text, style, why) {
  const li = document.createElement("li");
  li.textContent = text;
  if (style) li.className = style;
  if (why) li.appendChild(whyControl(why));
  $("log").prepend(li);
}

// What an AI move weighed (the event's `why`: the hints its search kept, as the server
// sent them): a Why? button that shows and hides the list, drawn as hints are; nothing
// is searched again.
function whyControl(why) {
  const span = document.createElement("span");
  const b = document.createElement("button");
  b.className = "why";
  b.textContent = "Why?";
  const list = document.createElement("div");
  list.className = "why-list";
  list.hidden = true;
  b.addEventListener("click", () => {
    if (!list.firstChild) hintsTable(list, why, null);
    list.hidden = !list.hidden;
    b.textContent = list.hidden ? "Why?" : "Hide";
    // The log box scrolls: its line goes to the box's top, the list opened below it.
    const box = b.closest("#log"), line = b.closest("li");
    if (!list.hidden && box && line) box.scrollTop += line.getBoundingClientRect().top - box.getBoundingClientRect().top;
  });
  span.append(" ", b, list);
  return span;
}

function show(view) {
  if (!current || current.version !== view.version) $("hints").replaceChildren();   // hints of another decision
  current = view;
  closeMenus();
  for (const e of view.events) if (e.n >= (show.seen || 0)) say(e.text, e.style, e.why);
  show.seen = view.events.length ? view.events[view.events.length - 1].n + 1 : (show.seen || 0);
  const legal = new Set(view.moves.map((m) => m.action));
  const texts = new Map(view.moves.map((m) => [m.action, m.text]));
  drawBoard($("board"), view.board, { legal, texts, onAction: play, colours: info.player_colours });
  toolbar(view);
  const base = `/api/games/${view.id}`;
  $("download-record").href = `${base}/record`;
  $("download-full").href = `${base}/record?full=true`;
  $("download-position").href = `${base}/position`;
  const status = { human: "Your decision", ai: `${view.labels[view.to_act]} to move`, end: "The game is over" }[view.status];
  $("status").textContent = `${view.title}: ${status} (${view.step})`;
  decision(view);
  scores(view);
}

// What the toolbar can do for this view. Undo goes back to the person's previous
// decision, while the game is on and no search holds it (after a stopped search: the
// view is the AI's, `stopped`); a hint is for the person's decision. Once the game is
// over nothing acts on it: the records, the review and a new game remain (a position
// file records no finished game, so its link goes).
function toolbar(view, stopped = false) {
  const over = view.status === "end";
  $("undo").disabled = !view.can_undo || over || (view.status === "ai" && !stopped);
  $("hint").disabled = view.status !== "human";
  $("hint-seconds").disabled = over;
  $("download-position").hidden = over;
}

// The game's entry of a move as numbers (board.entry: Gutenberg's plan, five numbers), a
// form whose ids start with `prefix`; `submit(numbers)` when it is sent.
function numbersForm(entry, prefix, submit) {
  const form = document.createElement("form");
  form.id = `${prefix}-entry`;
  form.className = "entry";
  const help = document.createElement("p"); help.textContent = entry.help; form.appendChild(help);
  entry.labels.forEach((label, i) => {
    const l = document.createElement("label");
    l.textContent = label + " ";
    const input = document.createElement("input");
    input.type = "number"; input.min = 0; input.max = entry.max; input.value = entry.example[i];
    input.className = "entry-number";
    l.appendChild(input);
    form.appendChild(l);
  });
  const go = document.createElement("button"); go.id = `${prefix}-submit`; go.textContent = `Commit the ${entry.what}`;
  form.appendChild(go);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    await submit([...form.querySelectorAll(".entry-number")].map((i) => Number(i.value)));
  });
  return form;
}

// The decision: the game's entry (a plan as numbers), then the moves in the game's words.
function decision(view) {
  const root = $("decision");
  root.replaceChildren();
  if (view.status !== "human") return;
  const entry = view.board.entry;
  if (entry) {
    root.appendChild(numbersForm(entry, "plan",
      (numbers) => act(() => api("POST", `/api/games/${view.id}/move`, { numbers, at: view.version }))));
  }
  const h = document.createElement("h3");
  h.textContent = `Your moves (${view.moves.length})` + (view.moves.some((m) => true) ? ": click one, or what it takes on the board" : "");
  root.appendChild(h);
  const list = document.createElement("div");
  list.id = "moves";
  const filter = document.createElement("input");
  filter.placeholder = "type to filter the moves";
  filter.className = "filter";
  const draw = () => {
    list.replaceChildren();
    const words = filter.value.toLowerCase();
    const shown = view.moves.filter((m) => m.text.toLowerCase().includes(words));
    for (const m of shown.slice(0, MOVES_SHOWN)) {
      const b = document.createElement("button");
      b.className = "move"; b.dataset.action = m.action; b.textContent = m.text;
      b.addEventListener("click", () => play(m.action));
      list.appendChild(b);
    }
    if (shown.length > MOVES_SHOWN) {
      const more = document.createElement("p");
      more.className = "help";
      more.textContent = `... and ${shown.length - MOVES_SHOWN} more: type to narrow them` + (entry ? ", or enter the plan above" : "");
      list.appendChild(more);
    }
  };
  filter.addEventListener("input", draw);
  if (view.moves.length > MOVES_SHOWN) root.appendChild(filter);
  root.appendChild(list);
  draw();
}

// The final score sheet in `root` (Play's, or At the table's as table `id`), its verdict last.
function scores(view, root = $("scores"), id = "score-sheet") {
  root.replaceChildren();
  if (!view.scores) return;
  const h = document.createElement("h3"); h.textContent = "Final score sheet"; root.appendChild(h);
  const rows = view.scores.rows;
  const columns = Object.keys(rows[0]).filter((k) => typeof rows[0][k] !== "object" || rows[0][k] === null);
  const t = document.createElement("table");
  t.id = id;
  const head = document.createElement("tr");
  for (const c of columns) { const th = document.createElement("th"); th.textContent = c; head.appendChild(th); }
  t.appendChild(head);
  for (const r of [...rows].sort((a, b) => a.place - b.place)) {
    const tr = document.createElement("tr");
    for (const c of columns) {
      const td = document.createElement("td");
      td.textContent = c === "seat" ? view.labels[r.seat] : (r[c] ?? "");
      tr.appendChild(td);
    }
    t.appendChild(tr);
  }
  const box = document.createElement("div"); box.className = "table-box"; box.appendChild(t);
  root.appendChild(box);
  const v = document.createElement("p"); v.className = "verdict"; v.textContent = view.scores.verdict; root.appendChild(v);
}

async function act(request) {
  showError($("play-error"), null);
  try {
    show(await request());
    proceed();
  } catch (e) {
    showError($("play-error"), e);
    // The game moved on meanwhile (a second click, another tab): the page shows it as it is.
    if (e.status === 409 && current) {
      try { show(await api("GET", `/api/games/${current.id}`)); proceed(); } catch (_) { /* said above */ }
    }
  }
}

// A move carries the version of the game the page saw: a second click is refused, not
// played at the next decision (where the same action id may be another move).
function play(action) {
  const at = current.version;
  return act(() => api("POST", `/api/games/${current.id}/move`, { action, at }));
}

// The AI's moves, one request each, with the progress of its search. One loop at a
// time: a move made during the pause between the AI's moves calls proceed() again, and
// a second loop would ask for the same AI move twice (409 from the server).
let proceeding = false;
async function proceed() {
  if (proceeding) return;     // the running loop sees the new view
  proceeding = true;
  try {
    await proceedLoop();
  } finally {
    proceeding = false;
  }
}

async function proceedLoop() {
  while (current && current.status === "ai") {
    const who = current.labels[current.to_act];
    searching = new AbortController();
    $("stop").hidden = false;
    toolbar(current);       // Continue after a stop: the search holds the game again
    try {
      const view = await stream(`/api/games/${current.id}/advance`, {}, (line) => {
        $("status").textContent = line.iterations
          ? `${who} is thinking: ${line.iterations.toLocaleString()} iterations, ${line.seconds} s`
          : `${who} is thinking...`;
      }, searching.signal);
      show(view);
    } catch (e) {
      if (e.name !== "AbortError") showError($("play-error"), e);
      $("status").textContent = `${who}'s search was stopped: Undo, or ask the AI again with Continue.`;
      toolbar(current, true);
      showContinue();
      return;
    } finally {
      $("stop").hidden = true;
      searching = null;
    }
    await new Promise((r) => setTimeout(r, AI_PAUSE_MS));
  }
}

function showContinue() {
  const root = $("decision");
  root.replaceChildren();
  const b = document.createElement("button");
  b.id = "continue"; b.textContent = "Continue (the AI moves)";
  b.addEventListener("click", () => { root.replaceChildren(); proceed(); });
  root.appendChild(b);
}

$("stop").addEventListener("click", async () => {
  if (current) await api("POST", `/api/games/${current.id}/stop`).catch(() => {});
  if (searching) searching.abort();
});
$("undo").addEventListener("click", () => act(() => api("POST", `/api/games/${current.id}/undo`)));
$("new").addEventListener("click", () => {
  if (searching) searching.abort();
  if (current) api("DELETE", `/api/games/${current.id}`).catch(() => {});
  current = null;
  show.seen = 0;
  sessionStorage.removeItem("game");
  $("game-area").hidden = true;
  $("new-game").hidden = false;
});
$("hint").addEventListener("click", async () => {
  const seconds = numberOrNull("hint-seconds");   // as typed (the server refuses what it cannot take); empty: its default
  searching = new AbortController();
  $("stop").hidden = false;
  $("hint").disabled = true;
  try {
    const result = await stream(`/api/games/${current.id}/hint`, { seconds }, (line) => {
      $("status").textContent = line.iterations ? `searching for hints: ${line.iterations.toLocaleString()} iterations, ${line.seconds} s${ofSeconds(seconds)}` : "searching for hints...";
    }, searching.signal);
    hintsTable($("hints"), result, play);
    $("status").textContent = `${current.title}: Your decision (${current.step}): hints below`;
  } catch (e) {
    if (e.name !== "AbortError") showError($("play-error"), e);
  } finally {
    $("stop").hidden = true;
    $("hint").disabled = false;
    searching = null;
  }
});
$("review-this").addEventListener("click", async () => {
  try {
    const summary = await api("POST", `/api/games/${current.id}/review`);
    showTab("review");
    await openReview(summary);
  } catch (e) { showError($("play-error"), e); }
});
// A file to download is fetched first, so that a refusal (a decision that is not a
// position, a game or record dropped while idle) is said beside the link
// rather than saved as the file; the file keeps the name the server gives it.
async function fetchAndSave(ev, errorBox) {
  ev.preventDefault();
  try {
    const r = await fetch(ev.currentTarget.href);
    if (!r.ok) throw new ApiError(r.status, await answerOf(r));
    const named = /filename="([^"]+)"/.exec(r.headers.get("Content-Disposition") || "");
    download(await r.text(), named ? named[1] : "download.json");
  } catch (e) { showError(errorBox, e); }
}
for (const [link, box] of [["download-record", "play-error"], ["download-full", "play-error"],
                           ["download-position", "play-error"], ["follow-record", "follow-error"],
                           ["record-download", "review-error"]]) {
  $(link).addEventListener("click", (ev) => fetchAndSave(ev, $(box)));
}

function download(text, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

// A closed page stops its search: the stream ends, and the server is told at once.
window.addEventListener("pagehide", () => {
  if (current && searching) navigator.sendBeacon(`/api/games/${current.id}/stop`);
});

// -- Your table -------------------------------------------------------------------------
async function loadExamples() {
  const list = await api("GET", "/api/positions/examples");
  for (const ex of list) {
    const o = document.createElement("option");
    o.value = `${ex.game}/${ex.name}`; o.textContent = `${ex.game}: ${ex.name}`;
    $("example").appendChild(o);
  }
}
$("example").addEventListener("change", async () => {
  if (!$("example").value) return;
  const r = await fetch(`/api/positions/examples/${$("example").value}`);
  $("position-text").value = await r.text();
  closeForm();     // it was the previous file's
  positionName = $("example").value.split("/")[1] + ".json";
  checkPosition();
});
let positionName = "position.json";
// A file over the server's upload limit is said here, by its name, and not sent (the
// server would answer a bare 413).
function tooBig(file, errors) {
  if (file.size <= info.limits.max_upload_bytes) return false;
  showError(errors, new Error(`${file.name}: ${file.size} bytes, over the server's ${info.limits.max_upload_bytes}`));
  return true;
}
$("position-file").addEventListener("change", async () => {
  const file = $("position-file").files[0];
  if (!file || tooBig(file, $("position-errors"))) return;
  positionName = file.name;
  $("position-text").value = await file.text();
  closeForm();
  checkPosition();
});
$("position-text").addEventListener("input", () => {
  positionName = "position.json";     // typed or edited: no longer the file uploaded
  $("position-download").href = URL.createObjectURL(new Blob([$("position-text").value], { type: "application/json" }));
});

async function checkPosition() {
  showError($("position-errors"), null);
  lastPositionError = null;
  $("position-status").textContent = "checking...";
  $("position-hints").replaceChildren();
  $("position-download").href = URL.createObjectURL(new Blob([$("position-text").value], { type: "application/json" }));
  try {
    const view = await api("POST", "/api/positions/check", { text: $("position-text").value, name: positionName });
    drawPosition(view);
    return view;
  } catch (e) {
    $("position-board").replaceChildren();
    $("position-status").textContent = "";
    showError($("position-errors"), e);
    lastPositionError = e;
    return null;
  }
}
let lastPositionError = null;

function drawPosition(view) {
  drawBoard($("position-board"), view.board, { colours: info.player_colours });
  $("position-status").textContent = `${view.title}: ${view.labels[view.player]} to decide (${view.step}), ${view.moves.length} moves`;
}

$("check-position").addEventListener("click", checkPosition);

// The position as a form (form.js), built from the text and the game's schema; checked,
// it writes the text and puts each problem at its field.
let schemas = null;
let form = null;
$("position-form-open").addEventListener("click", async () => {
  showError($("position-errors"), null);
  let data;
  try {
    data = JSON.parse($("position-text").value);
  } catch (e) {
    showError($("position-errors"), new Error(`the text is not JSON, so there is no form of it (${e.message}): fix the text, or choose an example`));
    return;
  }
  try {
    schemas = schemas || await api("GET", "/api/positions/schemas");
  } catch (e) { showError($("position-errors"), e); return; }
  const game = Object.values(schemas).find((g) => data && g.format === data.format);
  if (!game || typeof data !== "object" || Array.isArray(data)) {
    const formats = Object.values(schemas).map((g) => g.format).join(", ");
    showError($("position-errors"), new Error(`format: not a position of a game here (one of ${formats})`));
    return;
  }
  form = positionForm($("position-form"), game.schema, data);
  $("position-form-area").hidden = false;
});
$("position-form-check").addEventListener("click", async () => {
  if (!form) return;
  $("position-text").value = JSON.stringify(form.value(), null, 2) + "\n";
  form.clear();
  const view = await checkPosition();
  if (view === null && lastPositionError) form.showProblems(lastPositionError.problems || []);
});
function closeForm() {
  form = null;
  $("position-form").replaceChildren();
  $("position-form-area").hidden = true;
}
$("position-form-close").addEventListener("click", closeForm);
let positionSearch = null;
$("position-hint").addEventListener("click", async () => {
  showError($("position-errors"), null);
  const seconds = numberOrNull("position-seconds");
  positionSearch = new AbortController();
  $("position-stop").hidden = false;
  try {
    const result = await stream("/api/positions/hint", { text: $("position-text").value, name: positionName, seconds },
      (line) => { $("position-status").textContent = line.iterations ? `searching: ${line.iterations.toLocaleString()} iterations, ${line.seconds} s${ofSeconds(seconds)}` : "searching..."; },
      positionSearch.signal);
    drawPosition(result.position);
    hintsTable($("position-hints"), result, null);
  } catch (e) {
    if (e.name !== "AbortError") showError($("position-errors"), e);
  } finally {
    $("position-stop").hidden = true;
    positionSearch = null;
  }
});
$("position-stop").addEventListener("click", () => positionSearch && positionSearch.abort());

// -- Review -----------------------------------------------------------------------------
let review = null;
let chanceSearch = null;

async function refreshRecords() {
  const list = await api("GET", "/api/records");
  const pick = $("record-pick");
  const chosen = pick.value;
  pick.replaceChildren(new Option("(choose)", ""));
  for (const r of list) pick.appendChild(new Option(r.title, r.id));
  pick.value = review ? review.id : chosen;
}
$("record-pick").addEventListener("change", async () => {
  if (!$("record-pick").value) return;
  try { await openReview(await api("GET", `/api/records/${$("record-pick").value}`)); }
  catch (e) { showError($("review-error"), e); }
});
$("record-file").addEventListener("change", async () => {
  const file = $("record-file").files[0];
  showError($("review-error"), null);
  if (!file || tooBig(file, $("review-error"))) return;
  try {
    await openReview(await api("POST", "/api/records", { text: await file.text(), name: file.name }));
  } catch (e) { showError($("review-error"), e); }
});

async function openReview(summary) {
  if (chanceSearch) chanceSearch.abort();
  review = summary;
  showError($("review-error"), null);
  await refreshRecords();
  $("review-area").hidden = false;
  $("record-download").href = `/api/records/${summary.id}/download`;
  const slider = $("review-slider");
  slider.max = summary.moves.length;    // 0: the start; k: after the k-th move
  slider.value = summary.moves.length;
  const list = $("review-moves");
  list.replaceChildren();
  summary.moves.forEach((m, k) => {
    const li = document.createElement("li");
    li.textContent = `${summary.labels[m.player]}: ${m.text}`;
    li.addEventListener("click", () => { slider.value = k + 1; reviewStep(); });
    list.appendChild(li);
  });
  await reviewStep();
  drawChart(summary.chances);
  if (!summary.chances) computeChances();
}

function actionsAt(k) {   // the record's actions played after its k-th move
  return k === 0 ? 0 : review.moves[k - 1].index + 1;
}

async function reviewStep() {
  const k = Number($("review-slider").value);
  const to = k === review.moves.length ? review.actions : actionsAt(k);
  try {
    const view = await api("GET", `/api/records/${review.id}/board?to=${to}`);
    drawBoard($("review-board"), view.board, { colours: info.player_colours });
    $("review-where").textContent = `move ${k} of ${review.moves.length}` + (view.last ? `: ${view.last}` : ": the start");
    document.querySelectorAll("#review-moves li").forEach((li, i) => li.classList.toggle("current", i === k - 1));
    const sc = $("review-scores");
    sc.replaceChildren();
    if (view.scores) { const p = document.createElement("p"); p.className = "verdict"; p.textContent = view.scores.verdict; sc.appendChild(p); }
    drawChart(review.chances);
  } catch (e) { showError($("review-error"), e); }
}
$("review-slider").addEventListener("input", reviewStep);
$("review-prev").addEventListener("click", () => { $("review-slider").stepDown(); reviewStep(); });
$("review-next").addEventListener("click", () => { $("review-slider").stepUp(); reviewStep(); });

async function computeChances() {
  chanceSearch = new AbortController();
  const points = [];
  const forReview = review;
  try {
    const result = await stream(`/api/records/${review.id}/chances`, {}, (line) => {
      if (line.point) {
        points.push(line.point);
        $("chance-status").textContent = `win chances: ${line.done} of ${line.of} points searched`;
        drawChart({ measure: "chance to win", points: [...points] });
      }
    }, chanceSearch.signal);
    if (review === forReview) {
      review.chances = result;
      $("chance-status").textContent = `${result.measure} over the game (${result.iterations} iterations a point)`;
      drawChart(result);
    }
  } catch (e) {
    if (e.name !== "AbortError") showError($("review-error"), e);
  } finally { chanceSearch = null; }
}

// The chart: each player's line over the record's actions, on axes labelled as the
// command line's review plot labels them (gutenberg_ai/tools/plots.py), in its colours (given
// by /api/info), the slider's place a grey line.
const CHART = { W: 640, H: 200, left: 52, right: 12, top: 10, bottom: 38 };

function drawChart(chances) {
  const chart = $("chance-chart");
  chart.replaceChildren();
  const legend = $("chance-legend");
  legend.replaceChildren();
  if (!review) return;
  const { W, H, left, right, top, bottom } = CHART;
  const n = Math.max(1, review.actions);
  const solo = chances ? chances.measure !== "chance to win" : review.labels.length === 1;
  const most = solo && chances && chances.points.length ? Math.max(1, ...chances.points.map((p) => p.values[0])) : 1;
  const x = (to) => left + (to / n) * (W - left - right);
  const y = (v) => H - bottom - (v / most) * (H - top - bottom);
  const add = (tag, attrs, text) => {
    const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, v));
    if (text !== undefined) e.textContent = text;
    chart.appendChild(e);
    return e;
  };
  // The axes, their ticks and labels.
  add("line", { x1: left, y1: y(0), x2: W - right, y2: y(0), stroke: "#555", class: "axis" });
  add("line", { x1: left, y1: y(0), x2: left, y2: y(most), stroke: "#555", class: "axis" });
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    const v = f * most;
    add("line", { x1: left - 4, y1: y(v), x2: W - right, y2: y(v), stroke: f ? "#e6dfd0" : "#555" });
    add("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, solo ? v.toFixed(0) : `${f * 100}%`);
    const to = Math.round(f * n);
    add("line", { x1: x(to), y1: y(0), x2: x(to), y2: y(0) + 4, stroke: "#555" });
    add("text", { x: x(to), y: y(0) + 16, "text-anchor": "middle", class: "tick" }, to);
  }
  add("text", { x: (left + W - right) / 2, y: H - 4, "text-anchor": "middle", class: "axis-label" }, "action in the record");
  add("text", { x: 12, y: (top + H - bottom) / 2, "text-anchor": "middle", class: "axis-label",
                transform: `rotate(-90 12 ${(top + H - bottom) / 2})` }, solo ? `expected final ${review.score_word}` : "chance to win");
  const k = Number($("review-slider").value);
  const at = k === review.moves.length ? review.actions : actionsAt(k);
  add("line", { x1: x(at), y1: y(0), x2: x(at), y2: y(most), stroke: "#888", "stroke-dasharray": "4 3" });
  if (!chances || !chances.points.length) return;
  const colours = info.player_colours;
  const seats = chances.points[0].values.length;
  for (let s = 0; s < seats; s++) {
    const colour = colours[s % colours.length];
    add("polyline", { points: chances.points.map((p) => `${x(p.to)},${y(p.values[s])}`).join(" "),
                      fill: "none", stroke: colour, "stroke-width": 2, class: "chance-line" });
    const span = document.createElement("span");
    span.className = "legend-seat";
    span.style.color = colour;
    span.textContent = `\u25A0 ${review.labels[s]}`;
    legend.appendChild(span);
  }
}

// -- start ------------------------------------------------------------------------------
// -- At the table -------------------------------------------------------------------------
// A real game followed entry by entry (/api/tables): the page says what the table waits
// for, lists what can be entered (click one, or type its words, its number, a card), and
// hints at the person's decision or, at another player's, at theirs.
let followed = null;       // the followed game's view

// The server takes one request at a time on a followed game and refuses another as
// busy: each request waits for the answer to the one before (the log asked for after
// an entry, and the entry made next).
let followQueue = Promise.resolve();
function followRequest(request) {
  const answer = followQueue.then(request);
  followQueue = answer.catch(() => {});
  return answer;
}

function followGames() {
  const select = $("follow-game");
  for (const o of $("game").options) select.appendChild(o.cloneNode(true));
  for (const label of $("new-game").querySelectorAll("[data-param]")) {    // Play's settings, as they are
    const copy = label.cloneNode(true);
    copy.querySelectorAll("[id]").forEach((n) => { n.id = `follow-${n.id}`; });
    $("new-follow").insertBefore(copy, $("follow-seed").closest("label"));
  }
  gameOptions($("new-follow"), select);
  select.addEventListener("change", () => gameOptions($("new-follow"), select));
}

$("new-follow").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError($("follow-error"), null);
  const names = $("follow-names").value.split(",").map((n) => n.trim()).filter((n) => n);
  const g = chosenGame($("follow-game"));
  const position = $("follow-position").value.trim();
  // A game under way: the position's game, players and settings (the API refuses others).
  // An empty seat is refused by the server, as Play's is; an empty seed is a new one.
  const body = position ? { position, seat: numberOrNull("follow-seat") }
    : { game: g.key, players: numberOrNull("follow-players"), seat: numberOrNull("follow-seat"),
      ...gameSettings(g, "follow-") };
  const seed = numberOrNull("follow-seed"); if (seed !== null) body.seed = seed;
  if (names.length) body.names = names;
  try {
    const view = await api("POST", "/api/tables", body);
    sessionStorage.setItem("table", view.id);    // a reload comes back to it (restore)
    formOfFollowed(view);     // the game followed (a position's own), its seed a new one if none was given
    showFollowed(view);
  } catch (e) { showError($("follow-error"), e); }
});

// The form says the game followed: its game, players, seat and seed, with the game's settings.
function formOfFollowed(view) {
  $("follow-game").value = view.game;
  $("follow-players").value = view.players;
  $("follow-seat").value = view.seat;
  $("follow-seed").value = view.seed;
  gameOptions($("new-follow"), $("follow-game"));
}

$("follow-position-file").addEventListener("change", async () => {
  const file = $("follow-position-file").files[0];
  showError($("follow-error"), null);
  if (file && !tooBig(file, $("follow-error"))) $("follow-position").value = await file.text();
});

function showFollowed(view) {
  followed = view;
  $("follow-area").hidden = false;
  $("follow-status").textContent = view.status === "end" ? "The game is over." : `${view.waits_for} (entry ${view.entries + 1})`;
  $("follow-record").href = `/api/tables/${view.id}/record`;
  // A hint is for a player's decision, not a draw the table waits to be told.
  $("follow-hint").disabled = !["own", "move"].includes(view.status);
  const open = view.status !== "end" && view.status !== "reveal";
  const legal = new Set(open ? view.options.map((o) => o.action) : []);
  const texts = new Map(view.options.map((o) => [o.action, o.text]));
  drawBoard($("follow-board"), view.board, { legal, texts, onAction: (a) => followEntry({ action: a }),
    colours: info.player_colours });
  // The person's own plan as five numbers, as in Play (the table reads them as its
  // view's typed move); the list below has every plan too.
  const plan = view.status === "own" ? view.board.entry : null;
  $("follow-numbers").replaceChildren();
  if (plan) {
    $("follow-numbers").appendChild(numbersForm(plan, "follow-plan", (numbers) => followEntry({ text: numbers.join(" ") })));
  }
  const list = $("follow-options");
  list.replaceChildren();
  for (const o of view.options.slice(0, MOVES_SHOWN)) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.className = "entry-option";
    b.textContent = o.text;
    b.addEventListener("click", () => followEntry({ action: o.action }));
    li.appendChild(b);
    list.appendChild(li);
  }
  if (view.options.length > MOVES_SHOWN) {
    const li = document.createElement("li");
    li.className = "help";
    li.textContent = `${view.options.length - MOVES_SHOWN} more: type their words` +
      (plan ? `, or enter the ${plan.what} above` : "");
    list.appendChild(li);
  }
  scores(view, $("follow-scores"), "follow-score-sheet");
  followLog().catch((e) => showError($("follow-error"), e));
}

async function followLog() {
  const entries = await followRequest(() => api("GET", `/api/tables/${followed.id}/log`));
  const log = $("follow-log");
  log.replaceChildren();
  for (const e of entries.slice(-12)) {
    const li = document.createElement("li");
    li.value = e.entry;
    li.textContent = `${e.who}: ${e.text === null ? "(not seen)" : e.text}`;
    for (const note of e.notes || []) {     // what the automa did by a rule there
      const d = document.createElement("div");
      d.className = "rule-note";
      d.textContent = note;
      li.appendChild(d);
    }
    log.appendChild(li);
  }
}

// An entry as the table shows it; a reveal when a hidden entry is shown now. Whether it
// was taken.
async function followEntry(named) {
  showError($("follow-error"), null);
  $("follow-hints").replaceChildren();
  const reveal = followed.status === "reveal";
  const at = followed.version;      // the table seen: a second click is refused, not entered next
  try {
    const view = await followRequest(() => api("POST", `/api/tables/${followed.id}/${reveal ? "reveal" : "entry"}`,
      reveal ? { entry: followed.reveal, at, ...named } : { at, ...named }));
    showFollowed(view);
    return true;
  } catch (e) {
    showError($("follow-error"), e);
    if (e.status === 409) {     // the table moved on meanwhile: shown as it is
      try { showFollowed(await api("GET", `/api/tables/${followed.id}`)); } catch (_) { /* said above */ }
    }
    return false;
  }
}

// The field is emptied once its words are taken, unless the person has typed on since
// (an entry clicked meanwhile leaves it as it is).
$("follow-entry").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const text = $("follow-text").value.trim();
  if (text && await followEntry({ text }) && $("follow-text").value.trim() === text) $("follow-text").value = "";
});

$("follow-fix").addEventListener("click", async () => {
  showError($("follow-error"), null);
  try {
    const at = followed.version;
    const view = await followRequest(() => api("POST", `/api/tables/${followed.id}/fix`,
      { entry: Number($("follow-fix-entry").value), text: $("follow-fix-text").value.trim(), at }));
    showFollowed(view);
    if (view.dropped.length) {
      showError($("follow-error"), new Error("no longer fits, left out: "
        + view.dropped.map((d) => `entry ${d.entry} (${d.who}: ${d.text})`).join("; ")));
    }
  } catch (e) { showError($("follow-error"), e); }
});

$("follow-hint").addEventListener("click", async () => {
  showError($("follow-error"), null);
  const body = { seconds: numberOrNull("follow-hint-seconds") };
  if (followed.status === "move") body.player = followed.to_act;
  $("follow-hints").textContent = "searching...";
  try {
    const result = await followRequest(() => stream(`/api/tables/${followed.id}/hint`, body, (line) => {
      if (line.iterations) $("follow-hints").textContent = `searching... ${line.iterations.toLocaleString()} iterations`;
    }));
    hintsTable($("follow-hints"), result, (a) => followEntry({ action: a }));
  } catch (e) { $("follow-hints").replaceChildren(); showError($("follow-error"), e); }
});

// Once every list the page fills at its start is filled, it says so (body data-loaded):
// what waits for the page (its tests) waits for that, not for the first list to appear.
// A reload keeps what this tab had open: the server holds the games (the page's cookie
// names this browser), the tab remembers their ids; Play's game and the followed table
// come back as they stood, the AI's search let finish first.
async function restore() {
  const tab = sessionStorage.getItem("tab");
  if (tab && $(tab)) showTab(tab);
  const gameId = sessionStorage.getItem("game");
  if (gameId) {
    try {
      let view = await api("GET", `/api/games/${gameId}`);
      while (view.searching) {
        $("status").textContent = "The AI's search goes on...";
        await new Promise((r) => setTimeout(r, 500));
        view = await api("GET", `/api/games/${gameId}`);
      }
      $("new-game").hidden = true;
      $("game-area").hidden = false;
      say(`Seed ${view.seed}: the same seed and the same moves give the same game.`, "dim");
      show(view);
      proceed();
    } catch (e) { sessionStorage.removeItem("game"); }     // gone (the server restarted, or it ended)
  }
  const tableId = sessionStorage.getItem("table");
  if (tableId) {
    try {
      const view = await api("GET", `/api/tables/${tableId}`);
      formOfFollowed(view);     // after a reload the form says the game that came back
      showFollowed(view);
    } catch (e) { sessionStorage.removeItem("table"); }
  }
}

// A form's old error goes once the person changes the form (a resubmit the browser's
// own check stops would leave it standing).
for (const [form, error] of [["new-game", "play-error"], ["new-follow", "follow-error"]]) {
  $(form).addEventListener("input", () => showError($(error), null));
}

loadInfo().then(followGames).then(loadExamples).then(restore).then(() => { document.body.dataset.loaded = "true"; })
  .catch((e) => showError($("play-error"), e));
