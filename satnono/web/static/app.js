// satnono's page: draw or open a puzzle, then ask the server to check, solve or count it.
// Plain JavaScript, no build step and nothing fetched from elsewhere.
"use strict";

const BW = [{name: "white", char: ".", rgb: "ffffff"}, {name: "black", char: "#", rgb: "000000"}];
const CHARS = "#abcdefghijklmnopqrstuvwxyz";

const state = {
  width: 10, height: 10,
  palette: BW.slice(),
  grid: [],            // per row, per cell: colour index, or null while unknown
  drawing: true,       // clues come from the grid (else from an opened puzzle)
  clues: {rows: [], columns: []},
  json: null,          // the opened puzzle's JSON (satnono's JSON format)
  title: "",
  ink: 1,
  marks: {amb: [], sw: []},
  steps: [], at: -1, timer: null,
  showingAnswer: false,  // the board shows the answer, not the replay's step ``at``
  replayGrid: null,    // the board after step ``at`` of the replay (-1: before the first)
  checked: false,
  limit: 20,
  cells: 10000,        // the largest puzzle the server takes
  exports: [],         // what Export offers: {what, name, colour, label}
  past: [], future: [], // undo and redo: the board as it was before each change
  cursor: {r: 0, c: 0}, // the keyboard's cell
  cell: 18,            // pixels a cell (zoom)
};

const $ = (id) => document.getElementById(id);

function blank(w, h, value) {
  return Array.from({length: h}, () => Array(w).fill(value));
}

// -- clues -------------------------------------------------------------------------------

function lineClue(cells) {
  const out = [];
  let run = 0, colour = 0;
  for (const v of cells.concat([0])) {
    if (v === colour && v) { run++; continue; }
    if (colour) out.push([run, colour]);
    colour = v || 0; run = colour ? 1 : 0;
  }
  return out;
}

function cluesOf(grid) {
  const w = grid[0] ? grid[0].length : 0;
  return {
    rows: grid.map((row) => lineClue(row.map((v) => v || 0))),
    columns: Array.from({length: w}, (_, c) => lineClue(grid.map((row) => row[c] || 0))),
  };
}

function puzzleJson() {
  if (!state.drawing && state.json) return state.json;
  const colour = state.palette.length > 2;
  const name = (i) => state.palette[i].name;
  const blocks = (clue) => clue.map(([n, k]) => (colour ? [n, name(k)] : n));
  const obj = {rows: state.clues.rows.map(blocks), columns: state.clues.columns.map(blocks)};
  if (state.title) obj.title = state.title;
  if (colour) {
    obj.palette = {};
    for (const p of state.palette) obj.palette[p.name] = {char: p.char, rgb: p.rgb};
    obj.background = state.palette[0].name;
  }
  obj.goal = state.grid.map((row) => row.map((v) => state.palette[v || 0].char).join(""));
  return JSON.stringify(obj);
}

// -- drawing the board ---------------------------------------------------------------------

function clueCell(clue, vertical) {
  const td = document.createElement("td");
  td.className = (vertical ? "colclue" : "rowclue") + " clue";
  const items = clue.length ? clue : [[0, 1]];
  items.forEach(([n, k], i) => {
    const span = document.createElement("span");
    span.textContent = String(n);
    if (state.palette.length > 2 && state.palette[k] && n > 0) {  // colour: every block in its colour
      span.className = "coloured";
      span.style.background = "#" + state.palette[k].rgb;
      span.style.color = textOn(state.palette[k].rgb);
    }
    td.appendChild(span);
    if (vertical && i < items.length - 1) td.appendChild(document.createElement("br"));
    else if (!vertical && i < items.length - 1) td.appendChild(document.createTextNode(" "));
  });
  return td;
}

function textOn(rgb) {
  const n = parseInt(rgb, 16);
  const lum = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return lum < 128 ? "#fff" : "#000";
}

function paintCell(td, v) {
  td.classList.toggle("unknown", v === null);
  td.style.background = v === null ? "" : "#" + state.palette[v].rgb;
}

