// Doors and windows on the map, each drawn by its own shape so nothing is
// told by colour alone: a closed door is a solid leaf across its opening, an
// open one a leaf swung square from its hinge (the first end) with the
// opening left clear, a locked one a closed leaf with a padlock on it, a
// window a thin pane with a glazing line. A scene's `walls` item is
// [x1, y1, x2, y2] (a wall: board.js draws those), or with "window", or
// "door" and then "open" or "locked" (closed when nothing follows).
//
// Doors are buttons (Tab reaches them; the label says what and where);
// what a click, a key or a long press on one does is ./tools/doors.js's.
// Windows are labelled pictures, outside the Tab order: nothing to do with
// them.

import { svg, clear } from "../lib/dom.js";

const LEAF = 0.2; // a door's thickness, in squares
const HIT_PX = 20; // the width of the line that takes the pointer, on screen

/** The doors and windows among a scene's walls, each with its index. */
export function openings(walls) {
  const found = [];
  (walls || []).forEach((wall, index) => {
    const [x1, y1, x2, y2, kind, state] = wall;
    if (kind !== "door" && kind !== "window") return;
    const door = { index, x1, y1, x2, y2, kind };
    if (kind === "door") door.state = state === "open" || state === "locked" ? state : "closed";
    found.push(door);
  });
  return found;
}

/** "Door, locked, at column 6, row 2" (the square its middle touches). */
export function describe(door) {
  const what = door.kind === "window" ? "Window" : `Door, ${door.state}`;
  const col = Math.floor((door.x1 + door.x2) / 2);
  const row = Math.floor((door.y1 + door.y2) / 2);
  return `${what}, at column ${col}, row ${row}`;
}

export class Doors {
  constructor(layer) {
    this.layer = layer;
    this.list = [];
    this.nodes = new Map(); // wall index -> node
  }

  setScene(scene) {
    // A door redrawn (it was opened) keeps the keyboard's focus.
    const focused = this.layer.contains(document.activeElement) ? document.activeElement.dataset.wall : null;
    clear(this.layer);
    this.nodes.clear();
    this.list = scene ? openings(scene.walls) : [];
    for (const door of this.list) {
      const node = door.kind === "window" ? this.makeWindow(door) : this.makeDoor(door);
      this.nodes.set(door.index, node);
      this.layer.append(node);
    }
    if (focused !== null && focused !== undefined) this.focus(Number(focused));
  }

  get(index) {
    return this.list.find((door) => door.index === index) || null;
  }

  /**
   * Under fog of war, `seen(door)` says what the viewer makes of each
   * opening: "view", "explored" (drawn dimmed) or "unexplored" (hidden, out
   * of the Tab order). Null: no fog, every opening as it is.
   */
  showOnly(seen) {
    for (const door of this.list) {
      const node = this.nodes.get(door.index);
      const what = seen ? seen(door) : "view";
      // Written only when it changes: every move asks again of every door.
      if (node.dataset.seen === what) continue;
      node.dataset.seen = what;
      const hidden = what === "unexplored";
      node.classList.toggle("unseen", hidden);
      node.classList.toggle("dimmed", what === "explored");
      if (door.kind === "door") node.setAttribute("tabindex", hidden ? "-1" : "0");
      node.setAttribute("aria-hidden", hidden ? "true" : "false");
    }
  }

  /** Mark a door whose change is on its way to the server. */
  pending(index, on) {
    this.nodes.get(index)?.classList.toggle("pending", on);
  }

  focus(index) {
    this.nodes.get(index)?.focus();
  }

  // ---- drawing, in the opening's own frame: x along it, y across it

  frame(door) {
    const dx = door.x2 - door.x1;
    const dy = door.y2 - door.y1;
    const length = Math.hypot(dx, dy);
    const angle = (Math.atan2(dy, dx) * 180) / Math.PI;
    return { length, angle, transform: `translate(${door.x1} ${door.y1}) rotate(${angle})` };
  }

  makeWindow(door) {
    const { length, transform } = this.frame(door);
    return svg(
      "g",
      { class: "opening window", role: "img", "aria-label": describe(door), "data-wall": door.index, transform },
      svg("rect", { class: "pane", x: 0, y: -LEAF / 3, width: length, height: (LEAF * 2) / 3 }),
      svg("line", { class: "glazing", x1: 0, y1: 0, x2: length, y2: 0 }),
    );
  }

  makeDoor(door) {
    const { length, angle, transform } = this.frame(door);
    const parts = [svg("line", {
        class: "door-hit",
        x1: 0,
        y1: 0,
        x2: length,
        y2: 0,
        "stroke-width": HIT_PX,
        "vector-effect": "non-scaling-stroke", // as wide on screen at any zoom
      }),];
    if (door.state === "open") {
      // The jambs at both ends, the leaf swung square from the hinge.
      parts.push(
        svg("line", { class: "jamb", x1: 0, y1: 0, x2: 0.12, y2: 0 }),
        svg("line", { class: "jamb", x1: length - 0.12, y1: 0, x2: length, y2: 0 }),
        svg("rect", { class: "leaf", x: 0, y: 0, width: LEAF * 0.6, height: length * 0.9 }),
        svg("path", { class: "swing", d: `M ${length * 0.9} 0 A ${length * 0.9} ${length * 0.9} 0 0 1 0 ${length * 0.9}` }),
      );
    } else {
      parts.push(svg("rect", { class: "leaf", x: 0.04, y: -LEAF / 2, width: length - 0.08, height: LEAF }));
      if (door.state === "locked") {
        const mid = length / 2;
        parts.push(
          svg(
            "g",
            { class: "padlock", transform: `translate(${mid} 0) rotate(${-angle})` }, // upright
            svg("path", { class: "shackle", d: "M -0.09 -0.05 V -0.15 A 0.09 0.09 0 0 1 0.09 -0.15 V -0.05" }),
            svg("rect", { class: "lock-body", x: -0.14, y: -0.07, width: 0.28, height: 0.2, rx: 0.03 }),
          ),
        );
      }
    }
    const node = svg(
      "g",
      {
        class: `opening door door-${door.state}`,
        role: "button",
        tabindex: 0,
        "aria-label": describe(door),
        "data-wall": door.index,
        "data-state": door.state,
        transform,
      },
      ...parts,
    );
    return node;
  }
}
