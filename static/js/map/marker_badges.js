// A token's status markers as small badges round it: a column down its
// right edge, then one down its left, each a disc with its icon's glyph.
// They stay inside the token's own square rows, so they never cover the
// name (written under the token) and keep clear of the wound plate across
// its top edge. The words are in each badge's <title> (a tooltip on hover)
// and in the token's aria-label (read on focus); the token card lists them.
// Pure builder: token_layer.js places it with the token.

import { svg } from "../lib/dom.js";

// The icons a marker may carry (vtt/games/conditions.py, ICONS), drawn as text.
const GLYPHS = {
  star: "★",
  skull: "☠",
  shield: "◈",
  eye: "◉",
  flag: "⚑",
  heart: "♥",
  bolt: "ϟ",
  drop: "▾",
  down: "⊥",
  zzz: "z",
};

export const glyphOf = (icon) => GLYPHS[icon] || "•";

/** A marker's words: its label, its effect when the game gives one. */
export function markerWords(marker, says = "") {
  return [marker.label, says ? `(${says})` : "", marker.gm_only ? "[GM only]" : ""].filter(Boolean).join(" ");
}

/** Where badge `i` of a token of `s` squares sits, its top left at (x, y):
 *  {cx, cy, r}, or null past what fits (then the last shows "+n"). */
export function badgeSpot(i, s, x = 0, y = 0) {
  // Down from a quarter of the way (under the plate) to the bottom edge.
  const r = 0.15 * s;
  const perSide = Math.max(1, Math.floor((0.75 * s) / (2 * r)));
  if (i >= perSide * 2) return null;
  const side = i < perSide ? 1 : 0;
  const row = i % perSide;
  return { cx: side ? x + s - r * 0.6 : x + r * 0.6, cy: y + 0.25 * s + r + row * 2 * r, r };
}

/** Draw `markers` ([{marker, words}]) in `group` for a token of `s` squares. */
export function drawMarkers(group, markers, s, x = 0, y = 0) {
  while (group.firstChild) group.removeChild(group.firstChild);
  group.dataset.count = String(markers.length);
  markers.forEach(({ marker, words }, i) => {
    const spot = badgeSpot(i, s, x, y);
    let glyph = glyphOf(marker.icon);
    let title = words;
    if (!spot) return;
    if (!badgeSpot(i + 1, s, x, y) && i < markers.length - 1) {
      // The last place tells how many more there are.
      glyph = `+${markers.length - i}`;
      title = markers.slice(i).map((m) => m.words).join("; ");
    }
    const badge = svg(
      "g",
      { class: `marker-badge${marker.gm_only ? " gm-only" : ""}`, "data-marker-id": marker.id },
      svg("title", { text: title }),
      svg("circle", { cx: spot.cx, cy: spot.cy, r: spot.r }),
      svg("text", { x: spot.cx, y: spot.cy, text: glyph }),
    );
    badge.lastChild.style.fontSize = `${spot.r * (glyph.length > 1 ? 1.1 : 1.4)}px`;
    group.append(badge);
  });
}
