// The opening explorer panel in the browser: `ply serve --games` over a database made with
// `ply othello games make` from ply's own self-play games; the panel follows the game.
//
// Uses target/debug/ply (or $PLY_BIN) and Debian's Chromium (or $CHROMIUM): see common.mjs.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkTools, launchBrowser, openPlyPage, plyBin, shots, startServer, stopAll } from "./common.mjs";

let server;
let base;
let browser;
let work;

function ply(args) {
  const r = spawnSync(plyBin, args, { encoding: "utf8" });
  assert.equal(r.status, 0, `ply ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

before(async () => {
  checkTools();
  work = mkdtempSync(join(tmpdir(), "ply-e2e-explorer-"));
  const sp = join(work, "sp.bin");
  ply(["train", "gen", "--out", sp, "--games", "60", "--depth", "1", "--random-moves", "2-6", "--exact-empties", "6"]);
  ply(["othello", "games", "make", join(work, "db.wtb"), "--from", sp]);
  ({ child: server, url: base } = await startServer(["--games", join(work, "db.wtb")]));
  browser = await launchBrowser(join(work, "profile"));
});

after(async () => {
  await stopAll(browser, server);
  if (work) rmSync(work, { recursive: true, force: true });
});

// The panel's rows as [move, games, score, discs, engine].
const rows = (page) => page.$$eval("#explorer-body tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test("the explorer panel follows the game, counts from the databases, values from the board, rows that play", { timeout: 120000 }, async () => {
  const { page, errors } = await openPlyPage(browser, base);
  // Tic-tac-toe first: no panel.
  await page.click("#game-ttt");
  assert.equal(await page.isHidden("#explorer"), true);
  await page.click("#game-othello");
  await page.click("#size-8");
  await page.click("#mode-hints");
  await page.waitForSelector("#explorer:not([hidden])");
  await page.waitForFunction(() => /^60 of 60 games/.test(document.getElementById("explorer-note").textContent));

  // The start, as the CLI counts it.
  const db = join(work, "db.wtb");
  const explore = (pos) => JSON.parse(ply(["othello", "explore", pos, "--games", db, "--no-engine", "--json"]).trim());
  const start = explore("---------------------------OX------XO--------------------------- X");
  const shown = await rows(page);
  assert.deepEqual(shown.map((r) => [r[0], Number(r[1])]), start.moves.map((m) => [m.move, m.games]));
  // The engine column is the board's own value of each move, as the board shows it: one
  // value per move on the page (the board's values are for the side to move, and so is every
  // number of the panel).
  await page.waitForFunction(() => [...document.querySelectorAll("#explorer-body tr")].every((tr) => tr.cells[4].textContent !== "…"), null, { timeout: 30000 });
  const sameAsBoard = () => page.$$eval("#explorer-body tr", (trs) => trs.map((tr) => {
    const sq = tr.dataset.move;
    const i = (Number(sq[1]) - 1) * 8 + (sq.charCodeAt(0) - 97);
    const board = document.querySelector(`#board .cell[data-index="${i}"]`).dataset.value;
    const panel = tr.cells[4].textContent.replace("≈", "~").replace("−", "-");
    return [sq, board, panel];
  }));
  for (const [sq, board, panel] of await sameAsBoard()) assert.equal(panel, board, `${sq}: panel ${panel}, board ${board}`);
  assert.match(await page.textContent("#explorer-note"), /for Black, to move/);

  // Click the most played move's row, then the most played reply's: the move is played,
  // and the panel follows with the CLI's counts (every first move's position is an image of
  // the others': all 60 games). White's numbers are white's: the CLI's are black's.
  let line = "";
  for (const k of [0, 1]) {
    const mv = (await rows(page))[0][0];
    line += mv;
    const want = explore(line);
    await page.click(`#explorer-body tr[data-move="${mv}"]`);
    await page.waitForFunction((n) => new RegExp(`^${n} of 60 games`).test(document.getElementById("explorer-note").textContent)
      && document.querySelectorAll("#explorer-body tr").length > 0, want.games);
    await page.waitForFunction((side) => document.getElementById("explorer-note").textContent.includes(side), k === 0 ? "for White, to move" : "for Black, to move");
    assert.deepEqual(await page.$$eval("#moves li", (l) => l.length), k + 1, "the row's move was played");
    const now = await rows(page);
    assert.deepEqual(now.map((r) => [r[0], Number(r[1])]), want.moves.map((m) => [m.move, m.games]), line);
    const white = k === 0;
    for (const [r, m] of now.map((r, j) => [r, want.moves[j]])) {
      if (m.black_mean_discs === null) continue;
      const d = (white ? -1 : 1) * m.black_mean_discs;
      assert.equal(Number(r[3].replace("−", "-")), Number(d.toFixed(1)) + 0, `${line} ${r[0]}: ${r[3]}`);
    }
  }
  assert.ok(explore(line).games > 0);
  await page.screenshot({ path: join(shots, "explorer.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

// The games that reached a position, ten at a time; a click loads one where the board was;
// at its end (End), the game counts as reaching its last position; ←/→ step through it.
test("the explorer lists the games that reached a position and loads one", { timeout: 120000 }, async () => {
  const { page, errors } = await openPlyPage(browser, base);
  await page.click("#game-othello");
  await page.click("#size-8");
  await page.click("#mode-hints");
  await page.waitForFunction(() => /1–10 of 60/.test(document.getElementById("explorer-games-note").textContent));
  assert.equal(await page.$$eval("#explorer-games li", (l) => l.length), 10);
  assert.equal(await page.isHidden("#explorer-prev"), true);
  await page.click("#explorer-next");
  await page.waitForFunction(() => /11–20 of 60/.test(document.getElementById("explorer-games-note").textContent));
  await page.click("#explorer-prev");
  await page.waitForFunction(() => /1–10 of 60/.test(document.getElementById("explorer-games-note").textContent));

  const db = join(work, "db.wtb");
  const explore = (pos) => JSON.parse(ply(["othello", "explore", pos, "--games", db, "--no-engine", "--json"]).trim());
  const first = JSON.parse(ply(["othello", "games", db, "--json"]).split("\n")[0]);
  await page.click("#explorer-games li:first-child");
  // Loaded at the start, where the board was: every move in the list, none played yet.
  await page.waitForFunction((n) => document.querySelectorAll("#moves li").length >= n && !document.querySelector("#moves li.current"), first.moves.length / 2);
  await page.keyboard.press("End");
  // Self-play games can repeat: as many as the CLI counts ended there.
  const end = explore(first.moves);
  assert.ok(end.ended >= 1 && end.games === 0, JSON.stringify(end));
  await page.waitForFunction((n) => document.getElementById("explorer-note").textContent.startsWith(`${n} of 60 games reached this position, ${n} ended here`), end.ended);
  await page.waitForFunction((n) => document.getElementById("explorer-games-note").textContent.endsWith(`1–${n} of ${n}`), end.ended);
  // The current move by its ply (its text grows the review's marks as analyses arrive).
  const currentPly = () => document.querySelector("#moves li.current button").dataset.ply;
  const atEnd = await page.evaluate(currentPly);
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction((t) => document.querySelector("#moves li.current button").dataset.ply === String(Number(t) - 1), atEnd);
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction((t) => document.querySelector("#moves li.current button").dataset.ply === t, atEnd);
  await page.keyboard.press("Home");
  await page.waitForFunction(() => /^60 of 60 games/.test(document.getElementById("explorer-note").textContent));
  assert.deepEqual(errors, []);
  await page.close();
});
