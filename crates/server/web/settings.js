// The page's settings, as the controls and the address set them: the game and board, the mode,
// who plays what, ply's level and the thinking time, whether values are shown; and the
// board's input: what a click puts, the keyboard's cursor. Other modules read them and change
// them only through `setSettings` and `setInput`.

export const settings = {
  game: "ttt",
  first: "X",
  size: 8,
  mode: "play",
  human: "X",
  level: "strongest",
  seed: Math.floor(Math.random() * 2 ** 31),
  budget: 1000,
  showValues: true,
};

// What a click on the board puts (`play`: it plays a move), the square the keyboard is on,
// and whether the keyboard is in use (the board then shows its cursor).
export const input = {
  paint: "play",
  cursor: 4,
  keyboard: false,
};

// The only ways to change them: a field that is not a setting (or not an input field) is a
// mistake in the page, said at once.
export function setSettings(changes) {
  assign(settings, changes, "setting");
}

export function setInput(changes) {
  assign(input, changes, "input field");
}

function assign(state, changes, what) {
  for (const k of Object.keys(changes)) if (!(k in state)) throw new Error(`no ${what} \`${k}\``);
  Object.assign(state, changes);
}

// How "Play ply" chooses: how long it thinks and which moves it may play, as the lowest
// worth a move may have given the best one's (tic-tac-toe: a rank, 100 - moves to a win,
// 0 a draw, -100 + moves to a loss; Othello: discs). The strongest level plays the best move;
// the others pick at random (a seeded draw, so a link with `seed=` replays the same game)
// among the moves at or above the floor.
export const LEVELS = {
  beginner: { budget: 100, floor: { ttt: () => -Infinity, othello: (best) => best - 24 } },
  casual: { budget: 300, floor: { ttt: (best) => Math.min(best, 0), othello: (best) => best - 6 } },
  strongest: { budget: null, floor: null },
};

// The search budget an analysis of `p` gets: the level's when ply chooses its move, the
// "Think" setting otherwise.
export function budgetFor(p) {
  const level = LEVELS[settings.level];
  return settings.mode === "play" && p.turn !== settings.human && level.budget ? level.budget : settings.budget;
}

export const colorName = (c) => (settings.game === "ttt" ? c : c === "X" ? "Black" : "White");

// Setting up a position: clicks put discs instead of playing.
export function editing() {
  return settings.mode === "analyze" && input.paint !== "play";
}
