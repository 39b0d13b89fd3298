// Browser end-to-end tests: the real `ply serve` and the real page in headless Chromium.
//
// Starts `target/debug/ply serve --addr 127.0.0.1:0` (or $PLY_BIN), drives Debian's
// Chromium (or $CHROMIUM) through playwright-core, and saves screenshots under target/e2e/.
// A missing browser or binary is a failure, not a skip.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkTools, launchBrowser, openPlyPage, plyBin, shots, startServer, stopAll } from "./common.mjs";

let server;
let base;
let browser;
let profile;

before(async () => {
  checkTools();
  ({ child: server, url: base } = await startServer());
  profile = mkdtempSync(join(tmpdir(), "ply-e2e-"));
  browser = await launchBrowser(profile);
});

after(async () => {
  await stopAll(browser, server);
  if (profile) rmSync(profile, { recursive: true, force: true });
});

// A page of this file's server; see openPlyPage.
const openPage = (viewport) => openPlyPage(browser, base, viewport);

// Waits until the game is over or it is the human's move; returns which.
async function waitForTurn(page) {
  await page.waitForFunction(() => {
    const result = document.getElementById("result");
    const status = document.getElementById("status").textContent;
    return !result.hidden || /your move/.test(status);
  }, null, { timeout: 60000 });
  return page.evaluate(() => (document.getElementById("result").hidden ? "move" : "over"));
}

async function clickRandomLegal(page) {
  const cells = await page.$$eval("#board .cell.legal", (cs) => cs.map((c) => c.dataset.index));
  assert.ok(cells.length > 0, "a legal cell to click");
  const pick = cells[Math.floor(Math.random() * cells.length)];
  await page.click(`#board .cell[data-index="${pick}"]`);
}

test("ply never loses a game of tic-tac-toe, from either side", { timeout: 180000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-ttt");
  await page.click("#mode-play");
  for (const [k, human] of ["X", "O", "X", "O"].entries()) {
    await page.click(human === "X" ? "#human-x" : "#human-o");
    await page.click("#new-game");
    for (;;) {
      if ((await waitForTurn(page)) === "over") break;
      await clickRandomLegal(page);
    }
    const result = await page.textContent("#result");
    assert.doesNotMatch(result, /you win/, `game ${k + 1}: ${result}`);
    // The board agrees: the human has no line of three.
    const marks = await page.$$eval("#board .cell", (cs) => cs.map((c) => c.dataset.disc || "."));
    const lines = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
    assert.ok(!lines.some((l) => l.every((i) => marks[i] === human)), `game ${k + 1}: ${marks.join("")}`);
    await page.screenshot({ path: join(shots, `ttt-game-${k + 1}.png`) });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("a 4x4 Othello game against ply ends with the score the board shows", { timeout: 180000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-othello");
  await page.click("#size-4");
  await page.click("#mode-play");
  await page.click("#human-x");
  await page.click("#new-game");
  for (;;) {
    if ((await waitForTurn(page)) === "over") break;
    await clickRandomLegal(page);
  }
  const black = await page.$$eval('#board .cell[data-disc="X"]', (c) => c.length);
  const white = await page.$$eval('#board .cell[data-disc="O"]', (c) => c.length);
  assert.equal(await page.textContent("#score"), `Black ${black} – White ${white}`);
  const result = await page.textContent("#result");
  const hi = Math.max(black, white), lo = Math.min(black, white);
  const want = black > white ? `Black wins ${hi}–${lo}` : white > black ? `White wins ${hi}–${lo}` : `Draw ${black}–${white}`;
  assert.ok(result.startsWith(want), `result "${result}", board ${black}–${white}`);
  // 4x4 is a white win with perfect play and ply plays perfectly here: black cannot win.
  assert.ok(black < white, `ply (white) lost ${black}–${white}`);
  const moves = await page.$$eval("#moves li button", (b) => b.length);
  assert.ok(moves >= 6, `only ${moves} moves listed`);
  await page.screenshot({ path: join(shots, "othello-4x4-final.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("move values appear on the board", { timeout: 120000 }, async () => {
  const { page, errors } = await openPage();
  // Tic-tac-toe, two players with hints: from the empty board every move draws, in 9 moves.
  await page.click("#game-ttt");
  await page.click("#mode-hints");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length === 9);
  const ttt = await page.$$eval("#board .cell .val", (vs) => vs.map((v) => v.textContent));
  assert.deepEqual(ttt, Array(9).fill("D9"));
  // After X takes a corner, O's only non-losing reply is the centre.
  await page.click('#board .cell[data-index="0"]');
  await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length === 8);
  const after = await page.$$eval("#board .cell[data-value]", (cs) => cs.map((c) => [Number(c.dataset.index), c.dataset.value]));
  for (const [i, v] of after) assert.equal(v, i === 4 ? "D" : "L", `cell ${i}`);
  await page.screenshot({ path: join(shots, "ttt-values.png") });

  // Othello 4x4: all four opening moves lose by 10, exactly (estimates may show first, as
  // the analysis streams in).
  await page.click("#game-othello");
  await page.click("#size-4");
  await page.waitForFunction(() => [...document.querySelectorAll("#board .cell[data-value]")].filter((c) => !c.dataset.value.startsWith("~")).length === 4);
  const oth = await page.$$eval("#board .cell[data-value]", (cs) => cs.map((c) => c.dataset.value));
  assert.deepEqual(oth, ["-10", "-10", "-10", "-10"]);
  await page.screenshot({ path: join(shots, "othello-4x4-values.png") });

  // Othello 8x8: estimates, marked with ~; at the start, the opening book's.
  await page.selectOption("#budget", "200");
  await page.click("#size-8");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length === 4, null, { timeout: 30000 });
  const est = await page.$$eval("#board .cell[data-value]", (cs) => cs.map((c) => c.dataset.value));
  assert.ok(est.every((v) => v.startsWith("~")), est.join(" "));
  await page.waitForFunction(() => /book: .*\(depth \d+\)/.test(document.getElementById("eval").textContent), null, { timeout: 10000 });
  await page.screenshot({ path: join(shots, "othello-8x8-values.png") });

  // Analysis: a pasted transcript is replayed and analysed.
  await page.click("#mode-analyze");
  await page.fill("#paste", "f5d6c3d3c4");
  await page.click("#paste-form button[type=submit]");
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 5);
  await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length > 0, null, { timeout: 30000 });
  await page.screenshot({ path: join(shots, "othello-8x8-analysis.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("6x6 opens with the exact value from the book, for every first move", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-othello");
  await page.click("#size-6");
  await page.click("#mode-hints");
  await page.waitForFunction(() => document.querySelectorAll("#board .val.exact").length === 4, null, { timeout: 30000 });
  const vals = await page.$$eval("#board .val", (vs) => vs.map((v) => v.textContent.trim()));
  assert.deepEqual(vals.map((v) => v.replace("\u2212", "-")), ["-4", "-4", "-4", "-4"]);
  assert.match(await page.textContent("#eval"), /white/i);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the page fits a phone screen", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage({ width: 390, height: 844 });
  await page.click("#game-othello");
  await page.click("#size-6");
  await page.click("#mode-hints");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length === 4, null, { timeout: 30000 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width}px wide on a 390px screen`);
  const board = await page.$eval("#board", (b) => b.getBoundingClientRect().width);
  assert.ok(board > 300, `board only ${board}px wide`);
  await page.screenshot({ path: join(shots, "phone-othello-6x6.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the keyboard plays moves and undoes them", { timeout: 60000 }, async () => {
  const { page } = await openPage();
  await page.click("#game-ttt");
  await page.click("#mode-hints");
  await page.keyboard.press("5");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Enter");
  assert.deepEqual(await moveTexts(page), ["1.b2", "2.c2"]);
  await page.keyboard.press("u");
  assert.equal(await page.$$eval("#moves li.current", (l) => l.length), 1);
  assert.equal(await page.$eval('#board .cell[data-index="5"]', (c) => c.dataset.disc || ""), "");
  await page.keyboard.press("r");
  assert.equal(await page.$eval('#board .cell[data-index="5"]', (c) => c.dataset.disc), "O");
  await page.close();
});

// A square that cannot be played says why, under the board, and shakes; a legal move
// clears the message.
test("a click on a square that cannot be played says why", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-othello");
  await page.click("#size-8");
  await page.click("#mode-hints");
  const cell = (sq) => `#board .cell[data-index="${(Number(sq[1]) - 1) * 8 + (sq.charCodeAt(0) - 97)}"]`;
  await page.click(cell("d4"));
  assert.equal(await page.textContent("#move-note"), "d4 is taken");
  assert.ok(await page.$eval(cell("d4"), (c) => c.classList.contains("refused")));
  await page.click(cell("a1"));
  assert.equal(await page.textContent("#move-note"), "a1 is not a legal move for Black");
  assert.deepEqual(await moveTexts(page), []);
  await page.click(cell("f5"));
  assert.equal(await page.textContent("#move-note"), "");
  assert.deepEqual(await moveTexts(page), ["1.f5"]);
  assert.deepEqual(errors, []);
  await page.close();
});

// ←/→ step through a game and Home/End go to its ends, when the keyboard is not on the
// board; on the board the arrows move the cursor.
test("the arrow keys step through a game", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-othello");
  await page.click("#size-8");
  await page.click("#mode-analyze");
  await page.fill("#paste", "f5d6c3d3c4");
  await page.click("#paste-form button[type=submit]");
  await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 5);
  await page.click("h1");
  const current = () => page.$eval("#moves li.current button", (b) => b.querySelector(".n").textContent + b.childNodes[1].textContent).catch(() => null);
  assert.equal(await current(), "5.c4");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await current(), "4.d3");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowRight");
  assert.equal(await current(), "4.d3");
  await page.keyboard.press("Home");
  assert.equal(await current(), null, "the start: no move yet");
  await page.keyboard.press("End");
  assert.equal(await current(), "5.c4");
  assert.deepEqual(errors, []);
  await page.close();
});

