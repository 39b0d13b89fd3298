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

test("the explorer panel follows the game, counts from the databases, values from the engine", { timeout: 120000 }, async () => {
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
  // The engine's values arrive (the book's, at the start).
  await page.waitForFunction(() => [...document.querySelectorAll("#explorer-body tr")].every((tr) => tr.cells[4].textContent !== "…"), null, { timeout: 30000 });
  assert.ok((await rows(page)).every((r) => /book/.test(r[4])), JSON.stringify(await rows(page)));

  // Play the most played move, then the most played reply: the panel follows, with the
  // CLI's counts (every first move's position is an image of the others': all 60 games).
  const index = (sq) => (Number(sq[1]) - 1) * 8 + (sq.charCodeAt(0) - 97);
  let line = "";
  for (const k of [0, 1]) {
    const mv = (await rows(page))[0][0];
    line += mv;
    const want = explore(line);
    await page.click(`#board .cell[data-index="${index(mv)}"]`);
    await page.waitForFunction((n) => new RegExp(`^${n} of 60 games`).test(document.getElementById("explorer-note").textContent)
      && document.querySelectorAll("#explorer-body tr").length > 0, want.games);
    await page.waitForFunction((side) => document.getElementById("explorer-note").textContent.includes(side), k === 0 ? "White to move" : "Black to move");
    const now = await rows(page);
    assert.deepEqual(now.map((r) => [r[0], Number(r[1])]), want.moves.map((m) => [m.move, m.games]), line);
  }
  assert.ok(explore(line).games > 0);
  await page.screenshot({ path: join(shots, "explorer.png") });
  assert.deepEqual(errors, []);
  await page.close();
});
