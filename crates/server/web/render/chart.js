// The chart of the game's value, move by move, with the review's notes and summary.

import { settings } from "../settings.js";
import { game, moveNumbers } from "../game.js";
import { QUICK_MS } from "../api.js";
import { discText, review, reviewProgress, series, sideSummary } from "../review.js";

const $ = (id) => document.getElementById(id);

// The chart's vertical half-range for Othello values: wide enough for most of the game,
// so that one big swing (a blunder, or the final count) does not flatten the rest; values
// beyond it are drawn on the edge. At least 4 discs; at most the largest value.
export function chartSpan(values) {
  const mags = values.filter((x) => x !== null).map(Math.abs).sort((a, b) => a - b);
  if (!mags.length) return 4;
  const typical = mags[Math.floor(0.75 * (mags.length - 1))];
  return Math.max(4, Math.min(mags[mags.length - 1], Math.ceil(2 * typical)));
}

export function renderChart() {
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
