// The page: state, rendering, and talking to the JSON API. No framework, no build step.
"use strict";

// Ttt and Oth come from rules.js, loaded first.
const $ = (id) => document.getElementById(id);

const S = {
  game: "ttt",
  first: "X",
  size: 6,
  mode: "play",
  human: "X",
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
};

const rules = () => (S.game === "ttt" ? Ttt : Oth);
const pos = () => S.history[S.ply];
const atTip = () => S.ply === S.history.length - 1;
const colorName = (c) => (S.game === "ttt" ? c : c === "X" ? "Black" : "White");

function key(p) {
  return p.game === "ttt" ? `t|${p.first}|${p.cells.join("")}` : `o|${p.size}|${p.cells.join("")}|${p.turn}`;
}

function isOver(p) {
  return p.game === "ttt" ? Ttt.isOver(p) : Oth.isOver(p);
}

function legalMoves(p) {
  return p.game === "ttt" ? Ttt.moves(p) : Oth.moves(p);
}

// ---- analysis -------------------------------------------------------------------------

function url(p) {
  if (p.game === "ttt") {
    return `/api/ttt/analyze?board=${p.cells.join("")}&first=${p.first.toLowerCase()}`;
  }
  return `/api/othello/analyze?size=${p.size}&position=${p.cells.join("")}&turn=${p.turn}&budget_ms=${S.budget}`;
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
    return { value: sign * v, exact: true, moves, best, desc };
  }
  let bestScore = -Infinity;
  for (const m of a.moves) bestScore = Math.max(bestScore, m.score);
  let best = null;
  for (const m of a.moves) {
    const i = Oth.index(p, m.move);
    const shown = Number.isInteger(m.score) ? String(m.score) : m.score.toFixed(1);
    const text = (m.exact ? "" : "~") + (m.score > 0 ? "+" : "") + shown;
    moves.set(i, { text, cls: m.exact ? "exact" : "estimate", score: m.score, gap: bestScore - m.score, exact: m.exact });
    if (m.move === a.best) best = i;
  }
  const sign = p.turn === "X" ? 1 : -1;
  let desc = "";
  if (a.status !== "over") {
    const forBlack = sign * a.score;
    const who = forBlack > 0 ? "Black" : forBlack < 0 ? "White" : "";
    const amount = Math.abs(forBlack);
    const shown = Number.isInteger(amount) ? amount : amount.toFixed(1);
    desc = a.exact
      ? (who ? `${who} wins by ${shown} with perfect play` : "a draw with perfect play")
      : `estimate: ${who ? `${who} +${shown}` : "even"} (depth ${a.depth})`;
    if (a.best) desc = `best ${a.best}: ${desc}`;
  }
  return { value: sign * a.score, exact: a.exact, moves, best, desc };
}

function request(p) {
  const k = key(p);
  if (S.cache.has(k) || S.inflight.has(k) || S.errors.has(k)) return;
  S.inflight.add(k);
  render();
  fetch(url(p))
    .then(async (r) => {
      const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
      if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
      S.cache.set(k, normalize(p, body));
    })
    .catch((e) => S.errors.set(k, e.message))
    .finally(() => {
      S.inflight.delete(k);
      render();
      step();
    });
}

// ---- playing --------------------------------------------------------------------------

function plyToMove(p) {
  return S.mode === "play" && !isOver(p) && p.turn !== S.human;
}

function push(next, label) {
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
  const wantValues = S.showValues || S.mode !== "play" || plyToMove(p);
  if (!isOver(p) && wantValues) request(p);
  const a = S.cache.get(key(p));
  if (atTip() && plyToMove(p) && a && a.best !== null) {
    stepTimer = setTimeout(() => {
      if (pos() === p && atTip()) {
        playIndex(a.best);
        refresh();
      }
    }, 250);
  }
  // Fill in the chart: analyse earlier positions that are still unknown, one at a time.
  if (!S.inflight.size) {
    for (const q of S.history) {
      if (!isOver(q) && !S.cache.has(key(q)) && !S.errors.has(key(q))) {
        request(q);
        break;
      }
    }
  }
}

function refresh() {
  render();
  step();
}

