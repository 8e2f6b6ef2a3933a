// The scene's lights as the GM sees them on the map: a small sun where
// each light stands, and its bright and dim reach as faint circles in its
// colour. A light carried by a token goes with the token and is not drawn
// here. Each sun is a focusable button (./tools/light_tool.js moves and
// removes it from the keyboard); a light that is off is drawn greyed.

import { svg, clear } from "../lib/dom.js";

const RAYS = 8;
const SUN_R = 0.16; // squares: the sun's disc
const RAY_IN = 0.22;
const RAY_OUT = 0.34;

function sun(color) {
  const parts = [svg("circle", { class: "light-sun", r: SUN_R, fill: color })];
  for (let i = 0; i < RAYS; i++) {
    const a = (i * 2 * Math.PI) / RAYS;
    const [c, s] = [Math.cos(a), Math.sin(a)];
    parts.push(svg("line", { class: "light-ray", x1: c * RAY_IN, y1: s * RAY_IN, x2: c * RAY_OUT, y2: s * RAY_OUT, stroke: color }));
  }
  return parts;
}

export function lightLabel(light) {
  const where = `column ${Math.floor(light.x)}, row ${Math.floor(light.y)}`;
  return `Light at ${where}: bright ${light.bright}, dim ${light.dim} squares${light.on ? "" : ", off"}`;
}

export class LightMarks {
  constructor(layer) {
    this.layer = layer;
    this.nodes = new Map();
  }

  /** Draw these lights (a list of light_data); `selected` is an id or null. */
  draw(lights, selected = null) {
    clear(this.layer);
    this.nodes.clear();
    for (const light of lights) {
      if (light.token_id !== null && light.token_id !== undefined) continue;
      const node = svg("g", {
        class: `light-mark${light.on ? "" : " off"}${light.id === selected ? " selected" : ""}`,
        "data-light": light.id,
        transform: `translate(${light.x} ${light.y})`,
        tabindex: "0",
        role: "button",
        "aria-label": lightLabel(light),
      });
      node.append(
        svg("circle", { class: "light-reach dim", r: light.dim, stroke: light.color }),
        svg("circle", { class: "light-reach bright", r: light.bright, stroke: light.color }),
        svg("circle", { class: "light-hit", r: RAY_OUT + 0.1 }),
        ...sun(light.color),
      );
      this.layer.append(node);
      this.nodes.set(light.id, node);
    }
  }

  /** Show a light at (x, y) while it is dragged, before the server says. */
  moveTo(id, x, y) {
    this.nodes.get(id)?.setAttribute("transform", `translate(${x} ${y})`);
  }

  focus(id) {
    this.nodes.get(id)?.focus({ preventScroll: true });
  }
}
