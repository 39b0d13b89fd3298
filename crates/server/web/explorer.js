// The opening explorer panel: for the 8x8 position on the board, every legal move with the
// games of the server's WTHOR databases that played it (`ply serve --games FILE.wtb…`),
// Black's score rate and mean disc result, and the engine's value for Black. It follows the
// game through one hook, the `ply:position` event render() sends (main.js imports this module
// for that listener), and stays hidden on other boards and when the server has no databases
// (the API answers 404).

const panel = document.getElementById("explorer");
const body = document.getElementById("explorer-body");
const note = document.getElementById("explorer-note");
// The engine's budget per position: short, as the board's own analysis runs beside it.
const ENGINE_MS = 300;
// null until the first answer; false once the server says it has no databases.
let available = null;
let shownKey = "";
let controller = null;
const cache = new Map();

const pct = (r) => (r === null ? "–" : `${(100 * r).toFixed(r === 0 || r === 1 ? 0 : 1)}%`);
const signed = (d, digits) => (d === null ? "–" : `${d > 0 ? "+" : ""}${d.toFixed(digits)}`);

function engineText(e) {
  if (!e) return "…";
  const v = e.kind === "exact" ? signed(e.black_discs, 0) : `≈${signed(e.black_discs, 1)}`;
  return e.kind === "book" ? `${v} book` : v;
}

function draw(a, withEngine) {
  panel.hidden = false;
  const side = a.turn === "X" ? "Black" : "White";
  note.textContent = `${a.games} of ${a.indexed_games} games reached this position (${side} to move). Scores for Black.`;
  const rows = a.moves.map((m) => {
    const tr = document.createElement("tr");
    if (m.games === 0) tr.className = "unplayed";
    const cells = [m.move, String(m.games), pct(m.black_score_rate), signed(m.black_mean_discs, 1),
      withEngine ? engineText(m.engine) : "…"];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    tr.dataset.move = m.move;
    return tr;
  });
  body.replaceChildren(...rows);
}

function fail(message) {
  panel.hidden = false;
  note.textContent = `Explorer: ${message}`;
  body.replaceChildren();
}

async function ask(url, signal) {
  const r = await fetch(url, { signal });
  const json = await r.json();
  if (r.status === 404) {
    available = false;
    return null;
  }
  if (!r.ok) throw new Error(json.error || `the server answered ${r.status}`);
  available = true;
  return json;
}

async function show(p) {
  if (!p || p.game !== "othello" || p.size !== 8 || available === false) {
    panel.hidden = true;
    shownKey = "";
    return;
  }
  const key = `${p.cells.join("")}|${p.turn}`;
  if (key === shownKey) return;
  shownKey = key;
  if (controller) controller.abort();
  controller = new AbortController();
  const { signal } = controller;
  const base = `/api/othello/explore?position=${p.cells.join("")}&turn=${p.turn}`;
  try {
    if (cache.has(key)) {
      draw(cache.get(key), true);
      return;
    }
    // The counts at once, then the engine's values.
    const counts = await ask(base, signal);
    if (!counts) { panel.hidden = true; return; }
    draw(counts, false);
    const valued = await ask(`${base}&budget_ms=${ENGINE_MS}`, signal);
    if (!valued) return;
    cache.set(key, valued);
    if (shownKey === key) draw(valued, true);
  } catch (e) {
    if (e.name !== "AbortError" && shownKey === key) fail(e.message);
  }
}

document.addEventListener("ply:position", (e) => show(e.detail));
