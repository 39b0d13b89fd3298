// Talking to the server: the analyses of positions (streamed for Othello), cached by
// position and budget, with what is in flight, what failed and what the server refused;
// retries while the server is busy; its messages in the page's words.

import { Oth } from "./rules.js";
import { budgetFor } from "./settings.js";
import { isOver, pos } from "./game.js";

export const analyses = {
  // Analyses by key (position and budget), each in the page's shape; `final` once done.
  cache: new Map(),
  // Analyses that failed, by key: the message.
  errors: new Map(),
  // Analyses in flight, by key.
  inflight: new Set(),
  // Requests in flight by key, to stop the ones nobody waits for any more.
  aborts: new Map(),
  // Set-up positions the server refused, by key: the server's message.
  invalid: new Map(),
  // Set-up positions asked about, by key.
  checked: new Set(),
  // Requests waiting out a busy server, by key: what to say meanwhile.
  busy: new Map(),
  // When each analysis in flight started, by key: the page shows that it is working.
  started: new Map(),
};

// What the page does when an answer comes (main.js sets them): `render` draws the page,
// `step` starts what comes next, `refresh` does both and more.
const hooks = { render() {}, step() {}, refresh() {} };
export function connect(h) {
  Object.assign(hooks, h);
}

// Game review: every position of the game gets a quick first analysis of this budget, then
// one at the "Think" setting.
export const QUICK_MS = 200;

// How often a request turned away by a busy server (503) is tried again.
const BUSY_RETRIES = 5;

// The cache's key of the analysis of `p` within `budget` ms (tic-tac-toe's is exact at once),
// and of the analysis at the position's own budget.
export function keyAt(p, budget) {
  return p.game === "ttt" ? `t|${p.first}|${p.cells.join("")}` : `o|${p.size}|${p.cells.join("")}|${p.turn}|${budget}`;
}

export function key(p) {
  return keyAt(p, budgetFor(p));
}

// The analysis to show on the board: the one at the position's budget, or the quick pass's
// while that one is still shallower.
export function shown(p) {
  const full = analyses.cache.get(key(p));
  const quick = p.game === "othello" ? analyses.cache.get(keyAt(p, QUICK_MS)) : null;
  if (!quick || (full && (full.final || !quick.final || full.depth >= quick.depth))) return full;
  return quick;
}

// A finished analysis of `p`, the deepest there is (the game review reads only these).
export function settled(p) {
  const full = analyses.cache.get(key(p));
  if (full && full.final) return full;
  const quick = p.game === "othello" ? analyses.cache.get(keyAt(p, QUICK_MS)) : null;
  return quick && quick.final ? quick : null;
}

function url(p, budget) {
  if (p.game === "ttt") {
    return `/api/ttt/analyze?board=${p.cells.join("")}&first=${p.first.toLowerCase()}`;
  }
  return `/api/othello/analyze/stream?size=${p.size}&position=${p.cells.join("")}&turn=${p.turn}&budget_ms=${budget}`;
}

const sleep = (ms, signal) => new Promise((ok, fail) => {
  const t = setTimeout(ok, ms);
  if (signal) signal.addEventListener("abort", () => { clearTimeout(t); fail(new DOMException("stopped", "AbortError")); }, { once: true });
});

// Fetches `u`; when the server is busy (503), waits the `Retry-After` it gives (1 to 30 s)
// and tries again, a bounded number of times, telling `onBusy` each time.
export async function fetchRetry(u, { signal, onBusy } = {}) {
  for (let tries = 1; ; tries++) {
    const r = await fetch(u, { signal });
    if (r.status !== 503 || tries > BUSY_RETRIES) return r;
    const wait = Math.min(30, Math.max(1, Number(r.headers.get("Retry-After")) || 1));
    if (onBusy) onBusy(`The server is busy, retrying in ${wait} s (${tries} of ${BUSY_RETRIES})`);
    await sleep(wait * 1000, signal);
  }
}

// A server message in the words of the page: the API's parameter names are not the user's.
export function plain(message) {
  const words = { text: "the text", board: "the board", position: "the position", size: "the board size", turn: "the side to move", budget_ms: "the thinking time" };
  const out = message
    .replace(/^`(\w+)`: /, "")
    .replace(/`(text|board|position|size|turn|budget_ms)`/g, (_, w) => words[w]);
  return out.charAt(0).toUpperCase() + out.slice(1);
}

// A server's refusal as a message for the page.
export async function refusal(r) {
  if (r.status === 503) return "The server is busy: try again in a moment";
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  return plain(body.error || `HTTP ${r.status}`);
}