// ---- issue 11: the page never misleads ---------------------------------------------------

// The 8x8 start position, and one with 14 empty squares (8 moves) that the exact solver
// finishes within a second even in a debug build.
const START8 = "...........................OX......XO...........................";
const ENDGAME14 = "OOXXXXXX-OOXOOOXOOXOXOOXOOXXOXXXOOXOOOXXXOOXXXXX-O--O--X-------- X";
// FFO #40 (testdata/ffo40-49.obf: 20 empties, 10 moves, a2 best at +38), whose moves the
// debug build solves one by one, a few tenths of a second apart, within a 10 s budget. The
// 14-empty position's solves came a few milliseconds apart, often in one read of the stream,
// so that the page drew only the last of them.
const FFO40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";

async function paste(page, text) {
  await page.fill("#paste", text);
  await page.click("#paste-form button[type=submit]");
}

// Waits until the paste was answered: an error shown, or a board matching `cells`.
async function pasteError(page, text) {
  await page.evaluate(() => { document.getElementById("paste-error").textContent = ""; });
  await paste(page, text);
  await page.waitForFunction(() => document.getElementById("paste-error").textContent !== "");
  return page.textContent("#paste-error");
}

// Clicks the cells in turn, each once the last move is listed.
async function playMoves(page, cells) {
  for (const i of cells) {
    const n = await page.$$eval("#moves li button", (b) => b.length);
    await page.click(`#board .cell[data-index="${i}"]`);
    await page.waitForFunction((k) => document.querySelectorAll("#moves li button").length === k, n + 1, { timeout: 5000 });
  }
}

const boardCells = (page) => page.$$eval("#board .cell", (cs) => cs.map((c) => c.dataset.disc || ".").join(""));

