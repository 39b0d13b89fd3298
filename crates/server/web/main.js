// The page: state, rendering, and talking to the JSON API. No framework, no build step: the
// browser loads this ES module and the modules it imports.

import { Ttt, Oth } from "./rules.js";
import { savePicture } from "./picture.js";
import "./explorer.js";

const $ = (id) => document.getElementById(id);

const S = {
  game: "ttt",
  first: "X",
  size: 8,
  mode: "play",
  human: "X",
  level: "strongest",
  seed: Math.floor(Math.random() * 2 ** 31),
  budget: 1000,
  showValues: true,
  paint: "play",
  history: [],
  labels: [],
  ply: 0,
  cursor: 4,
  cache: new Map(),
  errors: new Map(),
  inflight: new Set(),
  // Requests in flight by key, to stop the ones nobody waits for any more.
  aborts: new Map(),
  // Set-up positions the server refused, by key: the server's message.
  invalid: new Map(),
  checked: new Set(),
  // Requests waiting out a busy server, by key: what to say meanwhile.
  busy: new Map(),
  // When each analysis in flight started, by key: the page shows that it is working.
  started: new Map(),
  // How ply chose its move after each ply index, for an honest word on its level.
  plyNotes: new Map(),
};

// Game review: every position of the game gets a quick first analysis of this budget, then
// one at the "Think" setting.
const QUICK_MS = 200;
// How often a request turned away by a busy server (503) is tried again.
const BUSY_RETRIES = 5;

// How "Play ply" chooses: how long it thinks and which moves it may play, as the lowest
// worth a move may have given the best one's (tic-tac-toe: a rank, 100 - moves to a win,
// 0 a draw, -100 + moves to a loss; Othello: discs). The strongest level plays the best move;
// the others pick at random (a seeded draw, so a link with `seed=` replays the same game)
// among the moves at or above the floor.
const LEVELS = {
  beginner: { budget: 100, floor: { ttt: () => -Infinity, othello: (best) => best - 24 } },
  casual: { budget: 300, floor: { ttt: (best) => Math.min(best, 0), othello: (best) => best - 6 } },
  strongest: { budget: null, floor: null },
};

const rules = () => (S.game === "ttt" ? Ttt : Oth);
const pos = () => S.history[S.ply];
const atTip = () => S.ply === S.history.length - 1;
const colorName = (c) => (S.game === "ttt" ? c : c === "X" ? "Black" : "White");

// The search budget an analysis of `p` gets: the level's when ply chooses its move, the
// "Think" setting otherwise.
function budgetFor(p) {
  const level = LEVELS[S.level];
  return S.mode === "play" && p.turn !== S.human && level.budget ? level.budget : S.budget;
}

function keyAt(p, budget) {
  return p.game === "ttt" ? `t|${p.first}|${p.cells.join("")}` : `o|${p.size}|${p.cells.join("")}|${p.turn}|${budget}`;
}

function key(p) {
  return keyAt(p, budgetFor(p));
}

// The analysis to show on the board: the one at the position's budget, or the quick pass's
// while that one is still shallower.
function shown(p) {
  const full = S.cache.get(key(p));
  const quick = p.game === "othello" ? S.cache.get(keyAt(p, QUICK_MS)) : null;
  if (!quick || (full && (full.final || !quick.final || full.depth >= quick.depth))) return full;
  return quick;
}

// A finished analysis of `p`, the deepest there is (the game review reads only these).
function settled(p) {
  const full = S.cache.get(key(p));
  if (full && full.final) return full;
  const quick = p.game === "othello" ? S.cache.get(keyAt(p, QUICK_MS)) : null;
  return quick && quick.final ? quick : null;
}

function isOver(p) {
  return p.game === "ttt" ? Ttt.isOver(p) : Oth.isOver(p);
}

function legalMoves(p) {
  return p.game === "ttt" ? Ttt.moves(p) : Oth.moves(p);
}

// ---- analysis -------------------------------------------------------------------------

function url(p, budget) {
  if (p.game === "ttt") {
    return `/api/ttt/analyze?board=${p.cells.join("")}&first=${p.first.toLowerCase()}`;
  }
  return `/api/othello/analyze/stream?size=${p.size}&position=${p.cells.join("")}&turn=${p.turn}&budget_ms=${budget}`;
}

const sleep = (ms, signal) => new Promise((ok, fail) => {
  const t = setTimeout(ok, ms);
  if (signal) signal.addEventListener("abort", () => { clearTimeout(t); fail(new DOMException("stopped", "AbortError")); }, { once: true });
});

// Fetches `u`; when the server is busy (503), waits the `Retry-After` it gives (1 to 30 s)
// and tries again, a bounded number of times, telling `onBusy` each time.
async function fetchRetry(u, { signal, onBusy } = {}) {
  for (let tries = 1; ; tries++) {
    const r = await fetch(u, { signal });
    if (r.status !== 503 || tries > BUSY_RETRIES) return r;
    const wait = Math.min(30, Math.max(1, Number(r.headers.get("Retry-After")) || 1));
    if (onBusy) onBusy(`The server is busy, retrying in ${wait} s (${tries} of ${BUSY_RETRIES})`);
    await sleep(wait * 1000, signal);
  }
}

// A server message in the words of the page: the API's parameter names are not the user's.
function plain(message) {
  const words = { text: "the text", board: "the board", position: "the position", size: "the board size", turn: "the side to move", budget_ms: "the thinking time" };
  const out = message
    .replace(/^`(\w+)`: /, "")
    .replace(/`(text|board|position|size|turn|budget_ms)`/g, (_, w) => words[w]);
  return out.charAt(0).toUpperCase() + out.slice(1);
}

// A server's refusal as a message for the page.
async function refusal(r) {
  if (r.status === 503) return "The server is busy: try again in a moment";
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  return plain(body.error || `HTTP ${r.status}`);
}