function gridTable(grid, clues, small) {
  const table = document.createElement("table");
  table.className = "grid";
  if (!small) {
    const head = document.createElement("tr");
    head.appendChild(document.createElement("td"));
    clues.columns.forEach((clue) => head.appendChild(clueCell(clue, true)));
    table.appendChild(head);
  }
  grid.forEach((row, r) => {
    const tr = document.createElement("tr");
    if (!small) tr.appendChild(clueCell(clues.rows[r], false));
    row.forEach((v, c) => {
      const td = document.createElement("td");
      td.className = "cell" + ((r + 1) % 5 === 0 ? " r5" : "") + ((c + 1) % 5 === 0 ? " c5" : "");
      td.dataset.r = r; td.dataset.c = c;
      paintCell(td, v);
      tr.appendChild(td);
    });
    table.appendChild(tr);
  });
  return table;
}

function render() {
  const board = $("board");
  board.innerHTML = "";
  const table = gridTable(state.grid, state.clues, false);
  table.id = "grid";
  board.appendChild(table);
  state.showingAnswer = false;
  showCursor();
  markCells();
  renderPalette();
}

function cellAt(r, c) {
  return document.querySelector(`#grid td.cell[data-r="${r}"][data-c="${c}"]`);
}

function markCells() {
  document.querySelectorAll("#grid td.cell").forEach((td) => td.classList.remove("amb", "sw", "focus"));
  for (const [r, c] of state.marks.amb) { const td = cellAt(r, c); if (td) td.classList.add("amb"); }
  for (const [r, c] of state.marks.sw) {
    for (const [dr, dc] of [[0, 0], [0, 1], [1, 0], [1, 1]]) {
      const td = cellAt(r + dr, c + dc); if (td) td.classList.add("sw");
    }
  }
}

function renderPalette() {
  const box = $("palette");
  box.innerHTML = "";
  state.palette.forEach((p, i) => {
    if (i === 0) return;
    const b = document.createElement("button");
    b.className = "swatch" + (i === state.ink ? " chosen" : "");
    b.style.background = "#" + p.rgb;
    b.title = "paint with " + p.name;
    b.dataset.colour = i;
    b.onclick = () => { state.ink = i; renderPalette(); };
    box.appendChild(b);
  });
}

// -- undo and redo ---------------------------------------------------------------------------

// What a change can alter: the picture, its size and palette, and which puzzle is open.
const KEPT = ["grid", "width", "height", "palette", "ink", "drawing", "json", "title", "clues"];
const HISTORY = 200;

function snapshot() {
  const out = {};
  for (const k of KEPT) out[k] = JSON.parse(JSON.stringify(state[k]));
  return out;
}

// Called before each change (a stroke, a key's paint, a new drawing, a colour, a file
// opened): the board as it was goes on the undo list, and what was undone is forgotten.
function remember() {
  if (!state.grid.length) return;  // the page's first board: nothing before it
  state.past.push(snapshot());
  if (state.past.length > HISTORY) state.past.shift();
  state.future = [];
  undoButtons();
}

function travel(from, to, what) {
  if (!from.length) { note(`Nothing to ${what}.`); return; }
  to.push(snapshot());
  const back = from.pop();
  for (const k of KEPT) state[k] = back[k];
  state.marks = {amb: [], sw: []}; state.checked = false;
  stopReplay(); $("replay").hidden = true; $("result").innerHTML = ""; $("pair").innerHTML = "";
  $("width").value = state.width; $("height").value = state.height;
  state.cursor = {r: Math.min(state.cursor.r, state.height - 1), c: Math.min(state.cursor.c, state.width - 1)};
  render(); fillExports(); undoButtons();
  note(what === "undo" ? "Undone." : "Redone.");
}

const undo = () => travel(state.past, state.future, "undo");
const redo = () => travel(state.future, state.past, "redo");

function undoButtons() {
  $("undo").disabled = !state.past.length;
  $("redo").disabled = !state.future.length;
}

// -- the keyboard and zoom ------------------------------------------------------------------

