// One drawing on the map as SVG, in squares (docs/protocol.md, "Drawings"):
// a pen's path, a line, an arrow, a rectangle or an ellipse from two
// corners, a text from its top left. Pure builders: ./drawings.js places
// them. Each drawing is a group holding a wide transparent copy of its
// outline (the "hit", what a select or an erase press finds, easy for a
// finger) under the outline itself.

import { svg } from "../lib/dom.js";

export const SHAPES = ["pen", "line", "arrow", "rect", "ellipse", "text"];

// A width step (1..8) in squares: 1 a hairline, 8 a marker's stroke.
export const strokeOf = (width) => 0.035 * Math.max(1, Math.min(8, Number(width) || 1));
// A text's height in squares grows with its width step.
export const textSizeOf = (width) => 0.35 + 0.08 * Math.max(1, Math.min(8, Number(width) || 1));
const HIT_MIN = 0.35; // the hit outline is never thinner than this, in squares

/** The corners' box: [left, top, width, height]. */
function box([[x1, y1], [x2, y2]]) {
  return [Math.min(x1, x2), Math.min(y1, y2), Math.abs(x2 - x1), Math.abs(y2 - y1)];
}

/** The outline's own element(s), with no colour yet. */
function outline(d) {
  const p = d.points || [];
  const [a, b] = [p[0] || [0, 0], p[1] || p[0] || [0, 0]];
  switch (d.shape) {
    case "pen":
      return [svg("polyline", { points: p.map(([x, y]) => `${x},${y}`).join(" ") })];
    case "line":
      return [svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1] })];
    case "arrow":
      return [svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1] }), arrowHead(a, b, d.width)];
    case "rect": {
      const [x, y, width, height] = box([a, b]);
      return [svg("rect", { x, y, width, height })];
    }
    case "ellipse": {
      const [x, y, w, h] = box([a, b]);
      return [svg("ellipse", { cx: x + w / 2, cy: y + h / 2, rx: w / 2, ry: h / 2 })];
    }
    default:
      return [];
  }
}

/** The arrow's head at `to`: a filled triangle along the line. */
function arrowHead(from, to, width) {
  const size = Math.max(0.3, strokeOf(width) * 4);
  const angle = Math.atan2(to[1] - from[1], to[0] - from[0]);
  const wing = (turn) => [to[0] - size * Math.cos(angle + turn), to[1] - size * Math.sin(angle + turn)];
  const points = [to, wing(0.45), wing(-0.45)].map(([x, y]) => `${x},${y}`).join(" ");
  return svg("polygon", { class: "arrow-head", points });
}

/** A text's lines as <text>, its top left at the drawing's point. */
function words(d) {
  const [x, y] = d.points?.[0] || [0, 0];
  const size = textSizeOf(d.width);
  const node = svg("text", { x, y: y + size, "font-size": size });
  String(d.text || "")
    .split("\n")
    .forEach((line, i) => node.append(svg("tspan", { x, dy: i ? size * 1.2 : 0, text: line })));
  return node;
}

/** The whole group for one drawing (stored, or a preview). */
export function drawingNode(d, { preview = false } = {}) {
  const classes = ["drawing", `shape-${d.shape}`, d.layer === "gm" ? "gm-layer" : "shared-layer"];
  if (preview) classes.push("preview");
  const group = svg("g", { class: classes.join(" ") });
  if (d.id !== undefined) group.dataset.drawingId = d.id;
  group.style.setProperty("--ink", d.color || "#000000");
  const stroke = strokeOf(d.width);
  if (d.shape === "text") {
    const text = words(d);
    group.append(text);
    return group;
  }
  const shown = outline(d);
  const hit = outline(d).filter((n) => !n.classList.contains("arrow-head"));
  for (const node of hit) {
    node.setAttribute("class", "hit");
    node.setAttribute("stroke-width", Math.max(HIT_MIN, stroke * 2));
  }
  for (const node of shown) {
    if (!node.classList.contains("arrow-head")) node.setAttribute("class", "ink");
    node.setAttribute("stroke-width", stroke);
  }
  group.append(...hit, ...shown);
  return group;
}

/** Said of a drawing, for a tooltip and the status line. */
export function drawingWords(d) {
  const what = { pen: "drawing", line: "line", arrow: "arrow", rect: "rectangle", ellipse: "ellipse", text: "text" }[d.shape] || "drawing";
  const said = d.shape === "text" && d.text ? `${what} "${d.text}"` : what;
  return d.layer === "gm" ? `${said} (GM layer)` : said;
}