// Reads an answer into one shape for both games: the value for X/black (for the chart), and
// per move index the text, class and score to draw.
function normalize(p, a) {
  const moves = new Map();
  if (p.game === "ttt") {
    const rank = (m) => (m.value === "win" ? 100 - m.remoteness : m.value === "tie" ? 0 : -100 + m.remoteness);
    let best = null;
    for (const m of a.moves) {
      const letter = m.value === "win" ? "W" : m.value === "tie" ? "D" : "L";
      moves.set(m.move, { text: letter, sub: String(m.remoteness), cls: m.value, rank: rank(m), exact: true });
      if (best === null || rank(m) > moves.get(best).rank) best = m.move;
    }
    const sign = p.turn === "X" ? 1 : -1;
    const v = a.positionValue === "win" ? 1 : a.positionValue === "lose" ? -1 : 0;
    const words = { win: "wins", lose: "loses", tie: "draws" };
    const desc = isOver(p)
      ? ""
      : `${p.turn} ${words[a.positionValue]}${a.positionValue === "tie" ? "" : ` in ${a.remoteness}`} with perfect play`;
    return { value: sign * v, exact: true, moves, best, desc, depth: 0, line: [] };
  }
  let bestScore = -Infinity;
  for (const m of a.moves) bestScore = Math.max(bestScore, m.score);
  let best = null;
  for (const m of a.moves) {
    const i = Oth.index(p, m.move);
    // An estimate's tenths matter only near zero; beyond, they would crowd a phone's tile.
    const shown = Number.isInteger(m.score) ? String(m.score) : Math.abs(m.score) >= 10 ? m.score.toFixed(0) : m.score.toFixed(1);
    const text = (m.exact ? "" : "~") + (m.score > 0 ? "+" : "") + shown;
    moves.set(i, { text, cls: m.exact ? "exact" : "estimate", score: m.score, gap: bestScore - m.score, exact: m.exact });
    if (m.move === a.best) best = i;
  }
  const sign = p.turn === "X" ? 1 : -1;
  let desc = "";
  let proven = false;
  if (a.status !== "over") {
    const forBlack = sign * a.score;
    const who = forBlack > 0 ? "Black" : forBlack < 0 ? "White" : "";
    const amount = Math.abs(forBlack);
    const shown = Number.isInteger(amount) ? amount : amount.toFixed(1);
    // The report says whether the position's score is proven, even while other moves are
    // still estimates (the solver or the book proves the position first).
    proven = a.proven;
    desc = proven
      ? (who ? `${who} wins by ${shown} with perfect play` : "a draw with perfect play")
      : a.confidence != null
        ? `selective @ ${a.confidence}%: ${who ? `${who} +${shown}` : "even"} (the solver's selective search to the end)`
        : a.engine === "book"
          ? `book: ${who ? `${who} +${shown}` : "even"} (depth ${a.depth})`
          : `estimate: ${who ? `${who} +${shown}` : "even"} (depth ${a.depth})`;
    if (a.best) desc = `best ${a.best}: ${desc}`;
  }
  const book = a.moves.some((m) => m.move === a.best && m.book);
  return { value: sign * a.score, exact: a.all_exact, proven, moves, best, book, desc, depth: a.depth, nodes: a.nodes, line: a.line || [] };
}

// Reads a Server-Sent Events body, calling `on(event, data)` for each event as it comes.
async function readEvents(response, on) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data += line.slice(5).trim();
      }
      if (data) on(event, JSON.parse(data));
    }
  }
}

// Asks the server for the value of every move of `p` within `budget` ms (the position's
// own budget unless told). Othello analyses stream: every snapshot replaces the last
// (estimates first, then exact values as the solver finds them, the best move first); the
// entry is `final` once the analysis is done.
function request(p, budget = budgetFor(p)) {
  const k = keyAt(p, budget);
  if ((S.cache.has(k) && S.cache.get(k).final) || S.inflight.has(k) || S.errors.has(k) || S.invalid.has(k)) return;
  S.inflight.add(k);
  S.started.set(k, performance.now());
  const abort = new AbortController();
  S.aborts.set(k, abort);
  render();
  const onBusy = (text) => { S.busy.set(k, text); render(); };
  fetchRetry(url(p, budget), { signal: abort.signal, onBusy })
    .then(async (r) => {
      S.busy.delete(k);
      S.started.set(k, performance.now());
      if (!r.ok) throw new Error(await refusal(r));
      if (p.game === "ttt") {
        S.cache.set(k, { ...normalize(p, await r.json()), final: true });
        return;
      }
      await readEvents(r, (event, body) => {
        S.cache.set(k, { ...normalize(p, body), final: event === "done" });
        render();
      });
      if (!(S.cache.get(k) || {}).final) throw new Error("the analysis stopped before its end");
    })
    .catch((e) => {
      if (e.name !== "AbortError") S.errors.set(k, e.message);
    })
    .finally(() => {
      S.inflight.delete(k);
      S.aborts.delete(k);
      S.busy.delete(k);
      S.started.delete(k);
      render();
      step();
    });
}

// Stops every analysis in flight but the one of the position on the board.
function abortOthers() {
  const p = pos();
  const keep = p ? [key(p), keyAt(p, QUICK_MS)] : [];
  for (const [k, a] of S.aborts) if (!keep.includes(k)) a.abort();
}

// Asks the server whether a set-up position can occur (the server and the CLI read
// positions with one reader and one set of rules; the page does not keep a second copy).
function checkSetup(p) {
  const k = key(p);
  if (S.checked.has(k)) return;
  S.checked.add(k);
  const u = p.game === "ttt"
    ? `/api/ttt/analyze?board=${p.cells.join("")}&first=${p.first.toLowerCase()}`
    : `/api/othello/position?size=${p.size}&text=${encodeURIComponent(`${p.cells.join("")} ${p.turn}`)}`;
  fetchRetry(u)
    .then(async (r) => {
      if (r.ok) return;
      if (r.status === 503) S.checked.delete(k);
      else S.invalid.set(k, await refusal(r));
    })
    .catch((e) => S.invalid.set(k, e.message))
    .finally(refresh);
}

const isStart = (p) => {
  const s = p.game === "ttt" ? Ttt.start(p.first) : Oth.start(p.size);
  return s.cells.join("") === p.cells.join("") && s.turn === p.turn;
};

// ---- playing --------------------------------------------------------------------------

function plyToMove(p) {
  return S.mode === "play" && !isOver(p) && p.turn !== S.human;
}

