// How the wall editor draws a segment (a wall, a window's pane and
// glazing, a door's edge and leaf, a locked door's padlock: the classes of
// static/css/gm_walls.css), and the plane geometry it picks segments with.

import { svg } from "../lib/dom.js";
import { kindClasses } from "./wall_text.js";

export function segmentNode({ ends: [x1, y1, x2, y2], kind }, extra = "") {
  const node = svg("g", { class: `${kindClasses(kind)} ${extra}`.trim() });
  const part = (name) => svg("line", { class: name, x1, y1, x2, y2 });
  if (kind === "wall") node.append(part("wall"));
  else if (kind === "window") node.append(part("pane"), part("glazing"));
  else node.append(part("edge"), part("leaf"));
  if (kind === "door locked") node.append(lockMark((x1 + x2) / 2, (y1 + y2) / 2));
  return node;
}

function lockMark(x, y) {
  // A small padlock on the door's middle: shackle and body.
  return svg(
    "g",
    { class: "padlock", transform: `translate(${x} ${y})` },
    svg("path", { class: "shackle", d: "M -0.09 -0.02 V -0.1 A 0.09 0.09 0 0 1 0.09 -0.1 V -0.02" }),
    svg("rect", { class: "lock-body", x: -0.14, y: -0.04, width: 0.28, height: 0.2, rx: 0.03 }),
  );
}

export function same(a, b) {
  return a[0] === b[0] && a[1] === b[1];
}

export function sameEnds(a, b) {
  return a.every((v, i) => v === b[i]);
}

export function clamp(v, lo, hi) {
  return Math.max(lo, Math.min(hi, v));
}

export function distanceToSegment(px, py, [x1, y1, x2, y2]) {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const length = dx * dx + dy * dy;
  const t = length ? clamp(((px - x1) * dx + (py - y1) * dy) / length, 0, 1) : 0;
  return Math.hypot(px - (x1 + t * dx), py - (y1 + t * dy));
}
