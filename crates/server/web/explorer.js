// The opening explorer panel: for the 8x8 position on the board, every legal move with the
// games of the server's WTHOR databases that played it (`ply serve --games FILE.wtb…`), and
// the games that reached the position, a page at a time, with their players
// (`--players WTHOR.JOU`). Every number is for the side to move, as the board's values are,
// and the engine column is the board's own analysis, so one move shows one value on the
// page. A click on a move plays it; a click on a game loads it. It follows the game through
// the `ply:position` event render() sends (main.js imports this module for that listener),
// asks main.js to play or load through `ply:play` and `ply:load`, and stays hidden on other
// boards and when the server has no databases (the API answers 404).

import { Oth } from "./rules.js";
import { shown } from "./api.js";
import { game } from "./game.js";

const panel = document.getElementById("explorer");
const body = document.getElementById("explorer-body");
const note = document.getElementById("explorer-note");
const gamesNote = document.getElementById("explorer-games-note");
const gamesList = document.getElementById("explorer-games");
const prev = document.getElementById("explorer-prev");
const next = document.getElementById("explorer-next");
// Games in a page of the list.
export const PAGE = 10;
// null until the first answer; false once the server says it has no databases.
let available = null;
let shownKey = "";
let controller = null;
// The position shown and the page of its games.
let current = null;
let offset = 0;
const cache = new Map();

const pct = (r) => (r === null ? "–" : `${(100 * r).toFixed(r === 0 || r === 1 ? 0 : 1)}%`);
// Signed, with a true minus sign, and never `-0`.
const signed = (d, digits) => {
  if (d === null) return "–";
  const r = Number(d.toFixed(digits)) + 0;
  return `${r > 0 ? "+" : r < 0 ? "−" : "+"}${Math.abs(r).toFixed(digits)}`;
};
const colour = (turn) => (turn === "X" ? "Black" : "White");

// The board's value of a move (the page's one analysis of the position), as the board
// shows it.
function engineText(p, mv) {
  const a = shown(p);
  const v = a && mv !== "pass" ? a.moves.get(Oth.index(p, mv)) : null;
  if (!v) return "…";
  return v.exact ? v.text.replace("-", "−") : `≈${v.text.replace("~", "").replace("-", "−")}`;
}

function drawMoves(p, a) {
  panel.hidden = false;
  const mover = a.turn === "X" ? 1 : -1;
  const reached = a.games + a.ended;
  const ended = a.ended ? `, ${a.ended} ended here` : "";
  note.textContent = `${reached} of ${a.indexed_games} games reached this position${ended}. ` +
    `Scores and values for ${colour(a.turn)}, to move.`;
  const rows = a.moves.map((m) => {
    const tr = document.createElement("tr");
    if (m.games === 0) tr.className = "unplayed";
    const rate = m.black_score_rate === null ? null : mover > 0 ? m.black_score_rate : 1 - m.black_score_rate;
    const discs = m.black_mean_discs === null ? null : mover * m.black_mean_discs;
    const cells = [m.move, String(m.games), pct(rate), signed(discs, 1), engineText(p, m.move)];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    tr.dataset.move = m.move;
    if (m.move !== "pass") {
      tr.classList.add("playable");
      tr.tabIndex = 0;
      tr.title = `Play ${m.move}`;
    }
    return tr;
  });
  body.replaceChildren(...rows);
}

function drawGames(a) {
  const page = a.reached;
  if (!page || page.total === 0) {
    gamesNote.textContent = "";
    gamesList.replaceChildren();
    prev.hidden = next.hidden = true;
    return;
  }
  const last = page.offset + page.games.length;
  gamesNote.textContent = `Games that reached it: ${page.offset + 1}–${last} of ${page.total}`;
  gamesList.replaceChildren(...page.games.map((g) => {
    const li = document.createElement("li");
    const result = `${g.black_discs}–${64 - g.black_discs}`;
    li.textContent = `${g.year} ${g.black} – ${g.white} ${result}`;
    li.dataset.moves = g.moves;
    li.tabIndex = 0;
    li.title = "Load this game";
    return li;
  }));
  prev.hidden = page.offset === 0;
  next.hidden = last >= page.total;
}

function fail(message) {
  panel.hidden = false;
  note.textContent = `Explorer: ${message}`;
  body.replaceChildren();
}

async function ask(url, signal) {
  const r = await fetch(url, { signal });
  const json = await r.json();
  if (r.status === 404) {
    available = false;
    return null;
  }
  if (!r.ok) throw new Error(json.error || `the server answered ${r.status}`);
  available = true;
  return json;
}

async function show(p) {
  if (!p || p.game !== "othello" || p.size !== 8 || available === false) {
    panel.hidden = true;
    shownKey = "";
    current = null;
    return;
  }
  // Another position's list starts at its first page.
  const here = `${p.cells.join("")}|${p.turn}`;
  if (!current || `${current.cells.join("")}|${current.turn}` !== here) offset = 0;
  current = p;
  const key = `${here}|${offset}`;
  if (key === shownKey) {
    // The same counts; the board's analysis may have moved on.
    if (cache.has(key)) drawMoves(p, cache.get(key));
    return;
  }
  shownKey = key;
  if (controller) controller.abort();
  controller = new AbortController();
  const { signal } = controller;
  try {
    let a = cache.get(key);
    if (!a) {
      a = await ask(`/api/othello/explore?position=${p.cells.join("")}&turn=${p.turn}&games_limit=${PAGE}&games_offset=${offset}`, signal);
      if (!a) { panel.hidden = true; return; }
      cache.set(key, a);
    }
    if (shownKey !== key) return;
    drawMoves(p, a);
    drawGames(a);
  } catch (e) {
    if (e.name !== "AbortError" && shownKey === key) fail(e.message);
  }
}

function turnPage(by) {
  if (!current) return;
  offset = Math.max(0, offset + by);
  show(current);
}

const activate = (handler) => (e) => {
  if (e.type === "keydown" && e.key !== "Enter" && e.key !== " ") return;
  if (handler(e) && e.type === "keydown") e.preventDefault();
};

const playRow = activate((e) => {
  const tr = e.target.closest("tr.playable");
  if (!tr) return false;
  document.dispatchEvent(new CustomEvent("ply:play", { detail: { move: tr.dataset.move } }));
  return true;
});
const loadGame = activate((e) => {
  const li = e.target.closest("li[data-moves]");
  if (!li) return false;
  document.dispatchEvent(new CustomEvent("ply:load", { detail: { moves: li.dataset.moves, at: game.at } }));
  return true;
});

body.addEventListener("click", playRow);
body.addEventListener("keydown", playRow);
gamesList.addEventListener("click", loadGame);
gamesList.addEventListener("keydown", loadGame);
prev.addEventListener("click", () => turnPage(-PAGE));
next.addEventListener("click", () => turnPage(PAGE));
document.addEventListener("ply:position", (e) => show(e.detail));