// A number in [0, 1) from the seed and the ply: the same game replays the same choices.
function draw(seed, ply) {
  let h = (seed ^ Math.imul(ply + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

// The move ply plays at its level: the best, or one drawn among the moves close to it.
function plyChoice(p, a) {
  const floor = LEVELS[S.level].floor;
  if (!floor) return a.best;
  const worth = (v) => (p.game === "ttt" ? v.rank : v.score);
  const lowest = floor[p.game](worth(a.moves.get(a.best)));
  const near = [...a.moves.entries()].filter(([, v]) => worth(v) >= lowest).map(([i]) => i).sort((x, y) => x - y);
  return near.length ? near[Math.floor(draw(S.seed, S.history.length) * near.length)] : a.best;
}

function push(next, label) {
  for (const k of S.plyNotes.keys()) if (k >= S.ply) S.plyNotes.delete(k);
  S.history = S.history.slice(0, S.ply + 1);
  S.labels = S.labels.slice(0, S.ply);
  S.history.push(next);
  S.labels.push(label);
  S.ply += 1;
}

function playIndex(i) {
  const p = pos();
  if (!legalMoves(p).includes(i)) return false;
  if (p.game === "ttt") push(Ttt.play(p, i), Ttt.name(i));
  else push(Oth.play(p, i), Oth.name(p, i));
  return true;
}

// What happens next on its own: a forced pass, ply's reply, and analyses to fetch.
let stepTimer = null;
function step() {
  clearTimeout(stepTimer);
  const p = pos();
  if (!p) return;
  if (atTip() && p.game === "othello" && Oth.mustPass(p)) {
    stepTimer = setTimeout(() => {
      if (pos() === p) {
        push(Oth.pass(p), "pass");
        refresh();
      }
    }, 450);
    return;
  }
  if (S.history.length === 1 && !isStart(p)) checkSetup(p);
  if (S.invalid.has(key(p))) return;
  const wantValues = S.showValues || S.mode !== "play" || plyToMove(p);
  // A game under review (moves on the board, ply not to play) gets the quick pass first,
  // the position on the board before the others, so that the board and the chart fill in
  // seconds; the deeper analysis of the position on the board comes next.
  const review = S.labels.length > 0 && S.mode !== "play";
  const quickDone = (q) => isOver(q) || settled(q) || S.errors.has(keyAt(q, QUICK_MS)) || S.errors.has(key(q));
  if (!isOver(p) && wantValues) {
    if (review && !quickDone(p)) request(p, Math.min(QUICK_MS, budgetFor(p)));
    else if (!review || reviewed().every(quickDone)) request(p);
  }
  const a = S.cache.get(key(p));
  if (atTip() && plyToMove(p) && a && a.final && a.best !== null) {
    stepTimer = setTimeout(() => {
      if (pos() === p && atTip()) {
        const i = plyChoice(p, a);
        const chosen = a.moves.get(i);
        const move = p.game === "ttt" ? Ttt.name(i) : Oth.name(p, i);
        playIndex(i);
        S.plyNotes.set(S.ply - 1, { move, level: S.level, exact: Boolean(chosen && chosen.exact) && i === a.best, book: a.book && i === a.best, depth: a.depth });
        refresh();
      }
    }, 250);
  }
  // Review the game, one analysis at a time: a quick pass over every position first, so that
  // the chart and the cost of every move come within seconds, then each position again at
  // its own budget.
  if (!S.inflight.size) {
    const open = reviewed().filter((q) => !isOver(q));
    const quick = open.find((q) => !quickDone(q));
    if (quick) request(quick, Math.min(QUICK_MS, budgetFor(quick)));
    else {
      const deeper = open.find((q) => !(S.cache.get(key(q)) || {}).final && !S.errors.has(key(q)));
      if (deeper) request(deeper);
    }
  }
}

// The positions of the game the review covers: all of them, but a set-up position the
// server refused.
function reviewed() {
  return S.history.filter((q) => !S.invalid.has(key(q)));
}

function refresh() {
  abortOthers();
  render();
  step();
  saveUrl();
}

function newGame() {
  clearTimeout(stepTimer);
  const start = S.game === "ttt" ? Ttt.start(S.first) : Oth.start(S.size);
  setGame([start], []);
}

// Puts a game on the board: its positions and the moves between them, at its last position.
function setGame(history, labels) {
  clearTimeout(stepTimer);
  S.plyNotes.clear();
  S.history = history;
  S.labels = labels;
  S.ply = history.length - 1;
  const n = S.game === "ttt" ? 3 : S.size;
  if (S.cursor >= n * n) S.cursor = 0;
  $("paste-error").textContent = "";
  refresh();
}

// Empties the board for setting up a position (Analyze mode).
function clearBoard() {
  const p = pos();
  S.paint = "X";
  setGame([{ ...p, cells: p.cells.map(() => "."), turn: p.game === "ttt" ? p.first : p.turn }], []);
}

// Reads a pasted text on the server, with the reader the command line uses, and loads the
// game it describes (on the board size it is written for); a text the server refuses shows
// its message and changes nothing.
async function loadPaste(text) {
  const err = $("paste-error");
  err.textContent = "";
  const onBusy = (message) => { err.textContent = message; };
  try {
    if (S.game === "ttt") {
      const r = await fetchRetry(`/api/ttt/analyze?board=${encodeURIComponent(text)}&first=${S.first.toLowerCase()}`, { onBusy });
      if (!r.ok) throw new Error(await refusal(r));
      const body = await r.json();
      const cells = [...body.position.board];
      S.paint = "play";
      setGame([{ game: "ttt", cells, first: S.first, turn: body.position.toMove }], []);
    } else {
      const r = await fetchRetry(`/api/othello/position?size=${S.size}&text=${encodeURIComponent(text)}`, { onBusy });
      if (!r.ok) throw new Error(await refusal(r));
      const body = await r.json();
      S.size = body.size;
      S.paint = "play";
      const history = body.positions.map((q) => ({ game: "othello", size: body.size, cells: [...q.position].map((c) => (c === "-" ? "." : c)), turn: q.turn }));
      setGame(history, body.moves);
    }
  } catch (e) {
    err.textContent = e.message;
  }
}

function undo() {
  if (S.ply === 0) return;
  S.ply -= 1;
  // Against ply, go back to a position where it is your move.
  while (S.mode === "play" && S.ply > 0 && (pos().turn !== S.human || S.labels[S.ply - 1] === "pass")) S.ply -= 1;
  refresh();
}

function redo() {
  if (atTip()) return;
  S.ply += 1;
  while (S.mode === "play" && !atTip() && pos().turn !== S.human) S.ply += 1;
  refresh();
}

function clickCell(i) {
  S.cursor = i;
  const p = pos();
  if (S.mode === "analyze" && S.paint !== "play") {
    const cells = p.cells.slice();
    cells[i] = S.paint;
    let next = { ...p, cells };
    if (p.game === "ttt") {
      const f = cells.filter((c) => c === p.first).length;
      const s = cells.filter((c) => c !== "." && c !== p.first).length;
      next.turn = f > s ? (p.first === "X" ? "O" : "X") : p.first;
    }
    S.history = [next];
    S.labels = [];
    S.ply = 0;
    refresh();
    return;
  }
  if (isOver(p) || plyToMove(p) || S.invalid.has(key(p))) return;
  if (playIndex(i)) refresh();
}

// ---- rendering ------------------------------------------------------------------------

function valueColor(gap, exact) {
  // Best move green, then through amber to red as the move gives away more discs.
  const t = Math.max(0, Math.min(1, gap / (exact ? 12 : 8)));
  const hue = 140 - 135 * t;
  return `hsl(${hue} ${exact ? 70 : 55}% ${exact ? 30 : 34}%)`;
}

function renderBoard() {
  const p = pos();
  const board = $("board");
  const n = p.game === "ttt" ? 3 : p.size;
  const busy = plyToMove(p) && atTip();
  board.className = `board ${p.game} n${n}${S.keyboard ? " kbd" : ""}${busy ? " busy" : ""}`;
  board.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  board.style.gridTemplateRows = `repeat(${n}, 1fr)`;
  const a = shown(p);
  const invalid = S.invalid.has(key(p));
  const legal = new Set(isOver(p) || invalid ? [] : legalMoves(p));
  const win = p.game === "ttt" ? Ttt.winner(p) : null;
  const last = S.ply > 0 ? lastMoveIndex() : -1;
  const canClick = editing() || (!plyToMove(p) && !isOver(p) && !invalid);
  // Cells are made once per board shape and updated in place, so keyboard focus survives
  // the re-render that follows every answer from the server.
  const shape = `${p.game}${n}`;
  if (board.dataset.shape !== shape || board.children.length !== p.cells.length) {
    board.replaceChildren();
    board.dataset.shape = shape;
    p.cells.forEach((_, i) => {
      const cell = document.createElement("button");
      cell.type = "button";
      cell.dataset.index = i;
      board.append(cell);
    });
  }
  p.cells.forEach((c, i) => {
    const cell = board.children[i];
    cell.className = "cell";
    cell.replaceChildren();
    delete cell.dataset.disc;
    delete cell.dataset.value;
    cell.removeAttribute("aria-disabled");
    cell.tabIndex = i === S.cursor ? 0 : -1;
    const name = p.game === "ttt" ? Ttt.name(i) : Oth.name(p, i);
    let label = name;
    if (c !== ".") {
      const m = document.createElement("span");
      if (p.game === "ttt") {
        m.className = `mark-${c}`;
        m.textContent = c;
      } else {
        m.className = `disc ${c}`;
      }
      cell.dataset.disc = c;
      cell.append(m);
      label += ` ${colorName(c)}`;
    } else if (legal.has(i)) {
      cell.classList.add("legal");
      const v = a && a.moves.get(i);
      if (v && S.showValues) {
        const d = document.createElement("span");
        d.className = `val ${v.cls}`;
        if (p.game === "ttt") {
          d.innerHTML = `${v.text}<small>${v.sub}</small>`;
        } else {
          d.innerHTML = v.exact ? v.text.replace("-", "−") : `<small class="approx">≈</small>${v.text.slice(1).replace("-", "−")}`;
          d.style.color = valueColor(v.gap, v.exact);
          if (i === a.best) d.classList.add("best");
        }
        cell.dataset.value = v.text;
        cell.append(d);
        label += `, value ${v.text}${v.sub ? ` in ${v.sub}` : ""}`;
      } else if (p.game === "othello") {
        const g = document.createElement("span");
        g.className = "ghost";
        cell.append(g);
      }
      label += ", legal move";
    }
    if (win && win.line.includes(i)) cell.classList.add("winline");
    if (i === last) cell.classList.add("last");
    if (i === S.cursor) cell.classList.add("cursor");
    cell.disabled = false;
    cell.setAttribute("aria-label", label);
    if (!canClick) cell.setAttribute("aria-disabled", "true");
  });
  // Coordinates outside the board, along the top and the left, as the move list names
  // squares: value tiles never cover them.
  for (const [id, kind, text] of [["cols", "col", (k) => "abcdefgh"[k]], ["rows", "row", (k) => String(k + 1)]]) {
    const edge = $(id);
    edge.className = `coords ${kind}s ${p.game}`;
    edge.style[kind === "col" ? "gridTemplateColumns" : "gridTemplateRows"] = `repeat(${n}, 1fr)`;
    edge.replaceChildren(...Array.from({ length: n }, (_, k) => coord(kind, text(k))));
  }
}

// Setting up a position: clicks put discs instead of playing.
function editing() {
  return S.mode === "analyze" && S.paint !== "play";
}

function coord(kind, text) {
  const c = document.createElement("span");
  c.className = `coord ${kind}`;
  c.textContent = text;
  c.setAttribute("aria-hidden", "true");
  return c;
}

function lastMoveIndex() {
  const l = S.labels[S.ply - 1];
  if (!l || l === "pass") return -1;
  const p = pos();
  if (p.game === "ttt") return "abc".indexOf(l[0]) + 3 * (Number(l[1]) - 1);
  return Oth.index(p, l);
}

function resultText(p) {
  if (p.game === "ttt") {
    const w = Ttt.winner(p);
    if (!w) return { text: "Draw", lost: false };
    const you = S.mode === "play" ? (w.mark === S.human ? " — you win!" : " — ply wins") : "";
    return { text: `${w.mark} wins${you}`, lost: S.mode === "play" && w.mark !== S.human };
  }
  // The discs on the board, then the score as the values count it: the final disc
  // difference with the empty squares to the winner.
  const x = Oth.count(p, "X"), o = Oth.count(p, "O");
  const empty = p.cells.length - x - o;
  const diff = Oth.finalForBlack(p);
  const winner = diff > 0 ? "X" : diff < 0 ? "O" : null;
  const score = `${Math.abs(diff) > 0 ? "+" : ""}${Math.abs(diff)}${empty ? ` with the ${empty} empty square${empty > 1 ? "s" : ""} to the winner` : ""}`;
  let text = winner ? `${colorName(winner)} wins ${Math.max(x, o)}–${Math.min(x, o)} (${score})` : `Draw ${x}–${o}`;
  if (S.mode === "play" && winner) text += winner === S.human ? " — you win!" : " — ply wins";
  return { text, lost: S.mode === "play" && winner !== null && winner !== S.human };
}

const nodesText = (n) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)} G` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${Math.round(n / 1e3)} k` : String(n));

