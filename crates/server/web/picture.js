// "Save picture": the board as an SVG file, drawn by the server (/api/othello/image) as the
// page draws it — coordinates, discs, the last move, the legal moves, and the values shown.
// main.js calls savePicture from the "Save picture" button.

import { Oth } from "./rules.js";

// The request for position `p` ({cells, size, turn}): the position as an OBF line, the last
// move's square (index, -1 for none) and, when `a` (the page's analysis as it draws it: moves
// by square index, each with its score and whether it is exact) is given, the values on the
// board, `~` before an estimate.
function pictureUrl(p, a, last) {
  const q = new URLSearchParams();
  q.set("text", `${p.cells.map((c) => (c === "." ? "-" : c)).join("")} ${p.turn};`);
  q.set("size", String(p.size));
  q.set("last", last >= 0 ? Oth.name(p, last) : "none");
  if (a && a.moves) {
    const values = [];
    for (const [i, v] of a.moves) {
      if (typeof v.score === "number" && p.cells[i] === ".") values.push(`${Oth.name(p, i)}:${v.exact ? "" : "~"}${v.score}`);
    }
    if (values.length) q.set("values", values.join(","));
  }
  return `/api/othello/image?${q}`;
}

// Fetches the picture and hands it to the browser as a download; says what happened in
// `note`.
export async function savePicture(p, a, last, note) {
  try {
    const r = await fetch(pictureUrl(p, a, last));
    if (!r.ok) {
      let message = `the server answered ${r.status}`;
      try { message = (await r.json()).error || message; } catch (_) { /* not JSON */ }
      throw new Error(message);
    }
    const blob = await r.blob();
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `ply-othello-${p.size}x${p.size}.svg`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    note.textContent = `Saved the picture as ${link.download}`;
  } catch (e) {
    note.textContent = `Could not save the picture: ${e.message}`;
  }
}