function newGame() {
  clearTimeout(stepTimer);
  const start = S.game === "ttt" ? Ttt.start(S.first) : Oth.start(S.size);
  S.history = [start];
  S.labels = [];
  S.ply = 0;
  S.cursor = S.game === "ttt" ? 4 : Math.floor((S.size * S.size) / 2) - S.size / 2 - 1;
  $("paste-error").textContent = "";
  refresh();
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
  if (isOver(p) || plyToMove(p)) return;
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
  board.className = `board ${p.game} n${n}${S.keyboard ? " kbd" : ""}`;
  board.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  board.style.gridTemplateRows = `repeat(${n}, 1fr)`;
  const a = S.cache.get(key(p));
  const legal = new Set(isOver(p) ? [] : legalMoves(p));
  const win = p.game === "ttt" ? Ttt.winner(p) : null;
  const last = S.ply > 0 ? lastMoveIndex() : -1;
  const canClick = (S.mode === "analyze" && S.paint !== "play") || (!plyToMove(p) && !isOver(p));
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
    // Coordinates along the top and left edges, as the move list names squares.
    if (i < n) cell.append(coord("col", "abcdefgh"[i]));
    if (i % n === 0) cell.append(coord("row", String(i / n + 1)));
    if (win && win.line.includes(i)) cell.classList.add("winline");
    if (i === last) cell.classList.add("last");
    if (i === S.cursor) cell.classList.add("cursor");
    cell.disabled = false;
    cell.setAttribute("aria-label", label);
    if (!canClick) cell.setAttribute("aria-disabled", "true");
  });
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
  const x = Oth.count(p, "X"), o = Oth.count(p, "O");
  const diff = Oth.finalForBlack(p);
  const winner = diff > 0 ? "X" : diff < 0 ? "O" : null;
  let text = winner ? `${colorName(winner)} wins ${Math.max(x, o)}–${Math.min(x, o)}` : `Draw ${x}–${o}`;
  if (S.mode === "play" && winner) text += winner === S.human ? " — you win!" : " — ply wins";
  return { text, lost: S.mode === "play" && winner !== null && winner !== S.human };
}

function renderStatus() {
  const p = pos();
  const k = key(p);
  const st = $("status");
  const err = S.errors.get(k);
  let text;
  let thinking = false;
  if (isOver(p)) text = "Game over";
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
  if (thinking || S.inflight.has(k)) span.className = "thinking";
  st.append(span);
  if (err) {
    const e = document.createElement("span");
    e.className = "error";
    e.textContent = `The server says: ${err}`;
    st.append(e);
  }

  const res = $("result");
  if (isOver(p)) {
    const r = resultText(p);
    res.hidden = false;
    res.textContent = r.text;
    res.classList.toggle("lost", r.lost);
  } else {
    res.hidden = true;
  }

  const a = S.cache.get(k);
  if (p.game === "othello") {
    $("score").textContent = `Black ${Oth.count(p, "X")} – White ${Oth.count(p, "O")}`;
  } else {
    $("score").textContent = "";
  }
  $("eval").textContent = a && S.showValues ? a.desc : "";

  const legend = $("legend");
  legend.innerHTML = p.game === "ttt"
    ? '<span><i style="background:var(--win)"></i>win</span><span><i style="background:var(--tie)"></i>draw</span><span><i style="background:var(--lose)"></i>loss</span><span>number: moves to the end</span>'
    : '<span><i style="background:hsl(140 70% 30%)"></i>best</span><span><i style="background:hsl(5 70% 30%)"></i>worse</span><span>score: final disc difference for the mover</span><span>≈ estimate, else exact</span>';
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
  const slips = slipSet();
  S.labels.forEach((l, k) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.innerHTML = `<span class="n">${k + 1}.</span>${l}`;
    b.title = `${colorName(S.history[k].turn)} ${l}${slips.has(k) ? " — slipped" : ""}`;
    b.addEventListener("click", () => {
      S.ply = k + 1;
      refresh();
    });
    if (k + 1 === S.ply) li.className = "current";
    else if (k + 1 > S.ply) li.className = "future";
    if (slips.has(k)) li.classList.add("slip");
    li.append(b);
    list.append(li);
  });
  const cur = list.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  $("undo").disabled = S.ply === 0;
  $("redo").disabled = atTip();
}

// Value of each position for X/black, where known.
function series() {
  return S.history.map((p) => {
    if (isOver(p)) return p.game === "ttt" ? (Ttt.winner(p) ? (Ttt.winner(p).mark === "X" ? 1 : -1) : 0) : Oth.finalForBlack(p);
    const a = S.cache.get(key(p));
    return a ? a.value : null;
  });
}