// What the analysis of the position on the board is doing, while it runs: the depth it has
// reached, the positions searched, the time so far. Updated on a timer, so that a long
// search never looks frozen.
function workText(p) {
  if (p.game !== "othello") return "";
  const budget = [budgetFor(p), QUICK_MS].find((b) => S.inflight.has(keyAt(p, b)));
  const k = keyAt(p, budget);
  if (budget === undefined || S.busy.has(k)) return "";
  const a = S.cache.get(k);
  const secs = ((performance.now() - (S.started.get(k) || performance.now())) / 1000).toFixed(1);
  if (!a) return `Analyzing… ${secs} s`;
  const what = a.proven ? "proven; scoring the other moves exactly" : `depth ${a.depth} done, searching deeper or solving`;
  return `Analyzing: ${what} · ${nodesText(a.nodes || 0)} positions · ${secs} s of ${budget / 1000} s`;
}

// How ply chose the move it played, in honest words: proven best, or the best its search
// found at some depth.
function plyNoteText() {
  const note = S.plyNotes.get(S.ply - 1);
  if (!note || S.mode !== "play") return "";
  if (note.level !== "strongest") return `ply's ${note.move}: a move near the best (${$("level").selectedOptions[0].textContent} level)`;
  if (note.exact) return `ply's ${note.move}: the best move, proven`;
  if (note.book) return `ply's ${note.move}: from the opening book (depth ${note.depth}), not proven`;
  return `ply's ${note.move}: strongest found at depth ${note.depth}, not proven`;
}

