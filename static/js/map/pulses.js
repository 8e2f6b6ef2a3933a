// A ping's pulse on the map: rings that widen from a point in the pinger's
// colour, with their name beside it, for PULSE_MS, then gone. It is the same
// size on screen at any zoom (drawn in units of SCREEN_PX pixels at the zoom
// it arrives at). The motion is CSS's (room.css, "Pings"): under
// prefers-reduced-motion the rings stand still for the same time. A newer
// ping from the same person replaces theirs.

import { svg } from "../lib/dom.js";

export const PULSE_MS = 2000;
const SCREEN_PX = 32; // one unit of the pulse's drawing, on screen

export class Pulses {
  constructor(layer, scale) {
    this.layer = layer;
    this.scale = scale; // () => the view's pixels a square now
    this.shown = new Map(); // who -> { node, timer }
  }

  /** Show a pulse at (x, y) in squares: `by` {id, name}, `color`, `pull`. */
  show({ x, y, by, color, pull = false }) {
    const who = by?.id ?? "me";
    this.hide(who);
    const label = pull ? `${by?.name ?? ""} (look here)` : (by?.name ?? "");
    const k = SCREEN_PX / (this.scale?.() || SCREEN_PX);
    const node = svg(
      "g",
      {
        class: pull ? "ping pull" : "ping",
        style: `--ping: ${color || "#ffd54a"}`,
        transform: `translate(${x} ${y}) scale(${k})`,
        "data-x": x,
        "data-y": y,
        "aria-hidden": "true",
      },
      svg("circle", { class: "ping-ring", r: 0.3 }),
      svg("circle", { class: "ping-ring late", r: 0.9 }),
      svg("circle", { class: "ping-dot", r: 0.18 }),
      svg("text", { x: 0.45, y: -0.45, text: label }),
    );
    this.layer.append(node);
    const timer = setTimeout(() => this.hide(who), PULSE_MS);
    this.shown.set(who, { node, timer });
    return node;
  }

  hide(who) {
    const shown = this.shown.get(who);
    if (!shown) return;
    clearTimeout(shown.timer);
    shown.node.remove();
    this.shown.delete(who);
  }

  clear() {
    for (const who of [...this.shown.keys()]) this.hide(who);
  }
}
