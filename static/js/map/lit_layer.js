// A dim or dark scene's lit areas, drawn over the map and under the fog:
// each light's dim area and, inside it, its bright one, tinted by its
// colour and blended as light is (it brightens, never darkens), with soft
// edges. What is drawn is what the server sent: a player's group only what
// it sees of each light (its vision's `lit`), the GM every light whole.
//
// Darkness is drawn too, as a shade over the map: where the fog does not
// already say what is unseen (the GM's whole map), the ground no light
// reaches is shaded deeply; everywhere, the ground only in dim light a
// little. Lit ground keeps the map's own colours.

import { svg, clear } from "../lib/dom.js";

// How much of the map's brightness the shade takes (mask luminance, 0..1).
const SHADE = {
  dark: 0.62, // no light at all, on a dark scene
  dim: 0.38, // no light, on a dim scene (the eye still makes things out)
  dimLight: 0.3, // within a light's dim reach, past its bright one
};
const SOFT = 0.12; // the edges' blur, in squares

export class LitAreas {
  constructor(layer) {
    this.layer = layer;
    this.shown = null; // what was drawn, to skip an unchanged one
  }

  /**
   * Draw these areas ([{color, bright, dim}], SVG paths in squares) on a
   * map of `size` ({width, height}); `shade` is the scene's lighting when
   * the unlit ground is to be shaded ("dark" or "dim"), else null.
   */
  show(list, { size = null, shade = null } = {}) {
    const areas = list || [];
    const key = JSON.stringify([areas, size, shade]);
    if (key === this.shown) return;
    this.shown = key;
    clear(this.layer);
    if (!areas.length && !shade) return;
    const defs = svg("defs", {});
    defs.append(softness());
    this.layer.append(defs);
    if (size) {
      defs.append(shadeMask(areas, size, shade));
      this.layer.append(
        svg("rect", { class: "lit-shade", width: size.width, height: size.height, mask: "url(#lit-shade-mask)" }),
      );
    }
    for (const { color, bright, dim } of areas) {
      const light = svg("g", { class: "lit-area", filter: "url(#lit-soft)" });
      if (dim) light.append(svg("path", { class: "lit-dim", d: dim, fill: color }));
      if (bright) light.append(svg("path", { class: "lit-bright", d: bright, fill: color }));
      this.layer.append(light);
    }
  }
}

/** The blur that softens every edge of light and shade. */
function softness() {
  const filter = svg("filter", { id: "lit-soft", x: "-10%", y: "-10%", width: "120%", height: "120%" });
  filter.append(svg("feGaussianBlur", { stdDeviation: SOFT }));
  return filter;
}

/** Where the shade falls: grey levels drawn in order, so a bright area
 *  clears what another light's dim one or the dark left. */
function shadeMask(areas, size, shade) {
  const grey = (level) => {
    const v = Math.round(level * 255);
    return `rgb(${v}, ${v}, ${v})`;
  };
  const mask = svg("mask", {
    id: "lit-shade-mask",
    maskUnits: "userSpaceOnUse",
    x: 0,
    y: 0,
    width: size.width,
    height: size.height,
    style: "mask-type: luminance",
  });
  const inner = svg("g", { filter: "url(#lit-soft)" });
  inner.append(svg("rect", { width: size.width, height: size.height, fill: grey(shade ? SHADE[shade] : 0) }));
  for (const { dim } of areas) if (dim) inner.append(svg("path", { d: dim, fill: grey(SHADE.dimLight), "fill-rule": "evenodd" }));
  for (const { bright } of areas) if (bright) inner.append(svg("path", { d: bright, fill: "#000", "fill-rule": "evenodd" }));
  mask.append(inner);
  return mask;
}