function renderStatus() {
  const p = pos();
  const k = key(p);
  const st = $("status");
  const err = S.errors.get(k);
  const invalid = S.invalid.get(k);
  const busy = S.busy.get(k);
  let text;
  let thinking = false;
  if (invalid) text = editing() ? "Setting up — not a position a game can reach yet" : "Not a position a game can reach";
  else if (editing()) text = `Setting up — ${colorName(p.turn)} to move`;
  else if (isOver(p)) text = "Game over";
  else if (p.game === "othello" && Oth.mustPass(p)) text = `${colorName(p.turn)} has no move and passes`;
  else if (plyToMove(p)) {
    text = `ply is thinking (${colorName(p.turn)})`;
    thinking = true;
  } else {
    const you = S.mode === "play" ? " — your move" : "";
    text = `${colorName(p.turn)} to move${you}`;
  }
  st.replaceChildren();
  const span = document.createElement("span");
  span.textContent = text;
  if (thinking || S.inflight.has(k) || S.inflight.has(keyAt(p, QUICK_MS))) span.className = "thinking";
  st.append(span);
  if (err || invalid || busy) {
    const e = document.createElement("span");
    e.className = busy && !err && !invalid ? "busy" : "error";
    e.textContent = plain(invalid || err || busy);
    st.append(e);
  }

  const res = $("result");
  if (isOver(p) && !editing() && !invalid) {
    const r = resultText(p);
    res.hidden = false;
    res.textContent = r.text;
    res.classList.toggle("lost", r.lost);
  } else {
    res.hidden = true;
  }

  const a = shown(p);
  if (p.game === "othello") {
    $("score").textContent = `Black ${Oth.count(p, "X")} – White ${Oth.count(p, "O")}`;
  } else {
    $("score").textContent = "";
  }
  $("eval").textContent = a && S.showValues ? a.desc : "";
  $("work").textContent = S.showValues || plyToMove(p) ? workText(p) : "";
  $("ply-note").textContent = plyNoteText();
  const line = a && S.showValues && a.line.length && !editing() ? a.line : [];
  $("line").hidden = !line.length;
  $("line").textContent = line.length ? `Best line: ${line.slice(0, 16).join(" ")}${line.length > 16 ? " …" : ""}` : "";

  const legend = $("legend");
  legend.innerHTML = p.game === "ttt"
    ? '<span><i style="background:var(--win)"></i>win</span><span><i style="background:var(--tie)"></i>draw</span><span><i style="background:var(--lose)"></i>loss</span><span>number: moves to the end</span>'
    : '<span><i style="background:hsl(140 70% 30%)"></i>best</span><span><i style="background:hsl(5 70% 30%)"></i>worse</span><span>score: final disc difference for the mover</span><span>≈ estimate, else exact</span>';
}

// Keeps the "Analyzing" line of a long search moving.
setInterval(() => {
  const p = pos();
  if (p) $("work").textContent = S.showValues || plyToMove(p) ? workText(p) : "";
}, 250);

// Move numbers as players count them: a pass is not a move.
function moveNumbers() {
  let n = 0;
  return S.labels.map((l) => (l === "pass" ? null : ++n));
}

// Discs as people read them: whole when exact, to a tenth when estimated.
const discText = (d, exact) => (exact || Number.isInteger(d) ? String(d) : d.toFixed(1));

// What every move cost its mover, from the finished analysis of the position before it: the
// best move's score less the score of the move played (Othello, in discs), or a worse
// outcome than the best move's (tic-tac-toe). `null` where that analysis is not in yet;
// `{ pass: true }` for a pass.
function review() {
  return S.labels.map((l, k) => {
    if (l === "pass") return { pass: true };
    const before = S.history[k];
    const a = settled(before);
    if (!a || a.best === null || S.invalid.has(key(before))) return null;
    const played = a.moves.get(before.game === "ttt" ? "abc".indexOf(l[0]) + 3 * (Number(l[1]) - 1) : Oth.index(before, l));
    const best = a.moves.get(a.best);
    if (!played || !best) return null;
    if (before.game === "ttt") {
      const outcome = (v) => Math.sign(v.rank);
      const mistake = outcome(played) < outcome(best);
      return { loss: null, exact: true, mistake, blunder: mistake, best: Ttt.name(a.best) };
    }
    const loss = Math.max(0, best.score - played.score);
    const exact = played.exact && best.exact;
    // Estimates of one search disagree by a few discs: only a clear gap counts as a mistake.
    const mistake = exact ? loss > 0 : loss >= 4;
    return { loss, exact, mistake, blunder: loss >= 10, best: Oth.name(before, a.best) };
  });
}

function lossText(r) {
  if (r.loss === null) return r.mistake ? "?" : "";
  const d = discText(r.loss, r.exact);
  return r.loss === 0 ? "0" : `${r.exact ? "" : "≈"}−${d}`;
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  if (!S.labels.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = "No moves yet.";
    list.append(li);
  }
  const rv = review();
  const numbers = moveNumbers();
  S.labels.forEach((l, k) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    const r = rv[k];
    const mark = r && r.mistake ? (r.blunder ? "??" : "?") : "";
    const cost = r && !r.pass ? lossText(r) : "";
    b.innerHTML = `<span class="n">${numbers[k] === null ? "" : `${numbers[k]}.`}</span>${l}${mark ? `<span class="mark">${mark}</span>` : ""}${cost && S.game === "othello" ? `<span class="loss${r.mistake ? " bad" : ""}">${cost}</span>` : ""}`;
    const who = colorName(S.history[k].turn);
    const what = !r || r.pass ? "" : r.loss === null
      ? (r.mistake ? ` — a worse outcome than ${r.best}` : " — best")
      : r.loss === 0 ? " — best" : ` — ${discText(r.loss, r.exact)} discs ${r.exact ? "" : "(estimated) "}less than ${r.best}`;
    b.title = `${numbers[k] === null ? "" : `${numbers[k]}. `}${who} ${l}${what}`;
    b.addEventListener("click", () => {
      S.ply = k + 1;
      refresh();
    });
    if (k + 1 === S.ply) li.className = "current";
    else if (k + 1 > S.ply) li.className = "future";
    if (r && r.mistake) li.classList.add("slip");
    li.append(b);
    list.append(li);
  });
  // The list scrolls to the current move inside itself; scrollIntoView would scroll the
  // window too, and on a phone move the board off the top of the screen.
  const cur = list.querySelector(".current");
  if (cur) {
    const box = list.getBoundingClientRect(), at = cur.getBoundingClientRect();
    if (at.top < box.top) list.scrollTop -= box.top - at.top;
    else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
  }
  $("undo").disabled = S.ply === 0;
  $("redo").disabled = atTip();
}

