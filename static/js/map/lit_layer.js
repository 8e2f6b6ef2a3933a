// A dim or dark scene's lit areas, drawn over the map and under the fog:
// each light's dim area and, inside it, its bright one, tinted by its
// colour and blended as light is (it brightens, never darkens), with soft
// edges. What is drawn is what the server sent: a player's group only what
// it sees of each light (its vision's `lit`), the GM every light whole; a
// replay draws its torches' whole reach inside the eyes' sight (a clip).
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

let layers = 0; // ids of filters, masks and clips unique on the page

export class LitAreas {
  constructor(layer) {
    this.layer = layer;
    this.ids = ++layers;
    this.shown = null; // what was drawn, to skip an unchanged one
  }

  /**
   * Draw these areas ([{color, bright, dim}], SVG paths in squares) on a
   * map of `size` ({width, height}); `shade` is the scene's lighting when
   * the unlit ground is to be shaded ("dark" or "dim"), else null; inside
   * `clip` when given (a path filled nonzero: a replay's areas are each
   * light's whole reach, seen only where the viewer's eyes reach).
   */
  show(list, { size = null, shade = null, clip = null } = {}) {
    const areas = list || [];
    const key = JSON.stringify([areas, size, shade, clip]);
    if (key === this.shown) return;
    this.shown = key;
    clear(this.layer);
    if (!areas.length && !shade) return;
    const soft = `lit-soft-${this.ids}`;
    const defs = svg("defs", {});
    defs.append(softness(soft));
    this.layer.append(defs);
    if (size) {
      const mask = `lit-shade-mask-${this.ids}`;
      defs.append(shadeMask(mask, soft, areas, size, shade));
      this.layer.append(
        svg("rect", { class: "lit-shade", width: size.width, height: size.height, mask: `url(#${mask})` }),
      );
    }
    let into = this.layer;
    if (clip && areas.length) {
      const id = `lit-clip-${this.ids}`;
      defs.append(svg("clipPath", { id }, svg("path", { d: clip })));
      into = svg("g", { class: "lit-clipped", "clip-path": `url(#${id})` });
      this.layer.append(into);
    }
    for (const { color, bright, dim } of areas) {
      const light = svg("g", { class: "lit-area", filter: `url(#${soft})` });
      if (dim) light.append(svg("path", { class: "lit-dim", d: dim, fill: color }));
      if (bright) light.append(svg("path", { class: "lit-bright", d: bright, fill: color }));
      into.append(light);
    }
  }
}

/** The blur that softens every edge of light and shade. */
function softness(id) {
  const filter = svg("filter", { id, x: "-10%", y: "-10%", width: "120%", height: "120%" });
  filter.append(svg("feGaussianBlur", { stdDeviation: SOFT }));
  return filter;
}

/** Where the shade falls: grey levels drawn in order, so a bright area
 *  clears what another light's dim one or the dark left. */
function shadeMask(id, soft, areas, size, shade) {
  const grey = (level) => {
    const v = Math.round(level * 255);
    return `rgb(${v}, ${v}, ${v})`;
  };
  const mask = svg("mask", {
    id,
    maskUnits: "userSpaceOnUse",
    x: 0,
    y: 0,
    width: size.width,
    height: size.height,
    style: "mask-type: luminance",
  });
  const inner = svg("g", { filter: `url(#${soft})` });
  inner.append(svg("rect", { width: size.width, height: size.height, fill: grey(shade ? SHADE[shade] : 0) }));
  for (const { dim } of areas) if (dim) inner.append(svg("path", { d: dim, fill: grey(SHADE.dimLight), "fill-rule": "evenodd" }));
  for (const { bright } of areas) if (bright) inner.append(svg("path", { d: bright, fill: "#000", "fill-rule": "evenodd" }));
  mask.append(inner);
  return mask;
}