test("pastes are read by the server with the CLI's reader; bad ones say what is wrong", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-othello");
  // Othello opens on 8x8.
  assert.equal(await page.$$eval("#board .cell", (c) => c.length), 64);
  await page.click("#mode-analyze");
  // White to move stays white to move.
  await paste(page, `${START8} W`);
  await page.waitForFunction(() => /White to move/.test(document.getElementById("status").textContent));
  assert.equal(await page.getAttribute("#turn-o", "aria-pressed"), "true");
  // The B/W symbol set, black to move.
  await paste(page, `${START8.replace(/O/g, "W").replace(/X/g, "B")} B`);
  await page.waitForFunction(() => /Black to move/.test(document.getElementById("status").textContent));
  assert.equal(await boardCells(page), START8);
  assert.equal(await page.textContent("#paste-error"), "");
  // What the CLI refuses, the page refuses with the same message.
  assert.match(await pasteError(page, START8), /side to move is missing/);
  assert.match(await pasteError(page, "f5 pass d6"), /cannot pass/);
  assert.match(await pasteError(page, "f5f5"), /move 2/);
  await page.screenshot({ path: join(shots, "paste-error.png") });
  // A written pass where it is forced loads, on the board size chosen; the address keeps it.
  await page.click("#size-4");
  await paste(page, "d3 d2 d1 b4 a2 b1 a4 d4 c4 pass a1");
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 11);
  // The pass is listed but not numbered: a1 is the tenth move.
  assert.deepEqual((await moveTexts(page)).slice(-3), ["9.c4", "pass", "10.a1"]);
  assert.match(page.url(), /moves=d3d2d1b4a2b1a4d4c4paa1/);
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 11);
  await page.click("#size-8");
  // Tic-tac-toe: a board no game reaches is refused, not shown as a win.
  await page.click("#game-ttt");
  await page.click("#mode-analyze");
  const err = await pasteError(page, "xxx/ooo/...");
  assert.ok(err.length > 10, err);
  assert.equal(await page.isHidden("#result"), true);
  assert.equal(await boardCells(page), ".........");
  assert.deepEqual(errors, []);
  await page.close();
});

test("changing Think analyses again", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  const asked = [];
  page.on("request", (r) => { if (r.url().includes("/analyze")) asked.push(new URL(r.url()).searchParams.get("budget_ms")); });
  await page.click("#game-othello");
  await page.click("#mode-hints");
  await page.selectOption("#budget", "200");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length === 4, null, { timeout: 30000 });
  await page.selectOption("#budget", "1000");
  await page.waitForFunction(() => !document.querySelector("#status .thinking") && document.querySelectorAll("#board .cell[data-value]").length === 4, null, { timeout: 30000 });
  assert.ok(asked.includes("200") && asked.includes("1000"), asked.join(" "));
  // After Load too (a game out of the opening book, whose answers would come at once).
  await page.click("#mode-analyze");
  await paste(page, "f5f4e3");
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 3);
  const before = asked.length;
  await page.selectOption("#budget", "200");
  while (asked.length === before) await page.waitForTimeout(50);
  await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length > 0, null, { timeout: 30000 });
  assert.equal(asked[asked.length - 1], "200");
  assert.deepEqual(errors, []);
  await page.close();
});

test("exact values appear as the solver finds them, the best move first", { timeout: 90000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-othello");
  await page.click("#mode-analyze");
  await page.selectOption("#budget", "10000");
  // Record what the board shows after every change.
  await page.evaluate(() => {
    window.seen = [];
    new MutationObserver(() => {
      const vals = [...document.querySelectorAll("#board .val")];
      if (!vals.length) return;
      const cell = (v) => v.closest(".cell").dataset.index;
      const best = document.querySelector("#board .val.best");
      window.seen.push({
        exact: vals.filter((v) => v.classList.contains("exact")).length,
        estimate: vals.filter((v) => v.classList.contains("estimate")).length,
        exactCells: vals.filter((v) => v.classList.contains("exact")).map(cell),
        best: best ? cell(best) : null,
      });
    }).observe(document.getElementById("board"), { subtree: true, childList: true, attributes: true });
  });
  await paste(page, FFO40);
  let shot = false;
  // Until every move is exact, or a minute (the budget is 10 s) so that a slow solve fails
  // here with what the page showed rather than at the test's timeout.
  for (const until = Date.now() + 60000; Date.now() < until; ) {
    const s = await page.evaluate(() => window.seen[window.seen.length - 1] || null);
    if (s && s.exact > 0 && s.estimate > 0 && !shot) {
      await page.screenshot({ path: join(shots, "analysis-streaming.png") });
      shot = true;
    }
    if (s && s.exact === 10) break;
    await page.waitForTimeout(50);
  }
  const seen = await page.evaluate(() => window.seen);
  assert.equal(seen.length && seen[seen.length - 1].exact, 10, `not every move became exact: ${JSON.stringify(seen)}`);
  const mixed = seen.filter((s) => s.exact > 0 && s.estimate > 0);
  assert.ok(mixed.length > 0, `exact values and estimates never shown together: ${JSON.stringify(seen)}`);
  // The solver takes the position first: the first move to become exact is the best one,
  // framed as best from then on.
  const first = seen.findIndex((s) => s.exact > 0);
  assert.ok(first > 0 && seen[first - 1].exact === 0, `no estimates before exact values: ${JSON.stringify(seen)}`);
  assert.ok(seen[first].exactCells.includes(seen[first].best), JSON.stringify(seen.slice(0, first + 1)));
  assert.equal(seen[first].best, "8", `a2 (square 8) is FFO #40's best move: ${JSON.stringify(seen.slice(0, first + 1))}`);
  await page.waitForFunction(() => /perfect play/.test(document.getElementById("eval").textContent), null, { timeout: 30000 });
  await page.screenshot({ path: join(shots, "analysis-exact.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("setting up a position: clear board, no game-over banner, the server's rules", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-othello");
  await page.click("#mode-analyze");
  await page.click("#clear-board");
  assert.equal(await boardCells(page), ".".repeat(64));
  await page.waitForFunction(() => /centre square/.test(document.getElementById("status").textContent));
  assert.equal(await page.isHidden("#result"), true);
  assert.doesNotMatch(await page.textContent("#status"), /Game over/);
  await page.screenshot({ path: join(shots, "setup-cleared.png") });
  // Fill the centre again: the server accepts it, the message goes and values come.
  await page.click("#paint-x");
  for (const i of [28, 35]) await page.click(`#board .cell[data-index="${i}"]`);
  await page.click("#paint-o");
  for (const i of [27]) await page.click(`#board .cell[data-index="${i}"]`);
  await page.waitForFunction(() => /centre square e5/.test(document.getElementById("status").textContent));
  await page.click('#board .cell[data-index="36"]');
  await page.waitForFunction(() => !/The server says/.test(document.getElementById("status").textContent)
    && document.querySelectorAll("#board .cell[data-value]").length === 4, null, { timeout: 30000 });
  assert.equal(await page.isHidden("#result"), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a move of the list and a point of the chart put their position on the board", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-othello");
  await page.click("#mode-analyze");
  await paste(page, "f5d6c3");
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 3);
  const score = () => page.textContent("#score");
  assert.equal(await score(), "Black 5 – White 2");
  // The first move of the list: the position after it, the later moves still listed.
  await page.click("#moves li:nth-child(1) button");
  await page.waitForFunction(() => document.querySelector("#moves li:nth-child(1)").classList.contains("current"));
  assert.equal(await score(), "Black 4 – White 1");
  assert.match(page.url(), /[?&]at=1(&|$)/);
  assert.equal(await page.$$eval("#moves li button", (b) => b.length), 3);
  assert.equal(await page.isDisabled("#redo"), false);
  // The chart's first point: the start position, no move current, nothing to undo.
  await page.waitForSelector('#chart circle[data-ply="0"]', { timeout: 30000 });
  await page.click('#chart circle[data-ply="0"]');
  await page.waitForFunction(() => document.getElementById("undo").disabled);
  assert.equal(await score(), "Black 2 – White 2");
  assert.equal(await page.$$eval("#moves li.current", (l) => l.length), 0);
  assert.match(page.url(), /[?&]at=0(&|$)/);
  // The last move of the list: back at the end of the game, which the address no longer marks.
  await page.click("#moves li:nth-child(3) button");
  await page.waitForFunction(() => document.getElementById("redo").disabled);
  assert.doesNotMatch(page.url(), /[?&]at=/);
  assert.equal(await score(), "Black 5 – White 2");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the game is in the address: a link opens it, a reload keeps it, one click copies it", { timeout: 60000 }, async () => {
  await browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const { page, errors } = await openPage();
  await page.click("#game-othello");
  await page.click("#mode-hints");
  await playMoves(page, [37, 43, 18]);
  assert.match(page.url(), /moves=f5d6c3/);
  const cells = await boardCells(page);
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 3);
  assert.equal(await boardCells(page), cells);
  const other = await browser.newPage();
  await other.goto(page.url());
  await other.waitForFunction(() => document.querySelectorAll("#moves li button").length === 3);
  assert.equal(await boardCells(other), cells);
  await other.close();
  await page.click("#copy-transcript");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "f5d6c3");
  await page.click("#copy-obf");
  const obf = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(obf, `${cells.replace(/\./g, "-")} O;`);
  await page.screenshot({ path: join(shots, "copied.png") });
  // The copied OBF line loads back as the same position.
  await page.click("#mode-analyze");
  await paste(page, obf);
  // Analyse mode keeps the game (the same cells), so wait until the pasted position has
  // replaced its three moves: the server answers the paste a moment later.
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 0, null, { timeout: 10000 });
  assert.equal(await boardCells(page), cells);
  assert.deepEqual(errors, []);
  await page.close();
});