// Value of each position for X/black, where a finished analysis knows it.
function series() {
  return S.history.map((p) => {
    if (S.invalid.has(key(p))) return null;
    if (isOver(p)) return p.game === "ttt" ? (Ttt.winner(p) ? (Ttt.winner(p).mark === "X" ? 1 : -1) : 0) : Oth.finalForBlack(p);
    const a = settled(p);
    return a ? a.value : null;
  });
}

// How far the review has got: positions analysed in the quick pass and at the full budget.
function reviewProgress() {
  const open = reviewed().filter((q) => !isOver(q));
  const quick = open.filter((q) => settled(q)).length;
  const full = open.filter((q) => (S.cache.get(key(q)) || {}).final).length;
  return { total: open.length, quick, full };
}

// Per side: moves reviewed, mistakes, and discs given away.
function sideSummary(rv) {
  const out = [];
  for (const side of ["X", "O"]) {
    let moves = 0, known = 0, mistakes = 0, lost = 0, exact = true;
    rv.forEach((r, k) => {
      if (S.history[k].turn !== side || (r && r.pass)) return;
      moves += 1;
      if (!r) return;
      known += 1;
      if (r.mistake) {
        mistakes += 1;
        if (r.loss !== null) { lost += r.loss; exact = exact && r.exact; }
      }
    });
    if (!moves) continue;
    if (!known) {
      out.push(`${colorName(side)}: ${moves} move${moves > 1 ? "s" : ""}, not reviewed yet`);
      continue;
    }
    let text = `${colorName(side)}: ${mistakes ? `${mistakes} mistake${mistakes > 1 ? "s" : ""}` : "no mistakes"}`;
    if (lost) text += `, ${exact ? "" : "about "}${discText(Math.round(lost * 10) / 10, exact)} discs lost`;
    if (known < moves) text += ` so far (${known} of ${moves} moves reviewed)`;
    out.push(text);
  }
  return out;
}

// The chart's vertical half-range for Othello values: wide enough for most of the game,
// so that one big swing (a blunder, or the final count) does not flatten the rest; values
// beyond it are drawn on the edge. At least 4 discs; at most the largest value.
export function chartSpan(values) {
  const mags = values.filter((x) => x !== null).map(Math.abs).sort((a, b) => a - b);
  if (!mags.length) return 4;
  const typical = mags[Math.floor(0.75 * (mags.length - 1))];
  return Math.max(4, Math.min(mags[mags.length - 1], Math.ceil(2 * typical)));
}

function renderChart() {
  const svg = $("chart");
  const v = series();
  const rv = review();
  const numbers = moveNumbers();
  // L: room for the labels; the first point sits a gap to the right of them.
  const W = 320, H = 120, L = 80, R = 8, T = 10, B = 14, GAP = 10;
  const span = S.game === "ttt" ? 1 : chartSpan(v);
  const n = Math.max(v.length - 1, S.game === "ttt" ? 9 : 8);
  const x = (k) => L + GAP + ((W - L - GAP - R) * k) / n;
  const clamp = (val) => Math.max(-span, Math.min(span, val));
  const y = (val) => T + ((H - T - B) * (span - clamp(val))) / (2 * span);
  const top = S.game === "ttt" ? "X wins" : `Black +${Math.round(span)}`;
  const bottom = S.game === "ttt" ? "O wins" : `White +${Math.round(span)}`;
  let out = `<line class="axis" x1="${L}" x2="${W - R}" y1="${y(0)}" y2="${y(0)}"/>`;
  const label = (yy, text) => `<text x="${L - 4}" y="${yy + 4}" text-anchor="end">${text}</text>`;
  out += label(T, top) + label(H - B, bottom) + label(y(0), "even");
  // Lines join neighbouring positions only: a gap stays a gap until its position is known.
  let path = "";
  v.forEach((val, k) => {
    if (val === null) return;
    path += `${k > 0 && v[k - 1] !== null ? "L" : "M"}${x(k).toFixed(1)},${y(val).toFixed(1)} `;
  });
  if (path) out += `<path class="series" d="${path}"/>`;
  v.forEach((val, k) => {
    if (val === null) return;
    const clipped = Math.abs(val) > span;
    const slip = k > 0 && rv[k - 1] && rv[k - 1].mistake;
    const cls = ["pt", slip ? "slip" : "", k === S.ply ? "current" : "", clipped ? "clipped" : ""].join(" ");
    const after = k === 0 ? "start" : numbers[k - 1] === null ? `after the pass` : `after ${numbers[k - 1]}. ${S.labels[k - 1]}`;
    const shownVal = S.game === "ttt" ? val : `${val > 0 ? "+" : ""}${discText(val, Number.isInteger(val))} for Black`;
    out += `<circle class="${cls}" data-ply="${k}" cx="${x(k).toFixed(1)}" cy="${y(val).toFixed(1)}" r="3.5"><title>${after}: ${shownVal}${clipped ? " (off the scale)" : ""}</title></circle>`;
    // Off the scale: an arrow past the edge, and the value at the start of each such run.
    if (clipped) {
      const up = val > 0, yy = y(val), dy = up ? -1 : 1;
      out += `<path class="clip" d="M${x(k).toFixed(1)},${(yy + dy * 9).toFixed(1)} l-3,${-dy * 4} h6 z"/>`;
      if (!(k > 0 && v[k - 1] !== null && Math.abs(v[k - 1]) > span && v[k - 1] > 0 === up)) {
        out += `<text class="clip-label" x="${(x(k) + 5).toFixed(1)}" y="${(yy + (up ? 8 : -2)).toFixed(1)}">${val > 0 ? "+" : "−"}${discText(Math.abs(val), Number.isInteger(val))}</text>`;
      }
    }
  });
  svg.innerHTML = out;
  const prog = reviewProgress();
  const mistakes = rv.filter((r) => r && r.mistake).length;
  const allKnown = rv.every((r) => r !== null);
  const notes = [];
  // With moves on the board, how far the review has got (one position alone is on the board).
  if (S.labels.length) {
    if (prog.quick < prog.total) {
      notes.push(`Reviewing: ${prog.quick} of ${prog.total} positions analyzed (quick pass, ${QUICK_MS / 1000} s each).`);
    } else if (S.game === "othello" && prog.full < prog.total) {
      notes.push(`Every position analyzed quickly; deeper at ${S.budget / 1000} s: ${prog.full} of ${prog.total}.`);
    } else {
      notes.push(`Every position analyzed${S.game === "othello" ? ` at ${S.budget / 1000} s` : ""}.`);
    }
  }
  if (mistakes) notes.push(`Red: a move that gave value away (${mistakes}).`);
  else if (allKnown && S.labels.length) notes.push("No slips so far.");
  $("chart-note").textContent = notes.join(" ");
  $("summary").textContent = S.labels.length ? sideSummary(rv).join("\n") : "";
}

