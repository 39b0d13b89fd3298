// Draws the page from the state: the controls, the board, the status, the move list and the
// chart; then tells the panels in their own modules (explorer.js) the position shown.

import { input, settings } from "./settings.js";
import { pos } from "./game.js";
import { renderBoard } from "./render/board.js";
import { renderStatus } from "./render/status.js";
import { renderMoves } from "./render/moves.js";
import { renderChart } from "./render/chart.js";

const $ = (id) => document.getElementById(id);

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

export function render() {
  if (!pos()) return;
  renderControls();
  renderBoard();
  renderStatus();
  renderMoves();
  renderChart();
  // Panels in their own modules (explorer.js) follow the position shown.
  document.dispatchEvent(new CustomEvent("ply:position", { detail: pos() }));
}