// The human plays perfectly, asking the API; returns the page's result line.
async function playPerfectTtt(page) {
  for (;;) {
    if ((await waitForTurn(page)) === "over") return page.textContent("#result");
    const board = await page.$$eval("#board .cell", (cs) => cs.map((c) => c.dataset.disc || ".").join(""));
    const a = await (await fetch(`${base}/api/ttt/analyze?board=${board}`)).json();
    const rank = (m) => (m.value === "win" ? 100 - m.remoteness : m.value === "tie" ? 0 : -100 + m.remoteness);
    const best = a.moves.reduce((x, y) => (rank(y) > rank(x) ? y : x));
    await page.click(`#board .cell[data-index="${best.move}"]`);
  }
}

// The human plays Othello perfectly (the API solves 4x4 exactly); returns the result line.
async function playPerfectOthello(page) {
  for (;;) {
    if ((await waitForTurn(page)) === "over") return page.textContent("#result");
    const cells = await page.$$eval("#board .cell", (cs) => cs.map((c) => c.dataset.disc || ".").join(""));
    const a = await (await fetch(`${base}/api/othello/analyze?size=4&position=${cells}&turn=X`)).json();
    const index = (m) => "abcd".indexOf(m[0]) + 4 * (Number(m[1]) - 1);
    const n = await page.$$eval("#moves li button", (b) => b.length);
    await page.click(`#board .cell[data-index="${index(a.best)}"]`);
    await page.waitForFunction((k) => document.querySelectorAll("#moves li button").length > k, n);
  }
}

const OTHELLO_SEED = 7;

test("a beginner can beat ply's lowest level; the level is in the link", { timeout: 120000 }, async () => {
  const { page, errors } = await openPage();
  await page.goto(`${base}/?g=ttt&mode=play&you=X&level=beginner&seed=7`);
  await page.waitForSelector("#board .cell");
  assert.equal(await page.inputValue("#level"), "beginner");
  const result = await playPerfectTtt(page);
  assert.match(result, /you win/, result);
  await page.screenshot({ path: join(shots, "ttt-beginner-beaten.png") });
  // With the same seed, the casual level (any move that does not lose) and the perfect one
  // do not lose.
  for (const level of ["casual", "strong"]) {
    await page.goto(`${base}/?g=ttt&mode=play&you=X&level=${level}&seed=7`);
    await page.waitForSelector("#board .cell");
    assert.doesNotMatch(await playPerfectTtt(page), /you win/, level);
  }
  // Othello 4x4 is a white win with perfect play, yet perfect black beats the beginner.
  await page.goto(`${base}/?g=othello&n=4&mode=play&you=X&level=beginner&seed=${OTHELLO_SEED}`);
  await page.waitForSelector("#board .cell");
  const won = await playPerfectOthello(page);
  assert.match(won, /you win/, won);
  await page.screenshot({ path: join(shots, "othello-4x4-beginner-beaten.png") });
  // On Othello the lower levels think less: the beginner's reply is a 0.1 s search.
  const asked = [];
  page.on("request", (r) => { if (r.url().includes("/analyze")) asked.push(new URL(r.url()).searchParams.get("budget_ms")); });
  await page.goto(`${base}/?g=othello&n=8&mode=play&you=O&level=beginner&seed=7`);
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 1, null, { timeout: 30000 });
  assert.equal(asked[0], "100", asked.join(" "));
  assert.deepEqual(errors, []);
  await page.close();
});