function renderControls() {
  const pressed = (sel, on) => document.querySelectorAll(sel).forEach((b) => b.setAttribute("aria-pressed", String(on(b))));
  pressed("[data-game]", (b) => b.dataset.game === S.game);
  pressed("[data-first]", (b) => b.dataset.first === S.first);
  pressed("[data-size]", (b) => Number(b.dataset.size) === S.size);
  pressed("[data-mode]", (b) => b.dataset.mode === S.mode);
  pressed("[data-human]", (b) => b.dataset.human === S.human);
  pressed("[data-paint]", (b) => b.dataset.paint === S.paint);
  pressed("[data-turn]", (b) => pos() && b.dataset.turn === pos().turn);
  $("variant-ttt").hidden = S.game !== "ttt";
  $("variant-othello").hidden = S.game !== "othello";
  $("side-group").hidden = S.mode !== "play";
  $("level-group").hidden = S.mode !== "play";
  $("level").value = S.level;
  $("budget").value = String(S.budget);
  $("copy-obf").hidden = S.game === "ttt";
  $("save-picture").hidden = S.game === "ttt";
  $("copy-transcript").hidden = S.game === "ttt";
  $("budget").hidden = S.game === "ttt";
  $("budget-label").hidden = S.game === "ttt";
  $("human-x").textContent = S.game === "ttt" ? "X" : "Black";
  $("human-o").textContent = S.game === "ttt" ? "O" : "White";
  $("setup").hidden = S.mode !== "analyze";
  // On tic-tac-toe the side to move follows from the marks and who moved first.
  $("turn-group").hidden = S.game === "ttt";
  $("paint-x").textContent = S.game === "ttt" ? "X" : "Black";
  $("paint-o").textContent = S.game === "ttt" ? "O" : "White";
  $("turn-x").textContent = S.game === "ttt" ? "X" : "Black";
  $("turn-o").textContent = S.game === "ttt" ? "O" : "White";
  $("paste").placeholder = S.game === "ttt" ? "9 cells, e.g. x.o/.x./..o" : "transcript (f5d6c3…), OBF line or GGF";
}

function render() {
  if (!pos()) return;
  renderControls();
  renderBoard();
  renderStatus();
  renderMoves();
  renderChart();
  // Panels in their own modules (explorer.js) follow the position shown.
  document.dispatchEvent(new CustomEvent("ply:position", { detail: pos() }));
}

// ---- the address: share and keep -------------------------------------------------------

// The game lives in the address: the settings, the first position when it is not the
// start, and the moves (two characters each, `pa` for a pass). A link opens the same game and
// a reload keeps it.
function saveUrl() {
  const p0 = S.history[0];
  if (!p0) return;
  const q = new URLSearchParams();
  q.set("g", S.game);
  if (S.game === "ttt") q.set("first", S.first);
  else q.set("n", String(S.size));
  q.set("mode", S.mode);
  if (S.mode === "play") {
    q.set("you", S.human);
    q.set("level", S.level);
  }
  q.set("seed", String(S.seed));
  if (S.game === "othello") q.set("think", String(S.budget));
  if (!isStart(p0)) q.set("pos", `${p0.cells.join("")}${p0.game === "othello" ? p0.turn : ""}`);
  if (S.labels.length) q.set("moves", S.labels.map((l) => (l === "pass" ? "pa" : l)).join(""));
  if (!atTip()) q.set("at", String(S.ply));
  history.replaceState(null, "", `${location.pathname}?${q}`);
}