// Reads an answer into one shape for both games: the value for X/black (for the chart), and
// per move index the text, class and score to draw.
function normalize(p, a) {
  const moves = new Map();
  if (p.game === "ttt") {
    const rank = (m) => (m.value === "win" ? 100 - m.remoteness : m.value === "tie" ? 0 : -100 + m.remoteness);
    let best = null;
    for (const m of a.moves) {
      const letter = m.value === "win" ? "W" : m.value === "tie" ? "D" : "L";
      moves.set(m.move, { text: letter, sub: String(m.remoteness), cls: m.value, rank: rank(m), exact: true });
      if (best === null || rank(m) > moves.get(best).rank) best = m.move;
    }
    const sign = p.turn === "X" ? 1 : -1;
    const v = a.positionValue === "win" ? 1 : a.positionValue === "lose" ? -1 : 0;
    const words = { win: "wins", lose: "loses", tie: "draws" };
    const desc = isOver(p)
      ? ""
      : `${p.turn} ${words[a.positionValue]}${a.positionValue === "tie" ? "" : ` in ${a.remoteness}`} with perfect play`;
    return { value: sign * v, exact: true, moves, best, desc, depth: 0, line: [] };
  }
  let bestScore = -Infinity;
  for (const m of a.moves) bestScore = Math.max(bestScore, m.score);
  let best = null;
  for (const m of a.moves) {
    const i = Oth.index(p, m.move);
    // An estimate's tenths matter only near zero; beyond, they would crowd a phone's tile.
    const shown = Number.isInteger(m.score) ? String(m.score) : Math.abs(m.score) >= 10 ? m.score.toFixed(0) : m.score.toFixed(1);
    const text = (m.exact ? "" : "~") + (m.score > 0 ? "+" : "") + shown;
    moves.set(i, { text, cls: m.exact ? "exact" : "estimate", score: m.score, gap: bestScore - m.score, exact: m.exact });
    if (m.move === a.best) best = i;
  }
  const sign = p.turn === "X" ? 1 : -1;
  let desc = "";
  let proven = false;
  if (a.status !== "over") {
    const forBlack = sign * a.score;
    const who = forBlack > 0 ? "Black" : forBlack < 0 ? "White" : "";
    const amount = Math.abs(forBlack);
    const shown = Number.isInteger(amount) ? amount : amount.toFixed(1);
    // The report says whether the position's score is proven, even while other moves are
    // still estimates (the solver or the book proves the position first).
    proven = a.proven;
    desc = proven
      ? (who ? `${who} wins by ${shown} with perfect play` : "a draw with perfect play")
      : a.confidence != null
        ? `selective @ ${a.confidence}%: ${who ? `${who} +${shown}` : "even"} (the solver's selective search to the end)`
        : a.engine === "book"
          ? `book: ${who ? `${who} +${shown}` : "even"} (depth ${a.depth})`
          : `estimate: ${who ? `${who} +${shown}` : "even"} (depth ${a.depth})`;
    if (a.best) desc = `best ${a.best}: ${desc}`;
  }
  const book = a.moves.some((m) => m.move === a.best && m.book);
  return { value: sign * a.score, exact: a.all_exact, proven, moves, best, book, desc, depth: a.depth, nodes: a.nodes, line: a.line || [], opening: a.opening || null };
}

// Reads a Server-Sent Events body, calling `on(event, data)` for each event as it comes.
async function readEvents(response, on) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data += line.slice(5).trim();
      }
      if (data) on(event, JSON.parse(data));
    }
  }
}

// Asks the server for the value of every move of `p` within `budget` ms (the position's
// own budget unless told). Othello analyses stream: every snapshot replaces the last
// (estimates first, then exact values as the solver finds them, the best move first); the
// entry is `final` once the analysis is done.
export function request(p, budget = budgetFor(p)) {
  const k = keyAt(p, budget);
  if ((analyses.cache.has(k) && analyses.cache.get(k).final) || analyses.inflight.has(k) || analyses.errors.has(k) || analyses.invalid.has(k)) return;
  analyses.inflight.add(k);
  analyses.started.set(k, performance.now());
  const abort = new AbortController();
  analyses.aborts.set(k, abort);
  hooks.render();
  const onBusy = (text) => { analyses.busy.set(k, text); hooks.render(); };
  fetchRetry(url(p, budget), { signal: abort.signal, onBusy })
    .then(async (r) => {
      analyses.busy.delete(k);
      analyses.started.set(k, performance.now());
      if (!r.ok) throw new Error(await refusal(r));
      if (p.game === "ttt") {
        analyses.cache.set(k, { ...normalize(p, await r.json()), final: true });
        return;
      }
      await readEvents(r, (event, body) => {
        analyses.cache.set(k, { ...normalize(p, body), final: event === "done" });
        hooks.render();
      });
      if (!(analyses.cache.get(k) || {}).final) throw new Error("the analysis stopped before its end");
    })
    .catch((e) => {
      if (e.name !== "AbortError") analyses.errors.set(k, e.message);
    })
    .finally(() => {
      analyses.inflight.delete(k);
      analyses.aborts.delete(k);
      analyses.busy.delete(k);
      analyses.started.delete(k);
      hooks.render();
      hooks.step();
    });
}

// Stops every analysis in flight but the one of the position on the board.
export function abortOthers() {
  const p = pos();
  const keep = p ? [key(p), keyAt(p, QUICK_MS)] : [];
  for (const [k, a] of analyses.aborts) if (!keep.includes(k)) a.abort();
}

// Asks the server whether a set-up position can occur (the server and the CLI read
// positions with one reader and one set of rules; the page does not keep a second copy).
export function checkSetup(p) {
  const k = key(p);
  if (analyses.checked.has(k)) return;
  analyses.checked.add(k);
  const u = p.game === "ttt"
    ? `/api/ttt/analyze?board=${p.cells.join("")}&first=${p.first.toLowerCase()}`
    : `/api/othello/position?size=${p.size}&text=${encodeURIComponent(`${p.cells.join("")} ${p.turn}`)}`;
  fetchRetry(u)
    .then(async (r) => {
      if (r.ok) return;
      if (r.status === 503) analyses.checked.delete(k);
      else analyses.invalid.set(k, await refusal(r));
    })
    .catch((e) => analyses.invalid.set(k, e.message))
    .finally(() => hooks.refresh());
}
