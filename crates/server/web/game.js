// The game on the board: its positions, the moves between them, the position shown, and how
// ply chose each of its moves; the rules' answers about them.

import { Ttt, Oth } from "./rules.js";
import { settings } from "./settings.js";

export const game = {
  // The positions of the game, the first one the start or a set-up position.
  history: [],
  // The moves between them, `pass` for a pass.
  labels: [],
  // The index in `history` of the position on the board.
  at: 0,
  // How ply chose its move after each position index, for an honest word on its level.
  plyNotes: new Map(),
};

// The position on the board, and whether it is the game's last.
export const pos = () => game.history[game.at];
export const atTip = () => game.at === game.history.length - 1;

export function isOver(p) {
  return p.game === "ttt" ? Ttt.isOver(p) : Oth.isOver(p);
}

export function legalMoves(p) {
  return p.game === "ttt" ? Ttt.moves(p) : Oth.moves(p);
}

// Whether `p` is its game's start position.
export const isStart = (p) => {
  const s = p.game === "ttt" ? Ttt.start(p.first) : Oth.start(p.size);
  return s.cells.join("") === p.cells.join("") && s.turn === p.turn;
};

// Whether ply plays the next move of `p`.
export function plyToMove(p) {
  return settings.mode === "play" && !isOver(p) && p.turn !== settings.human;
}

// Plays a move after the position on the board: the moves after it are dropped.
export function push(next, label) {
  for (const k of game.plyNotes.keys()) if (k >= game.at) game.plyNotes.delete(k);
  game.history = game.history.slice(0, game.at + 1);
  game.labels = game.labels.slice(0, game.at);
  game.history.push(next);
  game.labels.push(label);
  game.at += 1;
}

// Plays the move on square `i` if it is legal; says whether it was.
export function playIndex(i) {
  const p = pos();
  if (!legalMoves(p).includes(i)) return false;
  if (p.game === "ttt") push(Ttt.play(p, i), Ttt.name(i));
  else push(Oth.play(p, i), Oth.name(p, i));
  return true;
}

// Steps back a move (false when there is none).
export function goBack() {
  if (game.at === 0) return false;
  game.at -= 1;
  // Against ply, go back to a position where it is your move.
  while (settings.mode === "play" && game.at > 0 && (pos().turn !== settings.human || game.labels[game.at - 1] === "pass")) game.at -= 1;
  return true;
}

// Steps forward a move (false when there is none).
export function goForward() {
  if (atTip()) return false;
  game.at += 1;
  while (settings.mode === "play" && !atTip() && pos().turn !== settings.human) game.at += 1;
  return true;
}

// Puts position `k` of the game on the board (clamped to the game); says whether it moved.
export function goTo(k) {
  const at = Math.max(0, Math.min(game.history.length - 1, k));
  if (at === game.at) return false;
  game.at = at;
  return true;
}

// The square of move `l` (a label such as `c2` or `f5`) played from `p`.
export function labelIndex(p, l) {
  return p.game === "ttt" ? "abc".indexOf(l[0]) + 3 * (Number(l[1]) - 1) : Oth.index(p, l);
}

// The square of the move that led to the position on the board, -1 for none or a pass.
export function lastMoveIndex() {
  const l = game.labels[game.at - 1];
  if (!l || l === "pass") return -1;
  return labelIndex(pos(), l);
}

// Move numbers as players count them: a pass is not a move.
export function moveNumbers() {
  let n = 0;
  return game.labels.map((l) => (l === "pass" ? null : ++n));
}

// The moves as a transcript (passes left out: the reader infers them) and the position on
// the board as an OBF line.
export function transcriptText() {
  return game.labels.slice(0, game.at).filter((l) => l !== "pass").join("");
}

export function obfText() {
  const p = pos();
  return `${p.cells.map((c) => (c === "." ? "-" : c)).join("")} ${p.turn};`;
}
