// The area templates on the map: each one's covered squares, its outline
// and its words, drawn under the tokens; the one being placed on top of
// them, with the tokens it holds ringed. What a template covers is
// ./template_shapes.js's (the server's twin).

import { svg, clear } from "../lib/dom.js";
import { holds, squares, templateWords } from "./template_shapes.js";

const HALF_CONE = Math.atan(0.5);

function outline(t) {
  const { shape, x, y, size } = t;
  if (shape === "circle") return svg("circle", { class: "template-edge", cx: x, cy: y, r: size });
  if (shape === "square") return svg("rect", { class: "template-edge", x, y, width: size, height: size });
  const a = (t.angle * Math.PI) / 180;
  if (shape === "line") {
    const [px, py] = [-Math.sin(a) * 0.5, Math.cos(a) * 0.5];
    const [ex, ey] = [x + Math.cos(a) * size, y + Math.sin(a) * size];
    const points = [[x + px, y + py], [ex + px, ey + py], [ex - px, ey - py], [x - px, y - py]];
    return svg("polygon", { class: "template-edge", points: points.map((p) => p.join(",")).join(" ") });
  }
  const end = (turn) => [x + Math.cos(turn) * size, y + Math.sin(turn) * size];
  const [x1, y1] = end(a - HALF_CONE);
  const [x2, y2] = end(a + HALF_CONE);
  return svg("path", { class: "template-edge", d: `M${x},${y} L${x1},${y1} A${size},${size} 0 0 1 ${x2},${y2} Z` });
}

/** Where a template's words go: above a burst or a square, beside a
 *  cone's or a line's corner; kept on the map's top row. */
function wordsAt(t) {
  const above = t.shape === "circle" ? [t.x - t.size, t.y - t.size] : [t.x, t.y];
  const [x, y] = t.shape === "cone" || t.shape === "line" ? [t.x + 0.15, t.y - 0.15] : [above[0], above[1] - 0.12];
  return [Math.max(0.05, x), Math.max(0.35, y)];
}

export class TemplateLayer {
  constructor(board, layer) {
    this.board = board;
    this.layer = layer;
    this.placed = [];
    this.preview = null;
  }

  /** The placed templates (those of the board's scene are drawn). */
  set(templates) {
    this.placed = templates;
    this.draw();
  }

  /** The template being placed (null: none), drawn over the others. */
  show(preview) {
    this.preview = preview;
    this.draw();
  }

  /** The tokens the board holds that a template holds. */
  held(template) {
    const scene = this.board.scene;
    if (!scene) return [];
    const covered = squares(template, scene.width, scene.height);
    return [...this.board.tokens.values()].filter((t) => holds(covered, t));
  }

  draw() {
    clear(this.layer);
    const scene = this.board.scene;
    if (!scene) return;
    for (const t of this.placed) {
      if (t.scene_id === scene.id) this.layer.append(this.drawn(t, "template"));
    }
    if (this.preview) this.layer.append(this.drawn(this.preview, "template placing"));
  }

  drawn(t, kind) {
    const scene = this.board.scene;
    const g = svg("g", { class: `${kind} template-${t.shape}${t.gm_only ? " gm-only" : ""}`, "data-template": t.id ?? "new" });
    for (const key of squares(t, scene.width, scene.height)) {
      const [i, j] = key.split(",").map(Number);
      g.append(svg("rect", { class: "template-cell", x: i, y: j, width: 1, height: 1 }));
    }
    g.append(outline(t));
    if (kind !== "template") {
      for (const token of this.held(t)) {
        const s = token.size || 1;
        g.append(svg("rect", { class: "template-held", x: token.x + 0.05, y: token.y + 0.05, width: s - 0.1, height: s - 0.1, rx: 0.2 }));
      }
    }
    const [wx, wy] = wordsAt(t);
    g.append(svg("text", { class: "template-words", x: wx, y: wy, text: templateWords(t) }));
    return g;
  }
}
