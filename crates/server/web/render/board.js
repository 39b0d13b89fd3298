// The board: discs or marks, the legal moves with their values, the last move, the cursor,
// and the coordinates along the edges.

import { Ttt, Oth } from "../rules.js";
import { colorName, editing, input, settings } from "../settings.js";
import { atTip, game, isOver, lastMoveIndex, legalMoves, plyToMove, pos } from "../game.js";
import { analyses, key, shown } from "../api.js";

const $ = (id) => document.getElementById(id);

function valueColor(gap, exact) {
  // Best move green, then through amber to red as the move gives away more discs.
  const t = Math.max(0, Math.min(1, gap / (exact ? 12 : 8)));
  const hue = 140 - 135 * t;
  return `hsl(${hue} ${exact ? 70 : 55}% ${exact ? 30 : 34}%)`;
}

export function renderBoard() {
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
