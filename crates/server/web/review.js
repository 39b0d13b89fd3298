// The game review: what every move cost, the value of every position for the chart, how far
// the review has got, and each side's summary.

import { Ttt, Oth } from "./rules.js";
import { colorName } from "./settings.js";
import { game, isOver, labelIndex } from "./game.js";
import { analyses, key, settled } from "./api.js";

// The positions of the game the review covers: all of them, but a set-up position the
// server refused.
export function reviewed() {
  return game.history.filter((q) => !analyses.invalid.has(key(q)));
}

// Discs as people read them: whole when exact, to a tenth when estimated.
export const discText = (d, exact) => (exact || Number.isInteger(d) ? String(d) : d.toFixed(1));

// What every move cost its mover, from the finished analysis of the position before it: the
// best move's score less the score of the move played (Othello, in discs), or a worse
// outcome than the best move's (tic-tac-toe). `null` where that analysis is not in yet;
// `{ pass: true }` for a pass.
export function review() {
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
export function series() {
  return game.history.map((p) => {
    if (analyses.invalid.has(key(p))) return null;
    if (isOver(p)) return p.game === "ttt" ? (Ttt.winner(p) ? (Ttt.winner(p).mark === "X" ? 1 : -1) : 0) : Oth.finalForBlack(p);
    const a = settled(p);
    return a ? a.value : null;
  });
}

// How far the review has got: positions analysed in the quick pass and at the full budget.
export function reviewProgress() {
  const open = reviewed().filter((q) => !isOver(q));
  const quick = open.filter((q) => settled(q)).length;
  const full = open.filter((q) => (analyses.cache.get(key(q)) || {}).final).length;
  return { total: open.length, quick, full };
}

// Per side: moves reviewed, mistakes, and discs given away.
export function sideSummary(rv) {
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
