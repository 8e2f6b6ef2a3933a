// A dim or dark scene's lit areas, drawn over the map and under the fog:
// each light's dim area and, inside it, its bright one, tinted by its
// colour and blended as light is (screen: it brightens, never darkens).
// What is drawn is what the server sent: a player's group only what it
// sees of each light (its vision's `lit`), the GM every light whole; a
// replay draws its torches' whole reach inside the eyes' sight (a clip).

import { svg, clear } from "../lib/dom.js";

let layers = 0; // clip ids unique on the page

export class LitAreas {
  constructor(layer) {
    this.layer = layer;
    this.clipId = `lit-clip-${++layers}`;
    this.shown = null; // the list drawn, to skip an unchanged one
  }

  /**
   * Draw these areas ([{color, bright, dim}], SVG paths in squares), inside
   * `clip` when given (a path filled nonzero: a replay's areas are each
   * light's whole reach, seen only where the viewer's eyes reach).
   */
  show(list, clip = null) {
    const key = JSON.stringify([list || [], clip || ""]);
    if (key === this.shown) return;
    this.shown = key;
    clear(this.layer);
    let into = this.layer;
    if (clip && (list || []).length) {
      this.layer.append(svg("defs", {}, svg("clipPath", { id: this.clipId }, svg("path", { d: clip }))));
      into = svg("g", { class: "lit-clipped", "clip-path": `url(#${this.clipId})` });
      this.layer.append(into);
    }
    for (const { color, bright, dim } of list || []) {
      const light = svg("g", { class: "lit-area" });
      if (dim) light.append(svg("path", { class: "lit-dim", d: dim, fill: color }));
      if (bright) light.append(svg("path", { class: "lit-bright", d: bright, fill: color }));
      into.append(light);
    }
  }
}
