// Browser end-to-end tests: the real `ply serve` and the real page in headless Chromium.
//
// Starts `target/debug/ply serve --addr 127.0.0.1:0` (or $PLY_BIN), drives Debian's
// Chromium (or $CHROMIUM) through playwright-core, and saves screenshots under target/e2e/.
// A missing browser or binary is a failure, not a skip.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const plyBin = process.env.PLY_BIN || join(root, "target/debug/ply");
const browserBin = process.env.CHROMIUM || "/usr/bin/chromium";
const shots = join(root, "target/e2e");

let server;
let base;
let browser;
let profile;

function startServer() {
  return new Promise((ok, fail) => {
    const child = spawn(plyBin, ["serve", "--addr", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const timer = setTimeout(() => fail(new Error(`ply serve printed no address: ${out}`)), 20000);
    child.on("error", (e) => { clearTimeout(timer); fail(e); });
    child.on("exit", (code) => { clearTimeout(timer); fail(new Error(`ply serve exited with ${code}: ${out}`)); });
    child.stdout.on("data", (d) => {
      out += d;
      const m = /serving on (http:\/\/[^\s]+)/.exec(out);
      if (m) { clearTimeout(timer); ok({ child, url: m[1].replace(/\/$/, "") }); }
    });
  });
}

before(async () => {
  assert.ok(existsSync(plyBin), `no ply binary at ${plyBin}: run cargo build first (or set PLY_BIN)`);
  assert.ok(existsSync(browserBin), `no Chromium at ${browserBin}: apt-get install chromium (or set CHROMIUM)`);
  mkdirSync(shots, { recursive: true });
  ({ child: server, url: base } = await startServer());
  profile = mkdtempSync(join(tmpdir(), "ply-e2e-"));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: browserBin,
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
    viewport: { width: 1100, height: 900 },
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) { server.removeAllListeners("exit"); server.kill("SIGINT"); }
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function openPage(viewport) {
  const page = await browser.newPage();
  if (viewport) await page.setViewportSize(viewport);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base + "/");
  await page.waitForSelector("#board .cell");
  return { page, errors };
}

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

  // Othello 4x4: all four opening moves lose by 10, exactly.
  await page.click("#game-othello");
  await page.click("#size-4");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length === 4);
  const oth = await page.$$eval("#board .cell[data-value]", (cs) => cs.map((c) => c.dataset.value));
  assert.deepEqual(oth, ["-10", "-10", "-10", "-10"]);
  await page.screenshot({ path: join(shots, "othello-4x4-values.png") });

  // Othello 8x8: estimates, marked with ~.
  await page.selectOption("#budget", "200");
  await page.click("#size-8");
  await page.waitForFunction(() => document.querySelectorAll("#board .cell[data-value]").length === 4, null, { timeout: 30000 });
  const est = await page.$$eval("#board .cell[data-value]", (cs) => cs.map((c) => c.dataset.value));
  assert.ok(est.every((v) => v.startsWith("~")), est.join(" "));
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
  assert.deepEqual(await page.$$eval("#moves li button", (b) => b.map((x) => x.textContent)), ["1.b2", "2.c2"]);
  await page.keyboard.press("u");
  assert.equal(await page.$$eval("#moves li.current", (l) => l.length), 1);
  assert.equal(await page.$eval('#board .cell[data-index="5"]', (c) => c.dataset.disc || ""), "");
  await page.keyboard.press("r");
  assert.equal(await page.$eval('#board .cell[data-index="5"]', (c) => c.dataset.disc), "O");
  await page.close();
});