// Arrows move the cursor cell, Space or Enter paints it (as a click does), 1-9 choose the
// ink, Ctrl-Z undoes, Ctrl-Y or Ctrl-Shift-Z redoes, + and - zoom. Keys typed into a field
// are the field's.
document.addEventListener("keydown", (e) => {
  const tag = e.target && e.target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  const ctrl = e.ctrlKey || e.metaKey;
  const key = e.key;
  if (ctrl && (key === "z" || key === "Z")) { e.preventDefault(); (e.shiftKey ? redo : undo)(); return; }
  if (ctrl && (key === "y" || key === "Y")) { e.preventDefault(); redo(); return; }
  if (ctrl || e.altKey) return;
  const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  if (moves[key]) {
    e.preventDefault();
    const [dr, dc] = moves[key];
    state.cursor = {r: Math.max(0, Math.min(state.height - 1, state.cursor.r + dr)),
                    c: Math.max(0, Math.min(state.width - 1, state.cursor.c + dc))};
    showCursor();
  } else if (key === " " || key === "Enter") {
    if (tag === "BUTTON") return;  // the button's own press
    e.preventDefault();
    paintFromKeys();
  } else if (/^[1-9]$/.test(key) && +key < state.palette.length) {
    state.ink = +key; renderPalette();
  } else if (key === "+" || key === "=") zoom(4);
  else if (key === "-") zoom(-4);
});

function showCursor() {
  document.querySelectorAll("#grid td.cell.cursor").forEach((td) => td.classList.remove("cursor"));
  const td = cellAt(state.cursor.r, state.cursor.c);
  if (td) td.classList.add("cursor");
}

function paintFromKeys() {
  if (!state.drawing) { note("An opened puzzle's clues are fixed: New drawing starts a picture."); return; }
  const {r, c} = state.cursor;
  backToDrawing();
  remember();
  painting = state.grid[r][c] === state.ink ? 0 : state.ink;
  paintAt(cellAt(r, c));
  painting = null;
  showCursor();
}

function zoom(by) {
  state.cell = Math.max(8, Math.min(40, state.cell + by));
  document.documentElement.style.setProperty("--cell", state.cell + "px");
  $("zoomout").disabled = state.cell <= 8; $("zoomin").disabled = state.cell >= 40;
}

// -- painting with the mouse ---------------------------------------------------------------

let painting = null;

function paintAt(td) {
  const r = +td.dataset.r, c = +td.dataset.c;
  if (state.grid[r][c] === painting) return;
  state.grid[r][c] = painting;
  paintCell(td, painting);
  state.clues = cluesOf(state.grid);
  refreshClues();
  if (state.checked) note("The drawing changed since the check: press Check again.");
}

// Painting after a Solve or a Check: the board shows the drawing again (not the replay's
// unknown cells), and the outlines of a check that no longer holds go.
function backToDrawing() {
  const replaying = !$("replay").hidden;
  stopReplay();
  if (replaying) { $("replay").hidden = true; render(); }
  if (state.marks.amb.length || state.marks.sw.length) {
    state.marks = {amb: [], sw: []};
    markCells();
  }
}

function refreshClues() {
  const table = $("grid");
  const head = table.rows[0];
  state.clues.columns.forEach((clue, c) => head.replaceChild(clueCell(clue, true), head.cells[c + 1]));
  state.clues.rows.forEach((clue, r) => {
    const tr = table.rows[r + 1];
    tr.replaceChild(clueCell(clue, false), tr.cells[0]);
  });
}

document.addEventListener("mousedown", (e) => {
  const td = e.target.closest && e.target.closest("#grid td.cell");
  if (!td) return;
  e.preventDefault();
  if (!state.drawing) { note("An opened puzzle's clues are fixed: New drawing starts a picture."); return; }
  const r = +td.dataset.r, c = +td.dataset.c;
  backToDrawing();
  remember();  // the stroke is undone as one
  state.cursor = {r, c};
  const v = state.grid[r][c];
  painting = v === state.ink ? 0 : state.ink;
  paintAt(cellAt(r, c));
  showCursor();
});
// mousemove, not mouseover: a clue that grows moves the grid under a still pointer, and
// that must not paint the cell that slides under it
document.addEventListener("mousemove", (e) => {
  if (painting === null) return;
  const td = e.target.closest && e.target.closest("#grid td.cell");
  if (td) paintAt(td);
});
document.addEventListener("mouseup", () => { painting = null; });

