// Which tokens' names are written under them. The rule, in order of
// preference (selected token first, then the others by id, so the outcome
// does not flicker as events arrive): a name is shown when its box overlaps
// neither a name already shown nor another token's disc. A name left out
// is "crowded": it appears while its token is hovered, focused or
// selected (tokens.css), and it is always in the token's aria-label.
// Boxes are in squares; no DOM here, so the rule can be tested alone.

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
  const placed = [];
  for (const item of order) {
    const clear =
      !placed.some((box) => overlaps(box, item.box)) &&
      !items.some((other) => other.id !== item.id && overlaps(other.disc, item.box));
    if (clear) {
      shown.add(item.id);
      placed.push(item.box);
    }
  }
  return shown;
}
