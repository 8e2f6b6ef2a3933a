// Which tokens' names are written under them. The rule, in order of
// preference (selected token first, then the others by id, so the outcome
// does not flicker as events arrive): a name is shown when its box overlaps
// neither a name already shown nor another token's disc. A name left out
// is "crowded": it appears while its token is hovered, focused or
// selected (tokens.css), and it is always in the token's aria-label.
// Boxes are in squares; no DOM here, so the rule can be tested alone.
// Each box is tested against the boxes near it only (filed in cells of a
// few squares), so placing every name costs in proportion to the tokens,
// not to their square: 3,000 tokens are placed in a few milliseconds.

const CELL = 4; // squares a side

/** Whether two boxes {x, y, w, h} overlap (touching edges do not). */
export function overlaps(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/**
 * items: [{id, box, disc}], each with its label's box and its token's disc
 * as a box; `first` the id placed first (the selected token).
 * Returns the set of ids whose labels are shown.
 */
export function shownLabels(items, first = null) {
  const order = [...items].sort((a, b) => (a.id === first ? -1 : b.id === first ? 1 : a.id - b.id));
  const shown = new Set();
  const discs = new Cells();
  for (const item of items) discs.add(item.disc, item.id);
  const placed = new Cells();
  for (const item of order) {
    const clear = !placed.hits(item.box) && !discs.hits(item.box, item.id);
    if (clear) {
      shown.add(item.id);
      placed.add(item.box, item.id);
    }
  }
  return shown;
}

/** Boxes filed by the cells of the grid they cover. */
class Cells {
  constructor() {
    this.cells = new Map();
  }

  *keys(box) {
    const [x0, x1] = [Math.floor(box.x / CELL), Math.floor((box.x + box.w) / CELL)];
    const [y0, y1] = [Math.floor(box.y / CELL), Math.floor((box.y + box.h) / CELL)];
    for (let x = x0; x <= x1; x += 1) for (let y = y0; y <= y1; y += 1) yield `${x},${y}`;
  }

  add(box, id) {
    for (const key of this.keys(box)) {
      const list = this.cells.get(key);
      if (list) list.push([box, id]);
      else this.cells.set(key, [[box, id]]);
    }
  }

  /** Whether `box` overlaps a filed box (other than `except`'s). */
  hits(box, except = null) {
    for (const key of this.keys(box)) {
      for (const [other, id] of this.cells.get(key) || []) {
        if (id !== except && overlaps(other, box)) return true;
      }
    }
    return false;
  }
}
