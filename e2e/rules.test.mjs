// The page's Othello rules (crates/server/web/rules.js, the ES module the browser imports)
// against the perft counts the Rust rules are tested with (testdata/perft.txt): every board
// size and depth of the file whose count is within a small budget of leaves, so the run takes
// a few seconds. Needs no browser and no binary: `node --test e2e/rules.test.mjs`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";

import { Oth } from "../crates/server/web/rules.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

// The most leaves a case of the file may have to be counted here.
const BUDGET = 100_000;

// `size depth leaves` lines of testdata/perft.txt, comments and blank lines left out.
function perftCases() {
  const text = readFileSync(join(root, "testdata/perft.txt"), "utf8");
  return text.split("\n").flatMap((line, k) => {
    const t = line.trim();
    if (t === "" || t.startsWith("#")) return [];
    const fields = t.split(/\s+/).map(Number);
    assert.equal(fields.length, 3, `testdata/perft.txt line ${k + 1}: expected size depth leaves`);
    assert.ok(fields.every(Number.isSafeInteger), `testdata/perft.txt line ${k + 1}: not whole numbers`);
    const [size, depth, leaves] = fields;
    return [{ size, depth, leaves }];
  });
}

// Leaves `depth` plies below `pos`, as the file counts them: a pass is a ply, and a game
// that has ended is one leaf at every depth past its end.
function perft(pos, depth) {
  if (depth === 0) return 1;
  const moves = Oth.moves(pos);
  if (moves.length === 0) {
    if (Oth.isOver(pos)) return 1;
    return perft(Oth.pass(pos), depth - 1);
  }
  if (depth === 1) return moves.length;
  let leaves = 0;
  for (const m of moves) leaves += perft(Oth.play(pos, m), depth - 1);
  return leaves;
}

const cases = perftCases();

test("testdata/perft.txt has cases of every size within the budget", () => {
  for (const size of [4, 6, 8]) {
    const counted = cases.filter((c) => c.size === size && c.leaves <= BUDGET);
    assert.ok(counted.length >= 6, `${size}x${size}: only ${counted.length} cases within ${BUDGET} leaves`);
  }
});

for (const { size, depth, leaves } of cases.filter((c) => c.leaves <= BUDGET)) {
  test(`perft ${size}x${size} depth ${depth} is ${leaves}`, () => {
    assert.equal(perft(Oth.start(size), depth), leaves);
  });
}

test("the start position, a pass and the end of a game", () => {
  const start = Oth.start(8);
  assert.deepEqual(Oth.moves(start).map((i) => Oth.name(start, i)), ["d3", "c4", "f5", "e6"]);
  assert.equal(Oth.index(start, "F5"), 37);
  const after = Oth.play(start, Oth.index(start, "f5"));
  assert.equal(Oth.count(after, "X"), 4);
  assert.equal(Oth.count(after, "O"), 1);
  assert.equal(after.turn, "O");
  // Black to move with no move while white has one: black must pass.
  const cells = Array(16).fill(".");
  cells[0] = "O";
  cells[1] = "X";
  const blocked = { game: "othello", size: 4, cells, turn: "X" };
  assert.ok(Oth.mustPass(blocked));
  assert.ok(!Oth.isOver(blocked));
  assert.deepEqual(Oth.moves(Oth.pass(blocked)).map((i) => Oth.name(blocked, i)), ["c1"]);
  // One disc each way blocked: over, 1-1 with 14 empties is a draw.
  const ended = { game: "othello", size: 4, cells: ["X", ".", ".", "O", ...Array(12).fill(".")], turn: "X" };
  assert.ok(Oth.isOver(ended));
  assert.equal(Oth.finalForBlack(ended), 0);
});