// -- talking to the server -----------------------------------------------------------------

let running = null;

function note(text, error) {
  $("message").textContent = text;
  $("status").classList.toggle("error", !!error);
}

function cancelRunning() {
  if (!running) return;
  running.abort();
  fetch("/api/cancel", {method: "POST", body: JSON.stringify({id: running.id}),
                        headers: {"Content-Type": "application/json"}}).catch(() => {});
}

async function ask(path, body, doing) {
  cancelRunning();
  const ctl = new AbortController();
  ctl.id = Math.random().toString(36).slice(2) + Date.now().toString(36);
  body = Object.assign({id: ctl.id}, body);
  running = ctl;
  const started = Date.now();
  $("busy").hidden = false; $("cancel").hidden = false;
  note(doing + "…");
  const tick = setInterval(() => {
    note(`${doing}… ${Math.round((Date.now() - started) / 1000)} s (time limit ${state.limit} s)`);
  }, 500);
  try {
    const res = await fetch(path, {method: "POST", body: JSON.stringify(body),
                                   headers: {"Content-Type": "application/json"}, signal: ctl.signal});
    const data = await res.json();
    if (!res.ok && data.fit) return data;  // an offer: the caller asks the user
    if (!res.ok || data.error) { note(data.error || `the server answered ${res.status}`, true); return null; }
    note("");
    return data;
  } catch (err) {
    note(err.name === "AbortError" ? "Cancelled." : "The server did not answer: " + err, err.name !== "AbortError");
    return null;
  } finally {
    clearInterval(tick);
    if (running === ctl) running = null;
    $("busy").hidden = true; $("cancel").hidden = true;
  }
}

function fromStrings(rows, palette) {
  const index = {};
  palette.forEach((p, i) => { index[p.char] = i; });
  return rows.map((row) => Array.from(row).map((ch) => (ch in index ? index[ch] : null)));
}

function opened(p, source) {
  remember();  // Undo goes back to what was on the board
  state.source = source || null;  // what was opened, to open another of its puzzles
  fillWhich(p);
  state.width = p.width; state.height = p.height; state.title = p.title;
  state.palette = p.palette; state.ink = 1;
  state.json = p.json;
  state.clues = {rows: p.rows, columns: p.columns};
  state.marks = {amb: [], sw: []}; state.checked = false;
  if (p.goal) { state.grid = fromStrings(p.goal, p.palette); state.drawing = true; state.json = null; }
  else { state.grid = blank(p.width, p.height, null); state.drawing = false; }
  $("width").value = p.width; $("height").value = p.height;
  stopReplay(); $("replay").hidden = true; $("result").innerHTML = ""; $("pair").innerHTML = "";
  render(); fillExports();
  note(`Opened a ${p.width}×${p.height} puzzle` + (p.title ? ` (${p.title})` : "") +
       (p.goal ? " with its picture: draw on it, or Check." : ": Check, Solve or Count.") +
       (p.note ? " " + p.note + "." : ""));
}

function showResult(html) { $("result").innerHTML = html; }

