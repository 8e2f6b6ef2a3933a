// The walls text of the GM's scene form, one segment per line:
// "x1 y1 x2 y2" a wall, then "window", "door", "door open" or "door locked".
// The server reads the same text (vtt/web/gm_forms.py read_walls) and says
// what is wrong with a bad line; here a line that cannot be read is simply
// not drawn, and kept as typed.

// A segment's kind as one word list: what follows the four numbers.
export const KINDS = ["wall", "window", "door", "door open", "door locked"];

// Plain decimals, as the server reads them (no 0x10, no 1_000).
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

const SAID = { "": "wall", wall: "wall", window: "window", door: "door", "door closed": "door", "door open": "door open", "door locked": "door locked" };

// {ends: [x1, y1, x2, y2], kind} of one line, or null when it is not one.
export function readLine(line) {
  const parts = line.trim().split(/[\s,]+/).filter(Boolean);
  if (parts.length < 4) return null;
  if (!parts.slice(0, 4).every((part) => NUMBER.test(part))) return null;
  const ends = parts.slice(0, 4).map(Number);
  if (!ends.every(Number.isFinite)) return null;
  const kind = SAID[parts.slice(4).join(" ").toLowerCase()];
  return kind ? { ends, kind } : null;
}

export function writeLine({ ends, kind }) {
  return kind === "wall" ? ends.join(" ") : `${ends.join(" ")} ${kind}`;
}

// The classes of a segment's group: its kind and a door's state
// (static/css/gm_walls.css draws each).
export function kindClasses(kind) {
  const [base, state] = kind.split(" ");
  return ["segment", `kind-${base}`, state || ""].filter(Boolean).join(" ");
}
