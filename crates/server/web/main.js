// The page: wires the controls to the game, and opens the game in the address. No framework,
// no build step: the browser loads this ES module and the modules it imports.

import { Oth, Ttt } from "./rules.js";
import { budgetFor, colorName, editing, input, LEVELS, settings } from "./settings.js";
import { atTip, game, goBack, goForward, isOver, isStart, labelIndex, lastMoveIndex, legalMoves, moveNumbers, obfText, playIndex, plyToMove, pos, push, transcriptText } from "./game.js";
import { abortOthers, analyses, checkSetup, connect, fetchRetry, key, keyAt, plain, QUICK_MS, refusal, request, settled, shown } from "./api.js";
import { loadUrl, saveUrl } from "./address.js";
import { savePicture } from "./picture.js";
import "./explorer.js";

const $ = (id) => document.getElementById(id);

// The positions of the game the review covers: all of them, but a set-up position the
// server refused.
function reviewed() {
  return game.history.filter((q) => !analyses.invalid.has(key(q)));
}

// Discs as people read them: whole when exact, to a tenth when estimated.
const discText = (d, exact) => (exact || Number.isInteger(d) ? String(d) : d.toFixed(1));

// What every move cost its mover, from the finished analysis of the position before it: the
// best move's score less the score of the move played (Othello, in discs), or a worse
// outcome than the best move's (tic-tac-toe). `null` where that analysis is not in yet;
// `{ pass: true }` for a pass.
function review() {
  return game.labels.map((l, k) => {
    if (l === "pass") return { pass: true };
    const before = game.history[k];
    const a = settled(before);
    if (!a || a.best === null || analyses.invalid.has(key(before))) return null;
    const played = a.moves.get(labelIndex(before, l));
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

// Value of each position for X/black, where a finished analysis knows it.
function series() {
  return game.history.map((p) => {
    if (analyses.invalid.has(key(p))) return null;
    if (isOver(p)) return p.game === "ttt" ? (Ttt.winner(p) ? (Ttt.winner(p).mark === "X" ? 1 : -1) : 0) : Oth.finalForBlack(p);
    const a = settled(p);
    return a ? a.value : null;
  });
}

// How far the review has got: positions analysed in the quick pass and at the full budget.
function reviewProgress() {
  const open = reviewed().filter((q) => !isOver(q));
  const quick = open.filter((q) => settled(q)).length;
  const full = open.filter((q) => (analyses.cache.get(key(q)) || {}).final).length;
  return { total: open.length, quick, full };
}

// Per side: moves reviewed, mistakes, and discs given away.
function sideSummary(rv) {
  const out = [];
  for (const side of ["X", "O"]) {
    let moves = 0, known = 0, mistakes = 0, lost = 0, exact = true;
    rv.forEach((r, k) => {
      if (game.history[k].turn !== side || (r && r.pass)) return;
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
  board.className = `board ${p.game} n${n}${input.keyboard ? " kbd" : ""}${busy ? " busy" : ""}`;
  board.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  board.style.gridTemplateRows = `repeat(${n}, 1fr)`;
  const a = shown(p);
  const invalid = analyses.invalid.has(key(p));
  const legal = new Set(isOver(p) || invalid ? [] : legalMoves(p));
  const win = p.game === "ttt" ? Ttt.winner(p) : null;
  const last = game.at > 0 ? lastMoveIndex() : -1;
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
    cell.tabIndex = i === input.cursor ? 0 : -1;
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
      if (v && settings.showValues) {
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
    if (i === input.cursor) cell.classList.add("cursor");
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

function coord(kind, text) {
  const c = document.createElement("span");
  c.className = `coord ${kind}`;
  c.textContent = text;
  c.setAttribute("aria-hidden", "true");
  return c;
}

function resultText(p) {
  if (p.game === "ttt") {
    const w = Ttt.winner(p);
    if (!w) return { text: "Draw", lost: false };
    const you = settings.mode === "play" ? (w.mark === settings.human ? " — you win!" : " — ply wins") : "";
    return { text: `${w.mark} wins${you}`, lost: settings.mode === "play" && w.mark !== settings.human };
  }
  // The discs on the board, then the score as the values count it: the final disc
  // difference with the empty squares to the winner.
  const x = Oth.count(p, "X"), o = Oth.count(p, "O");
  const empty = p.cells.length - x - o;
  const diff = Oth.finalForBlack(p);
  const winner = diff > 0 ? "X" : diff < 0 ? "O" : null;
  const score = `${Math.abs(diff) > 0 ? "+" : ""}${Math.abs(diff)}${empty ? ` with the ${empty} empty square${empty > 1 ? "s" : ""} to the winner` : ""}`;
  let text = winner ? `${colorName(winner)} wins ${Math.max(x, o)}–${Math.min(x, o)} (${score})` : `Draw ${x}–${o}`;
  if (settings.mode === "play" && winner) text += winner === settings.human ? " — you win!" : " — ply wins";
  return { text, lost: settings.mode === "play" && winner !== null && winner !== settings.human };
}

const nodesText = (n) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)} G` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${Math.round(n / 1e3)} k` : String(n));

// What the analysis of the position on the board is doing, while it runs: the depth it has
// reached, the positions searched, the time so far. Updated on a timer, so that a long
// search never looks frozen.
function workText(p) {
  if (p.game !== "othello") return "";
  const budget = [budgetFor(p), QUICK_MS].find((b) => analyses.inflight.has(keyAt(p, b)));
  const k = keyAt(p, budget);
  if (budget === undefined || analyses.busy.has(k)) return "";
  const a = analyses.cache.get(k);
  const secs = ((performance.now() - (analyses.started.get(k) || performance.now())) / 1000).toFixed(1);
  if (!a) return `Analyzing… ${secs} s`;
  const what = a.proven ? "proven; scoring the other moves exactly" : `depth ${a.depth} done, searching deeper or solving`;
  return `Analyzing: ${what} · ${nodesText(a.nodes || 0)} positions · ${secs} s of ${budget / 1000} s`;
}

// How ply chose the move it played, in honest words: proven best, or the best its search
// found at some depth.
function plyNoteText() {
  const note = game.plyNotes.get(game.at - 1);
  if (!note || settings.mode !== "play") return "";
  if (note.level !== "strongest") return `ply's ${note.move}: a move near the best (${$("level").selectedOptions[0].textContent} level)`;
  if (note.exact) return `ply's ${note.move}: the best move, proven`;
  if (note.book) return `ply's ${note.move}: from the opening book (depth ${note.depth}), not proven`;
  return `ply's ${note.move}: strongest found at depth ${note.depth}, not proven`;
}

function renderStatus() {
  const p = pos();
  const k = key(p);
  const st = $("status");
  const err = analyses.errors.get(k);
  const invalid = analyses.invalid.get(k);
  const busy = analyses.busy.get(k);
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
    const you = settings.mode === "play" ? " — your move" : "";
    text = `${colorName(p.turn)} to move${you}`;
  }
  st.replaceChildren();
  const span = document.createElement("span");
  span.textContent = text;
  if (thinking || analyses.inflight.has(k) || analyses.inflight.has(keyAt(p, QUICK_MS))) span.className = "thinking";
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
  $("eval").textContent = a && settings.showValues ? a.desc : "";
  $("work").textContent = settings.showValues || plyToMove(p) ? workText(p) : "";
  $("ply-note").textContent = plyNoteText();
  const line = a && settings.showValues && a.line.length && !editing() ? a.line : [];
  $("line").hidden = !line.length;
  $("line").textContent = line.length ? `Best line: ${line.slice(0, 16).join(" ")}${line.length > 16 ? " …" : ""}` : "";

  const legend = $("legend");
  legend.innerHTML = p.game === "ttt"
    ? '<span><i style="background:var(--win)"></i>win</span><span><i style="background:var(--tie)"></i>draw</span><span><i style="background:var(--lose)"></i>loss</span><span>number: moves to the end</span>'
    : '<span><i style="background:hsl(140 70% 30%)"></i>best</span><span><i style="background:hsl(5 70% 30%)"></i>worse</span><span>score: final disc difference for the mover</span><span>≈ estimate, else exact</span>';
}

function lossText(r) {
  if (r.loss === null) return r.mistake ? "?" : "";
  const d = discText(r.loss, r.exact);
  return r.loss === 0 ? "0" : `${r.exact ? "" : "≈"}−${d}`;
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  if (!game.labels.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = "No moves yet.";
    list.append(li);
  }
  const rv = review();
  const numbers = moveNumbers();
  game.labels.forEach((l, k) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    const r = rv[k];
    const mark = r && r.mistake ? (r.blunder ? "??" : "?") : "";
    const cost = r && !r.pass ? lossText(r) : "";
    b.innerHTML = `<span class="n">${numbers[k] === null ? "" : `${numbers[k]}.`}</span>${l}${mark ? `<span class="mark">${mark}</span>` : ""}${cost && settings.game === "othello" ? `<span class="loss${r.mistake ? " bad" : ""}">${cost}</span>` : ""}`;
    const who = colorName(game.history[k].turn);
    const what = !r || r.pass ? "" : r.loss === null
      ? (r.mistake ? ` — a worse outcome than ${r.best}` : " — best")
      : r.loss === 0 ? " — best" : ` — ${discText(r.loss, r.exact)} discs ${r.exact ? "" : "(estimated) "}less than ${r.best}`;
    b.title = `${numbers[k] === null ? "" : `${numbers[k]}. `}${who} ${l}${what}`;
    // main.js takes the click: the position after the move goes on the board.
    b.dataset.ply = String(k + 1);
    if (k + 1 === game.at) li.className = "current";
    else if (k + 1 > game.at) li.className = "future";
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
  $("undo").disabled = game.at === 0;
  $("redo").disabled = atTip();
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
  const span = settings.game === "ttt" ? 1 : chartSpan(v);
  const n = Math.max(v.length - 1, settings.game === "ttt" ? 9 : 8);
  const x = (k) => L + GAP + ((W - L - GAP - R) * k) / n;
  const clamp = (val) => Math.max(-span, Math.min(span, val));
  const y = (val) => T + ((H - T - B) * (span - clamp(val))) / (2 * span);
  const top = settings.game === "ttt" ? "X wins" : `Black +${Math.round(span)}`;
  const bottom = settings.game === "ttt" ? "O wins" : `White +${Math.round(span)}`;
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
    const cls = ["pt", slip ? "slip" : "", k === game.at ? "current" : "", clipped ? "clipped" : ""].join(" ");
    const after = k === 0 ? "start" : numbers[k - 1] === null ? `after the pass` : `after ${numbers[k - 1]}. ${game.labels[k - 1]}`;
    const shownVal = settings.game === "ttt" ? val : `${val > 0 ? "+" : ""}${discText(val, Number.isInteger(val))} for Black`;
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
  if (game.labels.length) {
    if (prog.quick < prog.total) {
      notes.push(`Reviewing: ${prog.quick} of ${prog.total} positions analyzed (quick pass, ${QUICK_MS / 1000} s each).`);
    } else if (settings.game === "othello" && prog.full < prog.total) {
      notes.push(`Every position analyzed quickly; deeper at ${settings.budget / 1000} s: ${prog.full} of ${prog.total}.`);
    } else {
      notes.push(`Every position analyzed${settings.game === "othello" ? ` at ${settings.budget / 1000} s` : ""}.`);
    }
  }
  if (mistakes) notes.push(`Red: a move that gave value away (${mistakes}).`);
  else if (allKnown && game.labels.length) notes.push("No slips so far.");
  $("chart-note").textContent = notes.join(" ");
  $("summary").textContent = game.labels.length ? sideSummary(rv).join("\n") : "";
}

function renderControls() {
  const pressed = (sel, on) => document.querySelectorAll(sel).forEach((b) => b.setAttribute("aria-pressed", String(on(b))));
  pressed("[data-game]", (b) => b.dataset.game === settings.game);
  pressed("[data-first]", (b) => b.dataset.first === settings.first);
  pressed("[data-size]", (b) => Number(b.dataset.size) === settings.size);
  pressed("[data-mode]", (b) => b.dataset.mode === settings.mode);
  pressed("[data-human]", (b) => b.dataset.human === settings.human);
  pressed("[data-paint]", (b) => b.dataset.paint === input.paint);
  pressed("[data-turn]", (b) => pos() && b.dataset.turn === pos().turn);
  $("variant-ttt").hidden = settings.game !== "ttt";
  $("variant-othello").hidden = settings.game !== "othello";
  $("side-group").hidden = settings.mode !== "play";
  $("level-group").hidden = settings.mode !== "play";
  $("level").value = settings.level;
  $("budget").value = String(settings.budget);
  $("copy-obf").hidden = settings.game === "ttt";
  $("save-picture").hidden = settings.game === "ttt";
  $("copy-transcript").hidden = settings.game === "ttt";
  $("budget").hidden = settings.game === "ttt";
  $("budget-label").hidden = settings.game === "ttt";
  $("human-x").textContent = settings.game === "ttt" ? "X" : "Black";
  $("human-o").textContent = settings.game === "ttt" ? "O" : "White";
  $("setup").hidden = settings.mode !== "analyze";
  // On tic-tac-toe the side to move follows from the marks and who moved first.
  $("turn-group").hidden = settings.game === "ttt";
  $("paint-x").textContent = settings.game === "ttt" ? "X" : "Black";
  $("paint-o").textContent = settings.game === "ttt" ? "O" : "White";
  $("turn-x").textContent = settings.game === "ttt" ? "X" : "Black";
  $("turn-o").textContent = settings.game === "ttt" ? "O" : "White";
  $("paste").placeholder = settings.game === "ttt" ? "9 cells, e.g. x.o/.x./..o" : "transcript (f5d6c3…), OBF line or GGF";
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

// A number in [0, 1) from the seed and the ply: the same game replays the same choices.
function draw(seed, ply) {
  let h = (seed ^ Math.imul(ply + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

// The move ply plays at its level: the best, or one drawn among the moves close to it.
function plyChoice(p, a) {
  const floor = LEVELS[settings.level].floor;
  if (!floor) return a.best;
  const worth = (v) => (p.game === "ttt" ? v.rank : v.score);
  const lowest = floor[p.game](worth(a.moves.get(a.best)));
  const near = [...a.moves.entries()].filter(([, v]) => worth(v) >= lowest).map(([i]) => i).sort((x, y) => x - y);
  return near.length ? near[Math.floor(draw(settings.seed, game.history.length) * near.length)] : a.best;
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
  if (game.history.length === 1 && !isStart(p)) checkSetup(p);
  if (analyses.invalid.has(key(p))) return;
  const wantValues = settings.showValues || settings.mode !== "play" || plyToMove(p);
  // A game under review (moves on the board, ply not to play) gets the quick pass first,
  // the position on the board before the others, so that the board and the chart fill in
  // seconds; the deeper analysis of the position on the board comes next.
  const review = game.labels.length > 0 && settings.mode !== "play";
  const quickDone = (q) => isOver(q) || settled(q) || analyses.errors.has(keyAt(q, QUICK_MS)) || analyses.errors.has(key(q));
  if (!isOver(p) && wantValues) {
    if (review && !quickDone(p)) request(p, Math.min(QUICK_MS, budgetFor(p)));
    else if (!review || reviewed().every(quickDone)) request(p);
  }
  const a = analyses.cache.get(key(p));
  if (atTip() && plyToMove(p) && a && a.final && a.best !== null) {
    stepTimer = setTimeout(() => {
      if (pos() === p && atTip()) {
        const i = plyChoice(p, a);
        const chosen = a.moves.get(i);
        const move = p.game === "ttt" ? Ttt.name(i) : Oth.name(p, i);
        playIndex(i);
        game.plyNotes.set(game.at - 1, { move, level: settings.level, exact: Boolean(chosen && chosen.exact) && i === a.best, book: a.book && i === a.best, depth: a.depth });
        refresh();
      }
    }, 250);
  }
  // Review the game, one analysis at a time: a quick pass over every position first, so that
  // the chart and the cost of every move come within seconds, then each position again at
  // its own budget.
  if (!analyses.inflight.size) {
    const open = reviewed().filter((q) => !isOver(q));
    const quick = open.find((q) => !quickDone(q));
    if (quick) request(quick, Math.min(QUICK_MS, budgetFor(quick)));
    else {
      const deeper = open.find((q) => !(analyses.cache.get(key(q)) || {}).final && !analyses.errors.has(key(q)));
      if (deeper) request(deeper);
    }
  }
}

// Cancels a pass or a reply of ply's that is waiting to be played.
function stopStep() {
  clearTimeout(stepTimer);
}

// After every change: stops the analyses nobody waits for, draws the page, starts what comes
// next and writes the address.
function refresh() {
  abortOthers();
  render();
  step();
  saveUrl();
}

// Steps back or forward a move, as the game's history allows.
function undo() {
  if (goBack()) refresh();
}

function redo() {
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
async function loadPaste(text) {
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
  if (isOver(p) || plyToMove(p) || analyses.invalid.has(key(p))) return;
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
      if (pt) { game.at = Number(pt.dataset.ply); refresh(); }
    });
  }
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
  } else if (p.game === "ttt" && /^[1-9]$/.test(k) && !ctrl) clickCell(Number(k) - 1);
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
