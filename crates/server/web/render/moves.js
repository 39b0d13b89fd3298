// The move list, with what each move cost, and the undo and redo buttons.

import { colorName, settings } from "../settings.js";
import { atTip, game, moveNumbers } from "../game.js";
import { discText, review } from "../review.js";

const $ = (id) => document.getElementById(id);

function lossText(r) {
  if (r.loss === null) return r.mistake ? "?" : "";
  const d = discText(r.loss, r.exact);
  return r.loss === 0 ? "0" : `${r.exact ? "" : "≈"}−${d}`;
}

export function renderMoves() {
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