test("looks: coordinates clear of values, a readable chart, phone-sized text, a busy board", { timeout: 90000 }, async () => {
  for (const viewport of [{ width: 1100, height: 900 }, { width: 390, height: 844 }]) {
    const { page, errors } = await openPage(viewport);
    await page.click("#game-othello");
    await page.click("#mode-hints");
    await playMoves(page, [37, 43, 18]);
    await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length > 0, null, { timeout: 30000 });
    await page.waitForFunction(() => document.querySelectorAll("#chart circle").length >= 2 && document.querySelector('#chart circle[data-ply="0"]'), null, { timeout: 30000 });
    const overlaps = await page.evaluate(() => {
      const box = (e) => e.getBoundingClientRect();
      const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const coords = [...document.querySelectorAll(".coord")].map(box);
      const vals = [...document.querySelectorAll("#board .val")].map(box);
      const out = [];
      for (const c of coords) for (const v of vals) if (hit(c, v)) out.push("coordinate under a value");
      const first = box(document.querySelector('#chart circle[data-ply="0"]'));
      for (const t of document.querySelectorAll("#chart text")) if (hit(first, box(t))) out.push(`first point on "${t.textContent}"`);
      return out;
    });
    assert.deepEqual(overlaps, [], `${viewport.width}px`);
    const small = await page.evaluate(() => {
      const out = [];
      for (const e of document.querySelectorAll("#board .val, .coord")) {
        const px = parseFloat(getComputedStyle(e).fontSize);
        if (px < 11) out.push(`${e.className} ${px}px`);
        if (e.scrollWidth > e.clientWidth + 1) out.push(`${e.className} "${e.textContent}" overflows its tile`);
      }
      const svg = document.getElementById("chart");
      const scale = svg.getBoundingClientRect().width / 320;
      for (const t of svg.querySelectorAll("text")) {
        const px = parseFloat(getComputedStyle(t).fontSize) * scale;
        if (px < 10) out.push(`chart "${t.textContent}" ${px.toFixed(1)}px`);
      }
      return out;
    });
    assert.deepEqual(small, [], `${viewport.width}px`);
    await page.screenshot({ path: join(shots, `looks-${viewport.width}.png`), fullPage: viewport.width < 500 });
    assert.deepEqual(errors, []);
    await page.close();
  }
  const { page, errors } = await openPage();
  // One big swing does not flatten the rest; a steady game uses the whole height.
  const chartSpan = (values) => page.evaluate(async (v) => (await import("/render/chart.js")).chartSpan(v), values);
  assert.ok(await chartSpan([0, 2, -2, 4, 3, 64]) <= 8);
  assert.equal(await chartSpan([0, 10, 20, 30]), 30);
  // While ply thinks (it plays black here), the squares do not invite a click.
  await page.click("#game-othello");
  await page.click("#mode-play");
  await page.selectOption("#level", "strongest");
  await page.click("#human-o");
  await page.click("#new-game");
  const busy = await page.evaluate(() => {
    const cell = document.querySelector("#board .cell.legal");
    return { board: document.getElementById("board").className, cursor: getComputedStyle(cell).cursor,
      ghosts: [...document.querySelectorAll("#board .ghost")].filter((g) => getComputedStyle(g).visibility !== "hidden").length,
      status: document.getElementById("status").textContent };
  });
  assert.match(busy.status, /ply is thinking/);
  assert.match(busy.board, /busy/);
  assert.notEqual(busy.cursor, "pointer");
  assert.equal(busy.ghosts, 0);
  await page.screenshot({ path: join(shots, "ply-thinking.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

// ---- issue 27, part 1: the page as a tool to play, analyse and review one game ----------

// A 34-move 8x8 game of random moves: it has mistakes to find.
const GAME34 = "f5f4f3f6e6d6c4g4d7c6e7d3b7f2h4b4d2c8d8a8e2g2g6h3a4e3b8g7h5g3g8e1f1b3";
// A 4x4 game with a pass that ends with three empty squares: white wins 12-1, +14 with the
// empties to the winner; nine moves, the pass not counted.
const GAME4_PASS = "d3 d4 c4 d2 c1 b4 a2 d1 pass b1";

// The moves as listed: number and square, without the review's marks.
const moveTexts = (page) => page.$$eval("#moves li button", (b) => b.map((x) => x.querySelector(".n").textContent + x.childNodes[1].textContent));
const movesParam = (page) => new URL(page.url()).searchParams.get("moves");

test("the game survives a change of mode", { timeout: 90000 }, async () => {
  const { page, errors } = await openPage();
  await page.goto(`${base}/?g=othello&n=8&mode=play&you=X&level=strong&moves=f5d6c3d3c4f4`);
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 6);
  const cells = await boardCells(page);
  await page.click("#mode-analyze");
  assert.equal(await page.$$eval("#moves li button", (b) => b.length), 6);
  assert.equal(await boardCells(page), cells);
  assert.equal(movesParam(page), "f5d6c3d3c4f4");
  assert.match(page.url(), /mode=analyze/);
  // A pasted game goes on against ply: white to move after f5d6c3, ply plays it.
  await paste(page, "f5d6c3");
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 3);
  await page.click("#mode-play");
  await page.click("#human-x");
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 4, null, { timeout: 30000 });
  assert.match(movesParam(page), /^f5d6c3[a-h][1-8]$/);
  // And on with two players, the same game.
  const four = movesParam(page);
  await page.click("#mode-hints");
  assert.equal(movesParam(page), four);
  assert.equal(await page.$$eval("#moves li button", (b) => b.length), 4);
  await page.screenshot({ path: join(shots, "mode-change-keeps-game.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the best line is shown with the analysis", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-othello");
  await page.click("#mode-analyze");
  await paste(page, ENDGAME14);
  // One snapshot of the page, taken in the page's own turn: the analysis deepens while the
  // test reads, and every answer re-renders the board, the line and the eval together.
  const snap = await page.waitForFunction(() => {
    const v = document.querySelector("#board .val.best");
    const evalText = document.getElementById("eval").textContent;
    if (!v || !/perfect play/.test(evalText)) return null;
    return {
      line: document.getElementById("line").textContent,
      best: v.closest(".cell").getAttribute("aria-label").split(",")[0],
      evalText,
    };
  }, null, { timeout: 30000 });
  const { line, best, evalText } = await snap.jsonValue();
  const m = /^Best line: ((?:[a-h][1-8]|pass)(?: (?:[a-h][1-8]|pass))*)/.exec(line);
  assert.ok(m, line);
  // The line starts with the move framed as best, and the eval names it.
  const first = m[1].split(" ")[0];
  assert.equal(first, best);
  assert.match(evalText, new RegExp(`best ${first}`));
  assert.ok(m[1].split(" ").length >= 4, line);
  await page.screenshot({ path: join(shots, "best-line.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("game review: a quick pass over every move, then deeper; losses, mistakes, a summary", { timeout: 150000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-othello");
  await page.click("#mode-analyze");
  await page.selectOption("#budget", "10000");
  await paste(page, GAME34);
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 34);
  // The quick pass takes the position on the board first: its values come long before 10 s.
  await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length > 0, null, { timeout: 6000 });
  // While the review runs: the chart draws only analysed positions, joins only neighbours,
  // says how far it has got, and never says "No slips" before every move is known.
  const snapshots = [];
  for (;;) {
    const s = await page.evaluate(() => {
      const plies = [...document.querySelectorAll("#chart circle")].map((c) => Number(c.dataset.ply));
      const d = (document.querySelector("#chart path.series") || { getAttribute: () => "" }).getAttribute("d");
      const moves = [...document.querySelectorAll("#moves li button")];
      return {
        plies,
        starts: (d.match(/M/g) || []).length,
        points: (d.match(/[ML]/g) || []).length,
        note: document.getElementById("chart-note").textContent,
        costs: moves.filter((b) => b.querySelector(".loss")).length,
      };
    });
    snapshots.push(s);
    const set = new Set(s.plies);
    const runs = s.plies.filter((k) => !set.has(k - 1)).length;
    assert.equal(s.points, s.plies.length, JSON.stringify(s));
    assert.equal(s.starts, runs, `a line across unknown positions: ${JSON.stringify(s)}`);
    if (s.costs < 34) assert.doesNotMatch(s.note, /No slips/, JSON.stringify(s));
    if (/deeper at 10 s/.test(s.note)) break;
    if (s.plies.length > 3 && s.plies.length < 20 && !snapshots.shot) {
      await page.screenshot({ path: join(shots, "review-quick-pass.png") });
      snapshots.shot = true;
    }
    await page.waitForTimeout(200);
  }
  assert.ok(snapshots.some((s) => /Reviewing: \d+ of 35 positions/.test(s.note)), snapshots.map((s) => s.note).join("\n"));
  const done = snapshots[snapshots.length - 1];
  assert.equal(done.plies.length, 35);
  assert.equal(done.costs, 34);
  // Every move has its cost in discs; the mistakes are marked and counted per side.
  const moves = await page.$$eval("#moves li", (ls) => ls.map((l) => ({
    slip: l.classList.contains("slip"),
    loss: (l.querySelector(".loss") || {}).textContent,
    mark: (l.querySelector(".mark") || {}).textContent || "",
  })));
  for (const m of moves) assert.match(m.loss, /^(0|≈?−\d+(\.\d)?)$/, JSON.stringify(m));
  const slips = moves.filter((m) => m.slip);
  assert.ok(slips.length > 0, "a random game without a mistake");
  for (const m of slips) assert.match(m.mark, /^\?\??$/);
  assert.equal(await page.$$eval("#chart circle.slip", (c) => c.length), slips.length);
  const summary = await page.textContent("#summary");
  assert.match(summary, /^Black: (no mistakes|\d+ mistakes?, about [\d.]+ discs lost)\nWhite: (no mistakes|\d+ mistakes?, about [\d.]+ discs lost)$/, summary);
  await page.screenshot({ path: join(shots, "review-quick-pass-done.png") });
  // Then deeper, one position at a time.
  await page.waitForFunction(() => /deeper at 10 s: [1-9]\d* of 35/.test(document.getElementById("chart-note").textContent), null, { timeout: 40000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test("honest labels: strongest, not perfect, where nothing is proven; a long analysis shows its work", { timeout: 90000 }, async () => {
  const { page, errors } = await openPage();
  assert.doesNotMatch(await page.$eval("#level", (s) => [...s.options].map((o) => o.textContent).join(" ")), /Perfect/);
  // 8x8 from the start: ply's move comes from the opening book, not proven.
  await page.goto(`${base}/?g=othello&n=8&mode=play&you=O&level=strong&think=1000`);
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 1, null, { timeout: 30000 });
  assert.match(await page.textContent("#ply-note"), /^ply's [a-h][1-8]: from the opening book \(depth \d+\), not proven$/);
  // Out of the book (after f5 f4), the best of its search, not proven.
  await page.goto(`${base}/?g=othello&n=8&mode=play&you=O&level=strong&think=1000&moves=f5f4`);
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 3, null, { timeout: 30000 });
  assert.match(await page.textContent("#ply-note"), /^ply's [a-h][1-8]: strongest found at depth \d+, not proven$/);
  // 4x4: solved, so the move is proven best.
  await page.goto(`${base}/?g=othello&n=4&mode=play&you=O&level=strong`);
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 1, null, { timeout: 30000 });
  assert.match(await page.textContent("#ply-note"), /^ply's [a-d][1-4]: the best move, proven$/);
  // A 3 s analysis says what it is doing while it runs, and the figures move.
  // (A position out of the opening book, which would answer at once.)
  await page.goto(`${base}/?g=othello&n=8&mode=analyze&think=3000&moves=f5f4e3f6d3`);
  // The quick pass of the review comes first (0.2 s a position), then the 3 s analysis.
  await page.waitForFunction(() => /Analyzing: depth \d+.* of 3 s/.test(document.getElementById("work").textContent), null, { timeout: 30000 });
  const a = await page.textContent("#work");
  await page.waitForTimeout(800);
  const b = await page.textContent("#work");
  assert.match(a, /Analyzing: depth \d+ done, searching deeper or solving · [\d.]+ [kMG]? ?positions · \d+\.\d s of 3 s/);
  assert.notEqual(a, b, "the analysis line did not move in 0.8 s");
  await page.screenshot({ path: join(shots, "analysis-working.png") });
  // Once done the line goes, the estimate says its depth.
  await page.waitForFunction(() => document.getElementById("work").textContent === "", null, { timeout: 20000 });
  assert.match(await page.textContent("#eval"), /estimate: .*\(depth \d+\)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("paste: the board size comes from the text; GGF is read; messages in the user's words", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-othello");
  await page.click("#size-6");
  await page.click("#mode-analyze");
  await paste(page, "f5d6c3d3c4f4f6f3e6e7");
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 10);
  assert.equal(await page.$$eval("#board .cell", (c) => c.length), 64);
  assert.equal(await page.getAttribute("#size-8", "aria-pressed"), "true");
  assert.equal(await page.textContent("#paste-error"), "");
  // A GGF game record, as `ply othello play`, `show` and `analyze` read it.
  const ggf = "(;GM[Othello]PC[test]PB[alice]PW[bob]RE[?]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[d6]B[c3//1.0];)";
  await paste(page, ggf);
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 3);
  assert.deepEqual(await moveTexts(page), ["1.f5", "2.d6", "3.c3"]);
  const after3 = "------------------X--------XX------OXX-----O-------------------- O";
  for (const args of [["othello", "show", ggf, "--json"], ["othello", "analyze", ggf, "--depth", "2", "--json"]]) {
    const run = spawnSync(plyBin, args, { encoding: "utf8" });
    assert.equal(run.status, 0, `${args[1]}: ${run.stderr}`);
    const out = JSON.parse(run.stdout);
    // `show` prints the position as text; `analyze` prints the analysis report, whose board
    // is the API's cells with the side to move beside them.
    const position = args[1] === "show" ? out.position : `${out.position.replace(/\./g, "-")} ${out.turn}`;
    assert.equal(position, after3, `${args[1]}: ${run.stdout}`);
  }
  // Refusals speak of what the user gave, not of the API's parameters.
  for (const text of ["f5f5", START8, "(;GM[Othello]BO[8 bad];)"]) {
    const err = await pasteError(page, text);
    assert.doesNotMatch(err, /`(text|board|position|size|turn)`|server says/i, err);
  }
  await page.click("#clear-board");
  await page.waitForFunction(() => /centre square/.test(document.getElementById("status").textContent));
  assert.doesNotMatch(await page.textContent("#status"), /`|server says/i);
  await page.click("#game-ttt");
  await page.click("#mode-analyze");
  const ttt = await pasteError(page, "xxx/ooo/...");
  assert.doesNotMatch(ttt, /`/, ttt);
  assert.match(ttt, /^The board cannot occur/, ttt);
  await page.screenshot({ path: join(shots, "paste-plain-error.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("conventions: move numbers skip passes; the result gives discs and the score", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-othello");
  await page.click("#mode-analyze");
  await paste(page, GAME4_PASS);
  await page.waitForFunction(() => document.querySelectorAll("#moves li button").length === 10);
  assert.deepEqual(await moveTexts(page),
    ["1.d3", "2.d4", "3.c4", "4.d2", "5.c1", "6.b4", "7.a2", "8.d1", "pass", "9.b1"]);
  assert.equal(await page.textContent("#result"), "White wins 12–1 (+14 with the 3 empty squares to the winner)");
  // The chart's last point, the value of the final position, says the same score.
  await page.waitForFunction(() => document.querySelector('#chart circle[data-ply="10"]'));
  assert.match(await page.textContent('#chart circle[data-ply="10"] title'), /^after 9\. b1: -14 for Black/);
  await page.screenshot({ path: join(shots, "conventions-4x4.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("phone: the score and the value above the fold, no text under 12 px", { timeout: 90000 }, async () => {
  const { page, errors } = await openPage({ width: 390, height: 844 });
  await page.goto(`${base}/?g=othello&n=8&mode=hints&think=200&moves=f5d6c3d3c4`);
  await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length > 0, null, { timeout: 30000 });
  await page.waitForFunction(() => document.getElementById("eval").textContent !== "", null, { timeout: 30000 });
  const where = await page.evaluate(() => {
    const r = (id) => document.getElementById(id).getBoundingClientRect();
    return { score: r("score"), eval: r("eval"), board: r("board"), height: window.innerHeight };
  });
  for (const id of ["score", "eval"]) {
    assert.ok(where[id].height > 0 && where[id].bottom <= where.board.top, `${id} is not above the board: ${JSON.stringify(where)}`);
    assert.ok(where[id].bottom <= where.height, `${id} is below the first screen: ${JSON.stringify(where)}`);
  }
  // Every piece of text a person can see, estimates (≈) included, is at least 12 px.
  await page.waitForFunction(() => document.querySelector("#board .val .approx"), null, { timeout: 30000 });
  const small = await page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const e = t.parentElement;
      if (!t.textContent.trim() || !e.getClientRects().length || e.closest("[hidden], details:not([open]) > :not(summary), title")) continue;
      let px = parseFloat(getComputedStyle(e).fontSize);
      const svg = e.closest("svg");
      if (svg) px *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      if (px < 12) out.push(`${e.tagName.toLowerCase()}.${e.className.baseVal ?? e.className} "${t.textContent.trim().slice(0, 20)}" ${px.toFixed(1)}px`);
    }
    return out;
  });
  assert.deepEqual(small, []);
  await page.screenshot({ path: join(shots, "phone-review.png") });
  await page.screenshot({ path: join(shots, "phone-review-full.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("a busy server (503) is retried after Retry-After, and the page says so", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  let refused = 0;
  await page.route("**/api/othello/analyze/stream**", async (route) => {
    if (refused < 2) {
      refused += 1;
      await route.fulfill({ status: 503, headers: { "Retry-After": "1", "Content-Type": "application/json" }, body: '{"error":"busy"}' });
    } else {
      await route.continue();
    }
  });
  await page.goto(`${base}/?g=othello&n=8&mode=hints&think=200`);
  await page.waitForFunction(() => /busy, retrying in 1 s/.test(document.getElementById("status").textContent), null, { timeout: 10000 });
  // Waiting is not analysing: no clock runs for a search that has not started.
  assert.equal(await page.textContent("#work"), "");
  await page.screenshot({ path: join(shots, "busy-retrying.png") });
  await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length === 4, null, { timeout: 30000 });
  assert.equal(refused, 2);
  assert.doesNotMatch(await page.textContent("#status"), /busy|error/i);
  assert.deepEqual(errors, []);
  await page.close();
});

// On a phone, neither a shared link nor play scrolls the window: the move list scrolls
// inside itself, so the board's top row stays on the screen.
test("at 390x844 the board's top stays in view after a link and after moves", { timeout: 120000 }, async () => {
  const phone = { width: 390, height: 844 };
  const { page, errors } = await openPage(phone);
  const view = () => page.evaluate(() => ({
    scrollY: window.scrollY,
    top: document.getElementById("board").getBoundingClientRect().top,
  }));
  // A link with 18 moves, analysed.
  await page.goto(`${base}/?g=othello&n=8&mode=analyze&think=200&moves=f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1`);
  await page.waitForSelector("#moves li.current");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length > 0, null, { timeout: 30000 });
  const linked = await view();
  assert.equal(linked.scrollY, 0, `the link scrolled the window to ${linked.scrollY}`);
  assert.ok(linked.top >= 0 && linked.top < phone.height / 2, `the board's top at ${linked.top}`);
  await page.screenshot({ path: join(shots, "phone-link.png") });
  // 14 moves clicked in a game of two players, from the start.
  await page.goto(`${base}/?g=othello&n=8&mode=two-players&think=200`);
  await page.waitForSelector("#board .cell.legal");
  const before = await view();
  for (let k = 0; k < 14; k++) {
    const plies = await page.$$eval("#moves li:not(.empty)", (li) => li.length);
    const cell = await page.$eval("#board .cell.legal", (c) => c.dataset.index);
    await page.click(`#board .cell[data-index="${cell}"]`);
    await page.waitForFunction((n) => document.querySelectorAll("#moves li:not(.empty)").length > n, plies);
  }
  const after = await view();
  assert.equal(before.scrollY, 0);
  assert.equal(after.scrollY, 0, `14 moves scrolled the window to ${after.scrollY}`);
  // The score line above the board may wrap to one more line or one fewer as its words
  // change; the board itself stays on the screen.
  assert.ok(after.top >= 0 && Math.abs(after.top - before.top) < 30, `the board's top moved from ${before.top} to ${after.top}`);
  await page.screenshot({ path: join(shots, "phone-14-moves.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("a bad value in the address says what it was and what is used instead", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  await page.goto(`${base}/?g=othello&n=7&mode=foo&think=2000&level=best`);
  await page.waitForSelector("#board .cell");
  const said = await page.textContent("#paste-error");
  assert.match(said, /n=7 is not 4, 6, 8: using 8/);
  assert.match(said, /mode=foo is not play, two-players, analyze: using play/);
  assert.match(said, /think=2000 is not 200, 1000, 3000, 10000: using 1000/);
  assert.match(said, /level=best is not beginner, casual, strongest: using strongest/);
  // The names of older links still open what they opened.
  await page.goto(`${base}/?g=othello&n=6&mode=hints&level=strong`);
  await page.waitForSelector("#board .cell");
  assert.equal(await page.textContent("#paste-error"), "");
  assert.equal(await page.getAttribute("#mode-hints", "aria-pressed"), "true");
  assert.deepEqual(errors, []);
  await page.close();
});

// The chart's scale leaves out a swing that would flatten the rest of the game; the points
// beyond it are marked on the chart itself, with their value, not only in a hover.
test("points off the chart's scale are marked on the chart with their value", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  // 4x4, exact values for Black: -10 -10 +12 2 2 0 0 -4 0 0 0 0 0; the scale is ±8.
  await page.goto(`${base}/?g=othello&n=4&mode=analyze&think=200&moves=d3b4a3d2c1a4d1a1a2b1c4d4`);
  await page.waitForFunction(() => document.querySelectorAll("#chart circle.pt").length === 13, null, { timeout: 30000 });
  assert.match(await page.textContent("#chart"), /Black \+8/);
  assert.equal(await page.$$eval("#chart circle.clipped", (c) => c.length), 3);
  assert.equal(await page.$$eval("#chart .clip", (c) => c.length), 3);
  assert.deepEqual(await page.$$eval("#chart .clip-label", (t) => t.map((x) => x.textContent)), ["−10", "+12"]);
  await page.screenshot({ path: join(shots, "chart-clipped.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("save picture: the board as an SVG file, with the last move and the values shown", { timeout: 60000 }, async () => {
  const { page, errors } = await openPage();
  await page.click("#game-ttt");
  assert.equal(await page.isHidden("#save-picture"), true, "no picture of tic-tac-toe");
  await page.click("#game-othello");
  await page.click("#size-4");
  await page.click("#mode-hints");
  await playMoves(page, [1]);
  // White's replies, solved: every legal square carries an exact value.
  await page.waitForFunction(() => {
    const legal = document.querySelectorAll("#board .cell.legal").length;
    const values = [...document.querySelectorAll("#board .cell[data-value]")];
    return legal > 0 && values.length === legal && values.every((c) => !c.dataset.value.startsWith("~"));
  }, null, { timeout: 30000 });
  const shown = await page.$$eval("#board .cell[data-value]", (cs) => cs.map((c) => c.dataset.value.replace("-", "−")));
  const cells = await boardCells(page);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#save-picture")]);
  assert.equal(download.suggestedFilename(), "ply-othello-4x4.svg");
  const svg = readFileSync(await download.path(), "utf8");
  assert.match(svg, /^<\?xml[^>]*>\s*<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  const count = (cls) => svg.split(`class="${cls}"`).length - 1;
  assert.equal(count("disc black"), [...cells].filter((c) => c === "X").length);
  assert.equal(count("disc white"), [...cells].filter((c) => c === "O").length);
  assert.equal(count("last"), 1, "b1 is marked");
  const values = [...svg.matchAll(/class="value"[^>]*>([^<]*)</g)].map((m) => m[1]);
  assert.deepEqual(values, shown);
  await page.waitForFunction(() => /Saved the picture/.test(document.getElementById("copy-note").textContent));
  // With values hidden, the picture has none.
  await page.click("#show-values");
  const [plain] = await Promise.all([page.waitForEvent("download"), page.click("#save-picture")]);
  assert.equal(readFileSync(await plain.path(), "utf8").split('class="value"').length - 1, 0);
  assert.deepEqual(errors, []);
  await page.close();
});
