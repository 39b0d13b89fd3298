// What the browser tests share: where the binary, the browser and the screenshots are, starting
// `ply serve` on a free port and launching headless Chromium. Not a test file itself
// (`node --test` runs only `*.test.mjs`).
//
// Uses target/debug/ply (or $PLY_BIN) and Debian's Chromium (or $CHROMIUM); a missing browser or
// binary is a failure, not a skip.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const plyBin = process.env.PLY_BIN || join(root, "target/debug/ply");
export const browserBin = process.env.CHROMIUM || "/usr/bin/chromium";
export const shots = join(root, "target/e2e");

// Fails unless the binary and the browser are there; makes the screenshot folder.
export function checkTools() {
  assert.ok(existsSync(plyBin), `no ply binary at ${plyBin}: run cargo build first (or set PLY_BIN)`);
  assert.ok(existsSync(browserBin), `no Chromium at ${browserBin}: apt-get install chromium (or set CHROMIUM)`);
  mkdirSync(shots, { recursive: true });
}

// `ply serve --addr 127.0.0.1:0 ARGS...`; resolves to { child, url } once it prints its address.
export function startServer(args = []) {
  return new Promise((ok, fail) => {
    const child = spawn(plyBin, ["serve", "--addr", "127.0.0.1:0", ...args], { stdio: ["ignore", "pipe", "inherit"] });
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

// Headless Chromium with its profile in the folder `profile`, kept off the network.
export function launchBrowser(profile) {
  return chromium.launchPersistentContext(profile, {
    executablePath: browserBin,
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
    viewport: { width: 1100, height: 900 },
  });
}

// A new page of `browser` at `url` + "/", once the board is drawn, at `viewport` if given; with
// the list that collects the page's uncaught errors.
export async function openPlyPage(browser, url, viewport) {
  const page = await browser.newPage();
  if (viewport) await page.setViewportSize(viewport);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url + "/");
  await page.waitForSelector("#board .cell");
  return { page, errors };
}

// Stops the server and closes the browser of a test file.
export async function stopAll(browser, server) {
  if (browser) await browser.close();
  if (server) { server.removeAllListeners("exit"); server.kill("SIGINT"); }
}