// Opens the game in the address, if any; a broken address says what is wrong and opens
// what it can.
function loadUrl() {
  const q = new URLSearchParams(location.search);
  if (!q.has("g")) return false;
  const problems = [];
  // A value the page does not know is named with the one used instead; the names of older
  // links (`mode=hints`, `level=strong`) still open what they opened.
  const pick = (name, allowed, get, set, aliases = {}) => {
    const given = q.get(name);
    if (given === null) return;
    const v = aliases[given] || given;
    if (allowed.includes(v)) set(v);
    else problems.push(`the link's ${name}=${given} is not ${allowed.join(", ")}: using ${get()}`);
  };
  pick("g", ["ttt", "othello"], () => S.game, (v) => { S.game = v; });
  pick("first", ["X", "O"], () => S.first, (v) => { S.first = v; });
  pick("n", ["4", "6", "8"], () => S.size, (v) => { S.size = Number(v); });
  pick("mode", ["play", "two-players", "analyze"], () => S.mode, (v) => { S.mode = v; }, { hints: "two-players", analyse: "analyze" });
  pick("you", ["X", "O"], () => S.human, (v) => { S.human = v; });
  pick("level", Object.keys(LEVELS), () => S.level, (v) => { S.level = v; }, { strong: "strongest" });
  const seed = q.get("seed");
  if (seed !== null) {
    if (/^\d{1,10}$/.test(seed)) S.seed = Number(seed);
    else problems.push(`the link's seed=${seed} is not a number: using ${S.seed}`);
  }
  pick("think", ["200", "1000", "3000", "10000"], () => S.budget, (v) => { S.budget = Number(v); });
  let p = S.game === "ttt" ? Ttt.start(S.first) : Oth.start(S.size);
  const text = q.get("pos");
  if (text !== null) {
    const n = p.cells.length;
    const cells = [...text.slice(0, n)];
    const turn = S.game === "ttt" ? null : text[n];
    if (cells.length === n && cells.every((c) => "XO.".includes(c)) && (S.game === "ttt" ? text.length === n : text.length === n + 1 && "XO".includes(turn))) {
      if (S.game === "ttt") {
        const f = cells.filter((c) => c === S.first).length;
        const o = cells.filter((c) => c !== "." && c !== S.first).length;
        p = { ...p, cells, turn: f > o ? (S.first === "X" ? "O" : "X") : S.first };
      } else {
        p = { ...p, cells, turn };
      }
    } else {
      problems.push(`the link's position \`${text}\` is not ${n} cells of X, O and .${S.game === "othello" ? " then X or O" : ""}`);
    }
  }
  const history = [p], labels = [];
  const moves = (q.get("moves") || "").match(/../g) || [];
  for (const [k, m] of moves.entries()) {
    const cur = history[history.length - 1];
    if (m === "pa" && cur.game === "othello" && Oth.mustPass(cur)) {
      history.push(Oth.pass(cur));
      labels.push("pass");
      continue;
    }
    const i = cur.game === "ttt" ? (/^[a-c][1-3]$/.test(m) ? "abc".indexOf(m[0]) + 3 * (Number(m[1]) - 1) : -1) : Oth.index(cur, m);
    if (i < 0 || !legalMoves(cur).includes(i)) {
      problems.push(`move ${k + 1} of the link (${m}) is not legal there; the game stops before it`);
      break;
    }
    history.push(cur.game === "ttt" ? Ttt.play(cur, i) : Oth.play(cur, i));
    labels.push(m);
  }
  S.history = history;
  S.labels = labels;
  const at = Number(q.get("at"));
  S.ply = q.has("at") && Number.isInteger(at) && at >= 0 && at < history.length ? at : history.length - 1;
  render();
  step();
  $("paste-error").textContent = problems.join("; ");
  return true;
}

// The moves as a transcript (passes left out: the reader infers them) and the position on
// the board as an OBF line.
function transcriptText() {
  return S.labels.slice(0, S.ply).filter((l) => l !== "pass").join("");
}

function obfText() {
  const p = pos();
  return `${p.cells.map((c) => (c === "." ? "-" : c)).join("")} ${p.turn};`;
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

// ---- events ---------------------------------------------------------------------------

function wire() {
  document.querySelectorAll("[data-game]").forEach((b) => b.addEventListener("click", () => { S.game = b.dataset.game; newGame(); }));
  document.querySelectorAll("[data-first]").forEach((b) => b.addEventListener("click", () => { S.first = b.dataset.first; newGame(); }));
  document.querySelectorAll("[data-size]").forEach((b) => b.addEventListener("click", () => { S.size = Number(b.dataset.size); newGame(); }));
  // A change of mode keeps the game: review the game just played, or play ply from a
  // pasted or set-up position.
  document.querySelectorAll("[data-mode]").forEach((b) => b.addEventListener("click", () => {
    S.mode = b.dataset.mode;
    S.paint = "play";
    $("paste-error").textContent = "";
    refresh();
  }));
  document.querySelectorAll("[data-human]").forEach((b) => b.addEventListener("click", () => { S.human = b.dataset.human; refresh(); }));
  document.querySelectorAll("[data-paint]").forEach((b) => b.addEventListener("click", () => { S.paint = b.dataset.paint; render(); }));
  document.querySelectorAll("[data-turn]").forEach((b) => b.addEventListener("click", () => {
    const p = pos();
    if (p.game === "ttt") return;
    S.history = [{ ...p, turn: b.dataset.turn }];
    S.labels = [];
    S.ply = 0;
    refresh();
  }));
  $("budget").addEventListener("change", (e) => { S.budget = Number(e.target.value); S.errors.clear(); refresh(); });
  $("level").addEventListener("change", (e) => { S.level = e.target.value; refresh(); });
  $("clear-board").addEventListener("click", clearBoard);
  $("copy-link").addEventListener("click", () => copy(location.href, "link"));
  $("copy-transcript").addEventListener("click", () => copy(transcriptText(), "transcript"));
  $("copy-obf").addEventListener("click", () => copy(obfText(), "OBF line"));
  // picture.js: the board as an SVG file, with the values when they are shown.
  $("save-picture").addEventListener("click", () => savePicture(pos(), S.showValues ? shown(pos()) : null, S.ply > 0 ? lastMoveIndex() : -1, $("copy-note")));
  $("show-values").addEventListener("change", (e) => { S.showValues = e.target.checked; refresh(); });
  $("new-game").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("board").addEventListener("click", (e) => {
    if (e.detail > 0) S.keyboard = false;
    const cell = e.target.closest(".cell");
    if (cell) clickCell(Number(cell.dataset.index));
  });
  $("chart").addEventListener("click", (e) => {
    const pt = e.target.closest("[data-ply]");
    if (pt) { S.ply = Number(pt.dataset.ply); refresh(); }
  });
  $("paste-form").addEventListener("submit", (e) => {
    e.preventDefault();
    loadPaste($("paste").value);
  });
  document.addEventListener("keydown", onKey);
}

function onKey(e) {
  const tag = (e.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return;
  const p = pos();
  const n = p.game === "ttt" ? 3 : p.size;
  const k = e.key;
  const ctrl = e.ctrlKey || e.metaKey;
  let handled = true;
  if ((ctrl && k === "z") || (!ctrl && k === "u")) undo();
  else if ((ctrl && k === "y") || (!ctrl && k === "r")) redo();
  else if (!ctrl && k === "n") newGame();
  else if (!ctrl && k === "v") { S.showValues = !S.showValues; $("show-values").checked = S.showValues; refresh(); }
  else if (k.startsWith("Arrow")) {
    S.keyboard = true;
    const c = S.cursor % n, r = Math.floor(S.cursor / n);
    const [dc, dr] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[k];
    S.cursor = ((r + dr + n) % n) * n + ((c + dc + n) % n);
    render();
    const cell = document.querySelector(`.cell[data-index="${S.cursor}"]`);
    if (cell) cell.focus();
  } else if (k === "Enter" || k === " ") {
    if (e.target.closest && e.target.closest("button:not(.cell)")) return;
    S.keyboard = true;
    clickCell(S.cursor);
    const cell = document.querySelector(`.cell[data-index="${S.cursor}"]`);
    if (cell) cell.focus();
  } else if (p.game === "ttt" && /^[1-9]$/.test(k) && !ctrl) clickCell(Number(k) - 1);
  else handled = false;
  if (handled) e.preventDefault();
}

wire();
if (!loadUrl()) newGame();
