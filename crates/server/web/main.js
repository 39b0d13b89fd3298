// The page: wires the controls to the game, and opens the game in the address. No framework,
// no build step: the browser loads this ES module and the modules it imports.

import { Ttt, Oth } from "./rules.js";
import { input, settings } from "./settings.js";
import { game, goBack, goForward, goTo, isOver, lastMoveIndex, legalMoves, obfText, playIndex, plyToMove, pos, transcriptText } from "./game.js";
import { analyses, connect, fetchRetry, key, refusal, shown } from "./api.js";
import { refresh, step, stopStep } from "./step.js";
import { render } from "./render.js";
import { workText } from "./render/status.js";
import { loadUrl } from "./address.js";
import { savePicture } from "./picture.js";
import "./explorer.js";

const $ = (id) => document.getElementById(id);

// Steps back or forward a move, as the game's history allows.
function undo() {
  $("move-note").textContent = "";
  if (goBack()) refresh();
}

function redo() {
  $("move-note").textContent = "";
  if (goForward()) refresh();
}

function newGame() {
  stopStep();
  const start = settings.game === "ttt" ? Ttt.start(settings.first) : Oth.start(settings.size);
  setGame([start], []);
}

// Puts a game on the board: its positions and the moves between them, at its last position.
function setGame(history, labels) {
  stopStep();
  game.plyNotes.clear();
  game.history = history;
  game.labels = labels;
  game.at = history.length - 1;
  const n = settings.game === "ttt" ? 3 : settings.size;
  if (input.cursor >= n * n) input.cursor = 0;
  $("paste-error").textContent = "";
  refresh();
}

// Empties the board for setting up a position (Analyze mode).
function clearBoard() {
  const p = pos();
  input.paint = "X";
  setGame([{ ...p, cells: p.cells.map(() => "."), turn: p.game === "ttt" ? p.first : p.turn }], []);
}

// Reads a pasted text on the server, with the reader the command line uses, and loads the
// game it describes (on the board size it is written for); a text the server refuses shows
// its message and changes nothing.
async function loadPaste(text, at = null) {
  const err = $("paste-error");
  err.textContent = "";
  const onBusy = (message) => { err.textContent = message; };
  try {
    if (settings.game === "ttt") {
      const r = await fetchRetry(`/api/ttt/analyze?board=${encodeURIComponent(text)}&first=${settings.first.toLowerCase()}`, { onBusy });
      if (!r.ok) throw new Error(await refusal(r));
      const body = await r.json();
      const cells = [...body.position.board];
      input.paint = "play";
      setGame([{ game: "ttt", cells, first: settings.first, turn: body.position.toMove }], []);
    } else {
      const r = await fetchRetry(`/api/othello/position?size=${settings.size}&text=${encodeURIComponent(text)}`, { onBusy });
      if (!r.ok) throw new Error(await refusal(r));
      const body = await r.json();
      settings.size = body.size;
      input.paint = "play";
      const history = body.positions.map((q) => ({ game: "othello", size: body.size, cells: [...q.position].map((c) => (c === "-" ? "." : c)), turn: q.turn }));
      setGame(history, body.moves);
      // A game picked in the explorer opens where the board was, not at its end.
      if (at !== null && goTo(at)) refresh();
    }
  } catch (e) {
    err.textContent = e.message;
  }
}

function clickCell(i) {
  input.cursor = i;
  const p = pos();
  if (settings.mode === "analyze" && input.paint !== "play") {
    const cells = p.cells.slice();
    cells[i] = input.paint;
    let next = { ...p, cells };
    if (p.game === "ttt") {
      const f = cells.filter((c) => c === p.first).length;
      const s = cells.filter((c) => c !== "." && c !== p.first).length;
      next.turn = f > s ? (p.first === "X" ? "O" : "X") : p.first;
    }
    game.history = [next];
    game.labels = [];
    game.at = 0;
    refresh();
    return;
  }
  play(i);
}

// Plays the move on square `i` of the position on the board, or says why it cannot.
function play(i) {
  const p = pos();
  const note = $("move-note");
  note.textContent = "";
  const name = p.game === "ttt" ? Ttt.name(i) : Oth.name(p, i);
  let why = null;
  if (isOver(p)) why = "the game is over";
  else if (plyToMove(p)) why = "it is ply's move";
  else if (analyses.invalid.has(key(p))) why = "the position on the board is not a legal one";
  else if (!legalMoves(p).includes(i)) {
    why = p.cells[i] !== "." ? `${name} is taken` : `${name} is not a legal move for ${p.game === "ttt" ? p.turn : p.turn === "X" ? "Black" : "White"}`;
  }
  if (why) {
    note.textContent = p.game === "ttt" || !why.startsWith(name) ? `Cannot play ${name}: ${why}` : why;
    const cell = document.querySelector(`.cell[data-index="${i}"]`);
    if (cell) {
      cell.classList.remove("refused");
      void cell.offsetWidth; // restart the shake
      cell.classList.add("refused");
    }
    return;
  }
  if (playIndex(i)) refresh();
}

async function copy(text, what) {
  const note = $("copy-note");
  try {
    await navigator.clipboard.writeText(text);
    note.textContent = `Copied the ${what}: ${text || "(no moves yet)"}`;
  } catch (e) {
    note.textContent = `Could not copy the ${what} (${e.message}): ${text}`;
  }
}