function esc(s) { return String(s).replace(/[&<>]/g, (ch) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;"}[ch])); }

async function check() {
  const data = await ask("/api/check", {puzzle: puzzleJson()}, "Checking");
  if (!data) return;
  state.checked = true;
  const words = {unique: "Unique solution", multiple: "NOT unique: more than one solution", none: "No solution"};
  showResult(`<div class="verdict" id="verdict">${esc(words[data.verdict] || "No verdict: " + data.timeout)}</div>` +
             (data.rating ? `<div id="rating">Difficulty: ${esc(data.rating)}</div>` : "") +
             `<pre id="report">${esc(data.report.split("\n").filter((l) => !/^\s*difficulty:/.test(l)).join("\n"))}</pre>`);
  state.marks = {amb: data.ambiguous, sw: data.switches};
  if (!state.drawing && data.solutions.length) state.grid = fromStrings(data.solutions[0], state.palette);
  stopReplay(); $("replay").hidden = true;  // the board shows the drawing (or solution) again
  render();
  const pair = $("pair"); pair.innerHTML = "";
  if (data.solutions.length > 1) {
    data.solutions.forEach((s) => pair.appendChild(gridTable(fromStrings(s, state.palette), null, true)));
  }
  const marks = [];
  if (data.ambiguous.length) marks.push(`${data.ambiguous.length} ambiguous cell(s) are outlined in orange`);
  if (data.switches.length) marks.push(`${data.switches.length} 2×2 switch(es) of the picture are dashed in pink`);
  note(`Checked in ${data.seconds} s.` + (marks.length ? " " + marks.join("; ") + "." : ""));
}

async function solve() {
  const data = await ask("/api/solve", {puzzle: puzzleJson()}, "Solving");
  if (!data) return;
  state.steps = data.steps;
  state.marks = {amb: [], sw: []};
  markCells();
  const first = data.first_found;
  const words = {unique: "Unique solution", none: "No solution",
                 multiple: "More than one solution: the first is shown"};
  const replay = data.replay_complete
    ? `The native solver's ${data.steps.length} step(s)` + (data.dropped ? ` (${data.dropped} more in the middle, shown as one)` : "") + ` in ${data.replay_seconds} s.`
    : `The replay shows the native solver's first ${data.replay_seconds} s: ${data.steps.length} step(s)` +
      (data.dropped ? ` (${data.dropped} more in the middle, shown as one)` : "") + `, its search not finished.`;
  showResult(`<div class="verdict" id="verdict">${esc(words[data.verdict] || "Search incomplete: " + data.ending)}</div>` +
             `<div id="answered">Solved in ${data.seconds} s.</div>` +
             (data.verdict === "multiple" && first !== null && first !== undefined ?
               `<div id="whichstep">The first solution is complete at step ${first + 1}; the steps after it find the second.</div>` : "") +
             `<div id="replayed">${esc(replay)}</div>`);
  if (!state.drawing) state.solution = data.solutions[0] ? fromStrings(data.solutions[0], state.palette) : null;
  $("replay").hidden = false;
  $("pair").innerHTML = "";
  state.replayGrid = blank(state.width, state.height, null); state.at = -1;
  if (!data.replay_complete && data.solutions.length) {
    // the replay stopped short of the answer: the board shows the answer until a step is asked
    showAnswer(data.solutions[0]);
    note("The board shows the solution; step through the replay's start with the buttons, or press play.");
  } else {
    showStep(first !== null && first !== undefined ? first : state.steps.length - 1);
    note("Step through the solver's reasoning with the buttons, or press play.");
  }
}

function showAnswer(strings) {
  const table = $("grid");
  fromStrings(strings, state.palette).forEach((row, r) =>
    row.forEach((v, c) => paintCell(table.rows[r + 1].cells[c + 1], v)));
  state.showingAnswer = true;
  $("stepno").textContent = `the solution (the replay: ${state.steps.length} step(s))`;
  $("steptext").textContent = "";
}

function showStep(i) {
  if (!state.steps.length) { $("stepno").textContent = "no steps"; return; }
  const target = Math.max(0, Math.min(i, state.steps.length - 1));
  const grid = state.replayGrid, table = $("grid");
  const set = (r, c, v) => { grid[r][c] = v; paintCell(table.rows[r + 1].cells[c + 1], v); };
  if (state.showingAnswer) {  // the answer was shown: the replay's own board again
    state.showingAnswer = false;
    grid.forEach((row, r) => row.forEach((v, c) => paintCell(table.rows[r + 1].cells[c + 1], v)));
  }
  while (state.at < target) {  // forward: each step's changes, as the solver made them
    state.at++;
    for (const [r, c, , now] of state.steps[state.at].changes) set(r, c, now < 0 ? null : now);
  }
  while (state.at > target) {  // back: undone, last first
    const changes = state.steps[state.at].changes;
    for (let k = changes.length - 1; k >= 0; k--) {
      const [r, c, was] = changes[k];
      set(r, c, was < 0 ? null : was);
    }
    state.at--;
  }
  const step = state.steps[state.at];
  document.querySelectorAll("#grid td.cell.focus").forEach((td) => td.classList.remove("focus"));
  if (step.line) {
    const [axis, k] = step.line;
    document.querySelectorAll(axis === 0 ? `#grid td.cell[data-r="${k}"]` : `#grid td.cell[data-c="${k}"]`)
      .forEach((td) => td.classList.add("focus"));
  }
  $("stepno").textContent = `step ${state.at + 1} of ${state.steps.length}`;
  $("steptext").textContent = step.text;
}

function stopReplay() {
  if (state.timer) { clearInterval(state.timer); state.timer = null; $("play").textContent = "play"; }
}

function play() {
  if (state.timer) { stopReplay(); return; }
  if (state.at >= state.steps.length - 1) showStep(0);
  $("play").textContent = "pause";
  state.timer = setInterval(() => {
    if (state.at >= state.steps.length - 1) { stopReplay(); return; }
    showStep(state.at + 1);
  }, 120);
}

async function count() {
  const data = await ask("/api/count", {puzzle: puzzleJson()}, "Counting");
  if (!data) return;
  const said = data.estimate ? esc(data.estimate)  // an estimate reads as one, never as a count
    : `${esc(data.count)}${data.complete ? "" : "+"} solution(s)`;
  showResult(`<div class="verdict" id="counted">${said}</div>` +
             `<div id="howcounted">${esc(data.describe)}</div>`);
  note(`Counted in ${data.seconds} s.`);
}

async function exportIt() {
  const data = await ask("/api/export", {puzzle: puzzleJson(), what: $("exportwhat").value}, "Exporting");
  if (!data) return;
  const content = data.base64 ? Uint8Array.from(atob(data.text), (ch) => ch.charCodeAt(0)) : data.text;
  const url = URL.createObjectURL(new Blob([content], {type: data.type}));
  const a = document.createElement("a");
  a.href = url; a.download = data.name; a.id = "download";
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  note(`Exported ${data.name}.`);
  state.exported = data;
}

async function openFile(file) {
  const buf = new Uint8Array(await file.arrayBuffer());
  let bin = "";
  for (let i = 0; i < buf.length; i += 8192) bin += String.fromCharCode.apply(null, buf.subarray(i, i + 8192));
  const body = {name: file.name, data: btoa(bin)};
  const data = await ask("/api/open", body, "Opening " + file.name);
  if (data && data.fit) { offerFit(data, body, file.name); return; }
  if (data) opened(data, body);
}

// One puzzle of a file that holds several, chosen by number (what was opened is kept).
async function openWhich() {
  const k = $("which").value;
  const data = await ask("/api/open", Object.assign({}, state.source, {index: k}),
                         `Opening puzzle ${k} of ${state.source.name}`);
  if (data) opened(data, state.source);
}

// The list of a file's puzzles: shown when it holds several, the open one chosen.
function fillWhich(p) {
  const select = $("which");
  select.hidden = !p.puzzles;
  if (!p.puzzles) { select.innerHTML = ""; return; }
  select.innerHTML = "";
  p.puzzles.forEach((title, i) => {
    const o = document.createElement("option");
    o.value = String(i + 1); o.textContent = title;
    select.appendChild(o);
  });
  select.value = String(p.index);
}

// A picture larger than the server takes: say so, and offer it scaled to fit.
function offerFit(data, body, name) {
  const [w, h] = data.fit;
  note(data.error + ".", true);
  const b = document.createElement("button");
  b.id = "fit"; b.textContent = `Scale it to ${w}×${h}`;
  b.onclick = async () => {
    b.remove();
    const scaled = await ask("/api/open", Object.assign({}, body, {fit: "yes"}), `Opening ${name} at ${w}×${h}`);
    if (scaled && !scaled.fit) opened(scaled);
  };
  $("message").appendChild(document.createTextNode(" "));
  $("message").appendChild(b);
}

// Export offers the formats that can hold this puzzle: black-and-white formats only for
// a black-and-white one.
function fillExports() {
  const select = $("exportwhat");
  const was = select.value;
  const colour = state.palette.length > 2;
  select.innerHTML = "";
  for (const e of state.exports) {
    if (colour && !e.colour) continue;
    const o = document.createElement("option");
    o.value = e.what; o.textContent = e.label;
    select.appendChild(o);
  }
  if ([...select.options].some((o) => o.value === was)) select.value = was;
}

async function openText() {
  const text = $("paste").value;
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (let i = 0; i < bytes.length; i += 8192) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
  const body = {name: "pasted", data: btoa(bin)};
  const data = await ask("/api/open", body, "Opening the text");
  if (data) opened(data, body);
}

// a side typed in: a whole number in the box's range, or said to be wrong (a width of -3
// silently became 1)
function side(id) {
  const box = $(id), v = Number(box.value), most = Number(box.max) || 200;
  if (box.value.trim() === "" || !Number.isInteger(v) || v < 1 || v > most) {
    note(`The ${id} must be a whole number from 1 to ${most}, not "${box.value}".`, true);
    return null;
  }
  return v;
}

function newDrawing() {
  const w = side("width"), h = w === null ? null : side("height");
  if (w === null || h === null) return;
  if (w * h > state.cells) {
    note(`${w}×${h} is ${w * h} cells; this server checks, solves and counts puzzles of up to ${state.cells} cells (satnono serve --max-cells N).`, true);
    return;
  }
  remember();
  state.width = w; state.height = h; state.drawing = true; state.json = null; state.title = "";
  fillWhich({}); state.source = null;
  state.grid = blank(w, h, 0);
  state.clues = cluesOf(state.grid);
  state.marks = {amb: [], sw: []}; state.checked = false;
  stopReplay(); $("replay").hidden = true; $("result").innerHTML = ""; $("pair").innerHTML = "";
  render(); fillExports();
  note(`A blank ${w}×${h} drawing: click and drag to paint.`);
}

function addColour() {
  const rgb = $("newcolour").value.replace("#", "");
  if (state.palette.some((p) => p.rgb === rgb)) return;
  const i = state.palette.length;
  if (i > CHARS.length) { note("The palette is full.", true); return; }
  remember();
  state.palette.push({name: "colour" + i, char: CHARS[i - 1], rgb: rgb});
  state.ink = i;
  if (state.drawing) { state.clues = cluesOf(state.grid); render(); } else renderPalette();
  fillExports();
}

async function start() {
  try {
    const info = await (await fetch("/api/info")).json();
    state.limit = info.timeout; state.cells = info.cells; state.exports = info.exports;
    $("limit").textContent = `time limit ${info.timeout} s a request, puzzles up to ${info.cells} cells`;
    const side = Math.min(200, info.cells);
    $("width").max = side; $("height").max = side;
  } catch (err) { note("The server did not answer: " + err, true); }
  $("new").onclick = newDrawing;
  $("addcolour").onclick = addColour;
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("zoomin").onclick = () => zoom(4);
  $("zoomout").onclick = () => zoom(-4);
  undoButtons();
  $("check").onclick = check;
  $("solve").onclick = solve;
  $("count").onclick = count;
  $("export").onclick = exportIt;
  $("cancel").onclick = cancelRunning;
  $("file").onchange = (e) => { if (e.target.files[0]) openFile(e.target.files[0]); };
  $("showpaste").onclick = () => { $("pastebox").hidden = !$("pastebox").hidden; };
  $("openpaste").onclick = openText;
  $("which").onchange = openWhich;
  $("first").onclick = () => { stopReplay(); showStep(0); };
  $("width").title = $("height").title = "at most 200 a side, and the server's cell limit in all";
  $("back").onclick = () => { stopReplay(); showStep(state.at - 1); };
  $("step").onclick = () => { stopReplay(); showStep(state.at + 1); };
  $("last").onclick = () => { stopReplay(); showStep(state.steps.length - 1); };
  $("play").onclick = play;
  document.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dragging"); });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", (e) => {
    e.preventDefault(); document.body.classList.remove("dragging");
    if (e.dataTransfer.files[0]) openFile(e.dataTransfer.files[0]);
  });
  newDrawing();
  note("Draw a picture (click and drag), or open a puzzle file (or drop one here).");
}

start();
