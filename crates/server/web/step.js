// What happens next on its own: a forced pass, ply's reply at its level, and the analyses to
// fetch (the position on the board first, then the game review); and `refresh`, which every
// change of the game ends with.

import { Ttt, Oth } from "./rules.js";
import { LEVELS, budgetFor, settings } from "./settings.js";
import { atTip, game, isOver, isStart, notePly, playIndex, plyToMove, pos, push } from "./game.js";
import { QUICK_MS, abortOthers, analyses, checkSetup, key, keyAt, request, settled } from "./api.js";
import { reviewed } from "./review.js";
import { render } from "./render.js";
import { saveUrl } from "./address.js";

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
export function step() {
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
        notePly(game.at - 1, { move, level: settings.level, exact: Boolean(chosen && chosen.exact) && i === a.best, book: a.book && i === a.best, depth: a.depth });
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
export function stopStep() {
  clearTimeout(stepTimer);
}

// After every change: stops the analyses nobody waits for, draws the page, starts what comes
// next and writes the address.
export function refresh() {
  abortOthers();
  render();
  step();
  saveUrl();
}
