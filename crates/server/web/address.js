// The address: the game lives in it, so that a link opens the same game and a reload keeps it;
// a broken address says what is wrong and opens what it can.

import { Ttt, Oth } from "./rules.js";
import { LEVELS, settings, setSettings } from "./settings.js";
import { atTip, game, isStart, legalMoves, setGame } from "./game.js";

// The game lives in the address: the settings, the first position when it is not the
// start, and the moves (two characters each, `pa` for a pass). A link opens the same game and
// a reload keeps it.
export function saveUrl() {
  const p0 = game.history[0];
  if (!p0) return;
  const q = new URLSearchParams();
  q.set("g", settings.game);
  if (settings.game === "ttt") q.set("first", settings.first);
  else q.set("n", String(settings.size));
  q.set("mode", settings.mode);
  if (settings.mode === "play") {
    q.set("you", settings.human);
    q.set("level", settings.level);
  }
  q.set("seed", String(settings.seed));
  if (settings.game === "othello") q.set("think", String(settings.budget));
  if (!isStart(p0)) q.set("pos", `${p0.cells.join("")}${p0.game === "othello" ? p0.turn : ""}`);
  if (game.labels.length) q.set("moves", game.labels.map((l) => (l === "pass" ? "pa" : l)).join(""));
  if (!atTip()) q.set("at", String(game.at));
  history.replaceState(null, "", `${location.pathname}?${q}`);
}

// Opens the game in the address, if any, into the settings and the game; a broken address
// opens what it can. Returns null when the address holds no game, else what is wrong with it
// (an empty list when nothing is).
export function loadUrl() {
  const q = new URLSearchParams(location.search);
  if (!q.has("g")) return null;
  const problems = [];
  // A value the page does not know is named with the one used instead; the names of older
  // links (`mode=hints`, `level=strong`) still open what they opened.
  const pick = (name, allowed, get, set, aliases = {}) => {
    const given = q.get(name);
    if (given === null) return;
    const v = aliases[given] || given;
    if (allowed.includes(v)) set(v);
    else problems.push(`the link's ${name}=${given} is not ${allowed.join(", ")}: using ${get()}`);
  };
  pick("g", ["ttt", "othello"], () => settings.game, (v) => setSettings({ game: v }));
  pick("first", ["X", "O"], () => settings.first, (v) => setSettings({ first: v }));
  pick("n", ["4", "6", "8"], () => settings.size, (v) => setSettings({ size: Number(v) }));
  pick("mode", ["play", "two-players", "analyze"], () => settings.mode, (v) => setSettings({ mode: v }), { hints: "two-players", analyse: "analyze" });
  pick("you", ["X", "O"], () => settings.human, (v) => setSettings({ human: v }));
  pick("level", Object.keys(LEVELS), () => settings.level, (v) => setSettings({ level: v }), { strong: "strongest" });
  const seed = q.get("seed");
  if (seed !== null) {
    if (/^\d{1,10}$/.test(seed)) setSettings({ seed: Number(seed) });
    else problems.push(`the link's seed=${seed} is not a number: using ${settings.seed}`);
  }
  pick("think", ["200", "1000", "3000", "10000"], () => settings.budget, (v) => setSettings({ budget: Number(v) }));
  let p = settings.game === "ttt" ? Ttt.start(settings.first) : Oth.start(settings.size);
  const text = q.get("pos");
  if (text !== null) {
    const n = p.cells.length;
    const cells = [...text.slice(0, n)];
    const turn = settings.game === "ttt" ? null : text[n];
    if (cells.length === n && cells.every((c) => "XO.".includes(c)) && (settings.game === "ttt" ? text.length === n : text.length === n + 1 && "XO".includes(turn))) {
      if (settings.game === "ttt") {
        const f = cells.filter((c) => c === settings.first).length;
        const o = cells.filter((c) => c !== "." && c !== settings.first).length;
        p = { ...p, cells, turn: f > o ? (settings.first === "X" ? "O" : "X") : settings.first };
      } else {
        p = { ...p, cells, turn };
      }
    } else {
      problems.push(`the link's position \`${text}\` is not ${n} cells of X, O and .${settings.game === "othello" ? " then X or O" : ""}`);
    }
  }
  const history = [p], labels = [];
  const moves = (q.get("moves") || "").match(/../g) || [];
  for (const [k, m] of moves.entries()) {
    const cur = history[history.length - 1];
    if (m === "pa" && cur.game === "othello" && Oth.mustPass(cur)) {
      history.push(Oth.pass(cur));
      labels.push("pass");
      continue;
    }
    const i = cur.game === "ttt" ? (/^[a-c][1-3]$/.test(m) ? "abc".indexOf(m[0]) + 3 * (Number(m[1]) - 1) : -1) : Oth.index(cur, m);
    if (i < 0 || !legalMoves(cur).includes(i)) {
      problems.push(`move ${k + 1} of the link (${m}) is not legal there; the game stops before it`);
      break;
    }
    history.push(cur.game === "ttt" ? Ttt.play(cur, i) : Oth.play(cur, i));
    labels.push(m);
  }
  const at = Number(q.get("at"));
  setGame(history, labels, q.has("at") && Number.isInteger(at) && at >= 0 && at < history.length ? at : history.length - 1);
  return problems;
}
