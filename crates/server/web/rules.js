// The rules of both games, so the page can show and play moves at once. The server reads
// pasted text and judges set-up positions (with the reader and rules the command line uses),
// and answers what every move is worth. An ES module: the page imports it, and so does
// node's test of it against the perft counts (e2e/rules.test.mjs).

const TTT_LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];

export const Ttt = {
  start(first) {
    return { game: "ttt", cells: Array(9).fill("."), turn: first, first };
  },
  winner(pos) {
    for (const [a, b, c] of TTT_LINES) {
      const m = pos.cells[a];
      if (m !== "." && m === pos.cells[b] && m === pos.cells[c]) return { mark: m, line: [a, b, c] };
    }
    return null;
  },
  isOver(pos) {
    return Ttt.winner(pos) !== null || pos.cells.every((c) => c !== ".");
  },
  moves(pos) {
    if (Ttt.isOver(pos)) return [];
    return pos.cells.flatMap((c, i) => (c === "." ? [i] : []));
  },
  play(pos, i) {
    const cells = pos.cells.slice();
    cells[i] = pos.turn;
    return { ...pos, cells, turn: pos.turn === "X" ? "O" : "X" };
  },
  name(i) {
    return "abc"[i % 3] + (Math.floor(i / 3) + 1);
  },
  board(pos) {
    return pos.cells.join("");
  },
};

const DIRS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];

export const Oth = {
  start(size) {
    const cells = Array(size * size).fill(".");
    const h = size / 2;
    cells[(h - 1) * size + h - 1] = "O";
    cells[h * size + h] = "O";
    cells[(h - 1) * size + h] = "X";
    cells[h * size + h - 1] = "X";
    return { game: "othello", size, cells, turn: "X" };
  },
  other(c) {
    return c === "X" ? "O" : "X";
  },
  flips(pos, i, who = pos.turn) {
    const n = pos.size;
    if (pos.cells[i] !== ".") return [];
    const them = Oth.other(who);
    const c0 = i % n, r0 = Math.floor(i / n);
    const out = [];
    for (const [dc, dr] of DIRS) {
      const run = [];
      let c = c0 + dc, r = r0 + dr;
      while (c >= 0 && c < n && r >= 0 && r < n && pos.cells[r * n + c] === them) {
        run.push(r * n + c);
        c += dc;
        r += dr;
      }
      if (run.length && c >= 0 && c < n && r >= 0 && r < n && pos.cells[r * n + c] === who) out.push(...run);
    }
    return out;
  },
  moves(pos, who = pos.turn) {
    return pos.cells.flatMap((_, i) => (Oth.flips(pos, i, who).length ? [i] : []));
  },
  mustPass(pos) {
    return Oth.moves(pos).length === 0 && Oth.moves(pos, Oth.other(pos.turn)).length > 0;
  },
  isOver(pos) {
    return Oth.moves(pos).length === 0 && Oth.moves(pos, Oth.other(pos.turn)).length === 0;
  },
  play(pos, i) {
    const cells = pos.cells.slice();
    for (const f of Oth.flips(pos, i)) cells[f] = pos.turn;
    cells[i] = pos.turn;
    return { ...pos, cells, turn: Oth.other(pos.turn) };
  },
  pass(pos) {
    return { ...pos, turn: Oth.other(pos.turn) };
  },
  count(pos, who) {
    return pos.cells.filter((c) => c === who).length;
  },
  // Final disc difference for black, empty squares to the winner.
  finalForBlack(pos) {
    const x = Oth.count(pos, "X"), o = Oth.count(pos, "O");
    const empty = pos.cells.length - x - o;
    if (x > o) return x - o + empty;
    if (o > x) return x - o - empty;
    return 0;
  },
  name(pos, i) {
    return "abcdefgh"[i % pos.size] + (Math.floor(i / pos.size) + 1);
  },
  index(pos, name) {
    const m = /^([a-h])([1-8])$/i.exec(name);
    if (!m) return -1;
    const c = m[1].toLowerCase().charCodeAt(0) - 97, r = Number(m[2]) - 1;
    if (c >= pos.size || r >= pos.size) return -1;
    return r * pos.size + c;
  },
  board(pos) {
    return pos.cells.join("");
  },
};
