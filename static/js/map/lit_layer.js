// A dim or dark scene's lit areas, drawn over the map and under the fog:
// each light's dim area and, inside it, its bright one, tinted by its
// colour and blended as light is (screen: it brightens, never darkens).
// What is drawn is what the server sent: a player's group only what it
// sees of each light (its vision's `lit`), the GM every light whole.

import { svg, clear } from "../lib/dom.js";

export class LitAreas {
  constructor(layer) {
    this.layer = layer;
    this.shown = null; // the list drawn, to skip an unchanged one
  }

  /** Draw these areas ([{color, bright, dim}], SVG paths in squares). */
  show(list) {
    const key = JSON.stringify(list || []);
    if (key === this.shown) return;
    this.shown = key;
    clear(this.layer);
    for (const { color, bright, dim } of list || []) {
      const light = svg("g", { class: "lit-area" });
      if (dim) light.append(svg("path", { class: "lit-dim", d: dim, fill: color }));
      if (bright) light.append(svg("path", { class: "lit-bright", d: bright, fill: color }));
      this.layer.append(light);
    }
  }
}
