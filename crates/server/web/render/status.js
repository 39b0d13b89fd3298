// The lines under the board: whose move it is, errors, the result, the score, the analysis's
// words and its best line, what a long analysis is doing, how ply chose its move.

import { Ttt, Oth } from "../rules.js";
import { budgetFor, colorName, editing, settings } from "../settings.js";
import { game, isOver, plyToMove, pos } from "../game.js";
import { QUICK_MS, analyses, key, keyAt, plain, shown } from "../api.js";

const $ = (id) => document.getElementById(id);

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
export function workText(p) {
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

export function renderStatus() {
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
  // The opening's standard name (the server names a position up to symmetry): the last
  // position of the game up to the one shown that has one, as `ply othello review` names
  // a game that has left the named lines.
  const named = game.history.slice(0, game.at + 1).map((q) => (shown(q) || {}).opening).filter(Boolean);
  const opening = p.game === "othello" && !editing() && named.length ? named[named.length - 1] : "";
  $("opening").hidden = !opening;
  $("opening").textContent = opening ? `Opening: ${opening}` : "";

  const legend = $("legend");
  legend.innerHTML = p.game === "ttt"
    ? '<span><i style="background:var(--win)"></i>win</span><span><i style="background:var(--tie)"></i>draw</span><span><i style="background:var(--lose)"></i>loss</span><span>number: moves to the end</span>'
    : '<span><i style="background:hsl(140 70% 30%)"></i>best</span><span><i style="background:hsl(5 70% 30%)"></i>worse</span><span>score: final disc difference for the mover</span><span>≈ estimate, else exact</span>';
}
