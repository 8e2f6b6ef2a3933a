// Which tokens' names are written under them, and which wound plates
// ("Hurt", "Incapacitated") over them. Plates are placed first, as a wound
// matters more in a melee than a name; the rule for each, in order of
// preference (selected token first, then the others by id, so the outcome
// does not flicker as events arrive): a plate is shown when its box
// overlaps no plate already shown; a name when its box overlaps neither a
// plate nor a name already shown, nor another token's disc. A plate or a
// name left out is "crowded": it appears while its token is hovered,
// focused or selected (tokens.css); the wound ring stays on the token, and
// name and state are always in the token's aria-label.
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
 * items: [{id, box, disc, plate}], each with its label's box (null: no name
 * drawn), its token's disc and its wound plate (null: none) as boxes;
 * `first` the id placed first (the selected token).
 * Returns the set of ids whose labels are shown; with `plates`, a Set,
 * the ids whose plates are shown are added to it.
 */
export function shownLabels(items, first = null, plates = new Set()) {
  const order = [...items].sort((a, b) => (a.id === first ? -1 : b.id === first ? 1 : a.id - b.id));
  const shown = new Set();
  const discs = new Cells();
  for (const item of items) discs.add(item.disc, item.id);
  const placed = new Cells();
  for (const item of order) {
    if (item.plate && !placed.hits(item.plate)) {
      plates.add(item.id);
      placed.add(item.plate, item.id);
    }
  }
  for (const item of order) {
    if (!item.box) continue;
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
