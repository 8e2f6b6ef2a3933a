// A ping's pulse on the map: rings that widen from a point in the pinger's
// colour, with their name beside it, for PULSE_MS, then gone. The motion is
// CSS's (room.css, "Pings"): under prefers-reduced-motion the rings stand
// still for the same time. A newer ping from the same person replaces theirs.

import { svg } from "../lib/dom.js";

export const PULSE_MS = 2000;

export class Pulses {
  constructor(layer) {
    this.layer = layer;
    this.shown = new Map(); // who -> { node, timer }
  }

  /** Show a pulse at (x, y) in squares: `by` {id, name}, `color`, `pull`. */
  show({ x, y, by, color, pull = false }) {
    const who = by?.id ?? "me";
    this.hide(who);
    const label = pull ? `${by?.name ?? ""} (look here)` : by?.name ?? "";
    const node = svg(
      "g",
      { class: pull ? "ping pull" : "ping", style: `--ping: ${color || "#ffd54a"}`, "data-by": who, "aria-hidden": "true" },
      svg("circle", { class: "ping-ring", cx: x, cy: y, r: 0.3 }),
      svg("circle", { class: "ping-ring late", cx: x, cy: y, r: 0.3 }),
      svg("circle", { class: "ping-dot", cx: x, cy: y, r: 0.18 }),
      svg("text", { x: x + 0.45, y: y - 0.45, text: label }),
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