// Moves after which the mover's value dropped: who slipped when.
function slipSet() {
  const v = series();
  const out = new Set();
  for (let k = 0; k + 1 < v.length; k++) {
    if (v[k] === null || v[k + 1] === null || S.labels[k] === "pass") continue;
    const mover = S.history[k].turn === "X" ? 1 : -1;
    const drop = mover * (v[k] - v[k + 1]);
    const exact = S.game === "ttt" || ((S.cache.get(key(S.history[k])) || {}).exact && (isOver(S.history[k + 1]) || (S.cache.get(key(S.history[k + 1])) || {}).exact));
    if (drop > (exact ? 0 : 4)) out.add(k);
  }
  return out;
}

function renderChart() {
  const svg = $("chart");
  const v = series();
  const W = 320, H = 120, L = 50, R = 8, T = 10, B = 14;
  const span = S.game === "ttt" ? 1 : Math.max(4, ...v.filter((x) => x !== null).map(Math.abs));
  const n = Math.max(v.length - 1, S.game === "ttt" ? 9 : 8);
  const x = (k) => L + ((W - L - R) * k) / n;
  const y = (val) => T + ((H - T - B) * (span - val)) / (2 * span);
  const slips = slipSet();
  const top = S.game === "ttt" ? "X wins" : `Black +${Math.round(span)}`;
  const bottom = S.game === "ttt" ? "O wins" : `White +${Math.round(span)}`;
  let out = `<line class="axis" x1="${L}" x2="${W - R}" y1="${y(0)}" y2="${y(0)}"/>`;
  out += `<text x="2" y="${T + 3}">${top}</text><text x="2" y="${H - B + 3}">${bottom}</text><text x="2" y="${y(0) + 3}">even</text>`;
  let path = "";
  v.forEach((val, k) => {
    if (val === null) return;
    path += `${path ? "L" : "M"}${x(k).toFixed(1)},${y(val).toFixed(1)} `;
  });
  if (path) out += `<path class="series" d="${path}"/>`;
  v.forEach((val, k) => {
    if (val === null) return;
    const cls = ["pt", slips.has(k - 1) ? "slip" : "", k === S.ply ? "current" : ""].join(" ");
    out += `<circle class="${cls}" data-ply="${k}" cx="${x(k).toFixed(1)}" cy="${y(val).toFixed(1)}" r="3.5"><title>after move ${k}: ${val}</title></circle>`;
  });
  svg.innerHTML = out;
  const known = v.filter((q) => q !== null).length;
  $("chart-note").textContent = slips.size
    ? `Red points: a move that gave value away (${slips.size}).`
    : known > 1
      ? "No slips so far."
      : "";
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
  $("paste").placeholder = S.game === "ttt" ? "9 cells, e.g. x.o/.x./..o" : "OBF line or transcript (f5d6c3…)";
}

function render() {
  if (!pos()) return;
  renderControls();
  renderBoard();
  renderStatus();
  renderMoves();
  renderChart();
}

// ---- events ---------------------------------------------------------------------------

function wire() {
  document.querySelectorAll("[data-game]").forEach((b) => b.addEventListener("click", () => { S.game = b.dataset.game; newGame(); }));
  document.querySelectorAll("[data-first]").forEach((b) => b.addEventListener("click", () => { S.first = b.dataset.first; newGame(); }));
  document.querySelectorAll("[data-size]").forEach((b) => b.addEventListener("click", () => { S.size = Number(b.dataset.size); newGame(); }));
  document.querySelectorAll("[data-mode]").forEach((b) => b.addEventListener("click", () => {
    S.mode = b.dataset.mode;
    S.paint = "play";
    newGame();
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
    const text = $("paste").value;
    try {
      if (S.game === "ttt") {
        const cells = [...text.replace(/[\s/]/g, "")].map((c) => (/[xX]/.test(c) ? "X" : /[oO]/.test(c) ? "O" : /[.\-_0]/.test(c) ? "." : "?"));
        const bad = cells.indexOf("?");
        if (bad >= 0) throw new Error(`character ${bad + 1} is not X, O or .`);
        if (cells.length !== 9) throw new Error(`${cells.length} cells; a board has 9`);
        const f = cells.filter((c) => c === S.first).length;
        const s = cells.filter((c) => c !== "." && c !== S.first).length;
        const turn = f > s ? (S.first === "X" ? "O" : "X") : S.first;
        S.history = [{ game: "ttt", cells, first: S.first, turn }];
        S.labels = [];
      } else {
        const r = Oth.parse(text, S.size);
        S.size = r.history[0].size;
        S.history = r.history;
        S.labels = r.labels;
      }
      S.ply = S.history.length - 1;
      S.paint = "play";
      $("paste-error").textContent = "";
      refresh();
    } catch (err) {
      $("paste-error").textContent = err.message;
    }
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
newGame();