function wire() {
  document.querySelectorAll("[data-game]").forEach((b) => b.addEventListener("click", () => { settings.game = b.dataset.game; newGame(); }));
  document.querySelectorAll("[data-first]").forEach((b) => b.addEventListener("click", () => { settings.first = b.dataset.first; newGame(); }));
  document.querySelectorAll("[data-size]").forEach((b) => b.addEventListener("click", () => { settings.size = Number(b.dataset.size); newGame(); }));
  // A change of mode keeps the game: review the game just played, or play ply from a
  // pasted or set-up position.
  document.querySelectorAll("[data-mode]").forEach((b) => b.addEventListener("click", () => {
    settings.mode = b.dataset.mode;
    input.paint = "play";
    $("paste-error").textContent = "";
    refresh();
  }));
  document.querySelectorAll("[data-human]").forEach((b) => b.addEventListener("click", () => { settings.human = b.dataset.human; refresh(); }));
  document.querySelectorAll("[data-paint]").forEach((b) => b.addEventListener("click", () => { input.paint = b.dataset.paint; render(); }));
  document.querySelectorAll("[data-turn]").forEach((b) => b.addEventListener("click", () => {
    const p = pos();
    if (p.game === "ttt") return;
    game.history = [{ ...p, turn: b.dataset.turn }];
    game.labels = [];
    game.at = 0;
    refresh();
  }));
  $("budget").addEventListener("change", (e) => { settings.budget = Number(e.target.value); analyses.errors.clear(); refresh(); });
  $("level").addEventListener("change", (e) => { settings.level = e.target.value; refresh(); });
  $("clear-board").addEventListener("click", clearBoard);
  $("copy-link").addEventListener("click", () => copy(location.href, "link"));
  $("copy-transcript").addEventListener("click", () => copy(transcriptText(), "transcript"));
  $("copy-obf").addEventListener("click", () => copy(obfText(), "OBF line"));
  // picture.js: the board as an SVG file, with the values when they are shown.
  $("save-picture").addEventListener("click", () => savePicture(pos(), settings.showValues ? shown(pos()) : null, game.at > 0 ? lastMoveIndex() : -1, $("copy-note")));
  $("show-values").addEventListener("change", (e) => { settings.showValues = e.target.checked; refresh(); });
  $("new-game").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("board").addEventListener("click", (e) => {
    if (e.detail > 0) input.keyboard = false;
    const cell = e.target.closest(".cell");
    if (cell) clickCell(Number(cell.dataset.index));
  });
  // A point of the chart, or a move of the list, puts its position on the board.
  for (const id of ["chart", "moves"]) {
    $(id).addEventListener("click", (e) => {
      const pt = e.target.closest("[data-ply]");
      if (pt && goTo(Number(pt.dataset.ply))) refresh();
    });
  }
  $("paste-form").addEventListener("submit", (e) => {
    e.preventDefault();
    loadPaste($("paste").value);
  });
  document.addEventListener("keydown", onKey);
  // The explorer's rows play their move; its games load onto the board.
  document.addEventListener("ply:play", (e) => {
    const p = pos();
    if (p.game === "othello") play(Oth.index(p, e.detail.move));
  });
  document.addEventListener("ply:load", (e) => loadPaste(e.detail.moves, e.detail.at));
}

function onKey(e) {
  const tag = (e.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return;
  const p = pos();
  const n = p.game === "ttt" ? 3 : p.size;
  const k = e.key;
  const ctrl = e.ctrlKey || e.metaKey;
  let handled = true;
  // On the board (a square has the keyboard's focus) the arrows move the cursor; elsewhere
  // ←/→ step through the game and Home/End go to its start and its end, as in any game
  // viewer.
  const onBoard = input.keyboard && document.activeElement && document.activeElement.closest && document.activeElement.closest("#board");
  if ((ctrl && k === "z") || (!ctrl && k === "u")) undo();
  else if ((ctrl && k === "y") || (!ctrl && k === "r")) redo();
  else if (!onBoard && !ctrl && k === "ArrowLeft") undo();
  else if (!onBoard && !ctrl && k === "ArrowRight") redo();
  else if (!ctrl && k === "Home") { if (goTo(0)) refresh(); }
  else if (!ctrl && k === "End") { if (goTo(game.history.length - 1)) refresh(); }
  else if (!ctrl && k === "n") newGame();
  else if (!ctrl && k === "v") { settings.showValues = !settings.showValues; $("show-values").checked = settings.showValues; refresh(); }
  else if (k.startsWith("Arrow")) {
    input.keyboard = true;
    const c = input.cursor % n, r = Math.floor(input.cursor / n);
    const [dc, dr] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[k];
    input.cursor = ((r + dr + n) % n) * n + ((c + dc + n) % n);
    render();
    const cell = document.querySelector(`.cell[data-index="${input.cursor}"]`);
    if (cell) cell.focus();
  } else if (k === "Enter" || k === " ") {
    if (e.target.closest && e.target.closest("button:not(.cell)")) return;
    input.keyboard = true;
    clickCell(input.cursor);
    const cell = document.querySelector(`.cell[data-index="${input.cursor}"]`);
    if (cell) cell.focus();
  } else if (p.game === "ttt" && /^[1-9]$/.test(k) && !ctrl) {
    // A square named by its digit: the keyboard is on the board from here on.
    input.keyboard = true;
    clickCell(Number(k) - 1);
    const cell = document.querySelector(`.cell[data-index="${input.cursor}"]`);
    if (cell) cell.focus();
  }
  else handled = false;
  if (handled) e.preventDefault();
}

// Keeps the "Analyzing" line of a long search moving.
setInterval(() => {
  const p = pos();
  if (p) $("work").textContent = settings.showValues || plyToMove(p) ? workText(p) : "";
}, 250);

connect({ render, step, refresh });
wire();
const problems = loadUrl();
if (problems === null) newGame();
else {
  render();
  step();
  $("paste-error").textContent = problems.join("; ");
}
