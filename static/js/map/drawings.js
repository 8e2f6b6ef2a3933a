// The drawings on the map: the stored ones of the scene shown (as the
// server sent them to this member: a GM-layer drawing, or one under fog the
// member's group does not see, never reaches the page), and the live
// previews of strokes being drawn, this member's own and others' (the
// `drawing.stroke` frames). Drawn in squares in the map's own group, so they
// pan and zoom with it. A preview goes when its drawing is stored (the
// `drawing.added` event names the stroke it finished) or, left alone,
// after PREVIEW_MS: a stroke given up, refused, or its drawer gone.

import { svg, clear } from "../lib/dom.js";
import { drawingNode, drawingWords } from "./drawing_shapes.js";

export const PREVIEW_MS = 5000;

/** A stroke's key among the previews: whose, and which of theirs. */
export const strokeKey = (byId, stroke) => `${byId}:${stroke}`;

export class Drawings {
  constructor(layer) {
    this.layer = layer;
    this.storedLayer = svg("g", { class: "drawings-stored" });
    this.liveLayer = svg("g", { class: "drawings-live" });
    layer.append(this.storedLayer, this.liveLayer);
    this.stored = new Map(); // id -> drawing
    this.nodes = new Map(); // id -> its group
    this.previews = new Map(); // stroke key -> { node, timer }
    this.selected = null; // the id a select press chose, or null
  }

  /** The scene's drawings, all at once (a snapshot, a new map). */
  set(list) {
    clear(this.storedLayer);
    this.stored.clear();
    this.nodes.clear();
    this.clearPreviews();
    for (const drawing of list || []) this.upsert(drawing);
    if (!this.stored.has(this.selected)) this.selected = null;
  }

  /** A drawing stored or moved; `stroke` (the key of the stroke it
   *  finished) takes that stroke's preview away. */
  upsert(drawing, stroke = "") {
    if (stroke) this.dropPreview(strokeKey(drawing.by?.id, stroke));
    const node = drawingNode(drawing);
    node.append(svg("title", { text: `${drawingWords(drawing)} by ${drawing.by?.name || "someone"}` }));
    if (drawing.id === this.selected) node.classList.add("selected");
    const before = this.nodes.get(drawing.id);
    if (before) before.replaceWith(node);
    else this.storedLayer.append(node);
    this.stored.set(drawing.id, drawing);
    this.nodes.set(drawing.id, node);
  }

  remove(id) {
    this.nodes.get(id)?.remove();
    this.nodes.delete(id);
    this.stored.delete(id);
    if (this.selected === id) this.selected = null;
  }

  /** Mark one drawing as the selected one (null: none). */
  select(id) {
    this.nodes.get(this.selected)?.classList.remove("selected");
    this.selected = this.stored.has(id) ? id : null;
    this.nodes.get(this.selected)?.classList.add("selected");
  }

  /** Shift a drawing's group on screen while it is dragged (0, 0: back). */
  nudge(id, dx, dy) {
    const node = this.nodes.get(id);
    if (!node) return;
    if (dx || dy) node.setAttribute("transform", `translate(${dx} ${dy})`);
    else node.removeAttribute("transform");
  }

  /** The drawing a pointer event is on, or null. */
  idAt(target) {
    const node = target?.closest?.("[data-drawing-id]");
    if (!node || !this.storedLayer.contains(node)) return null;
    const id = Number(node.dataset.drawingId);
    return this.stored.has(id) ? id : null;
  }

  /** Show a stroke being drawn under `key`: its points so far, or with a
   *  `from`, the points from that index on (a pen's previews carry what
   *  the stroke gained since the last; one missed leaves a straight
   *  step until the stored drawing replaces the preview). */
  preview(key, stroke) {
    const known = this.previews.get(key);
    if (known) clearTimeout(known.timer);
    if (stroke.from > 0) {
      const before = known ? known.points.slice(0, stroke.from) : [];
      stroke = { ...stroke, points: before.concat(stroke.points) };
    }
    const node = drawingNode(stroke, { preview: true });
    node.dataset.stroke = key;
    if (stroke.by?.name) node.append(svg("title", { text: `${stroke.by.name} is drawing` }));
    if (known) known.node.replaceWith(node);
    else this.liveLayer.append(node);
    const timer = setTimeout(() => this.dropPreview(key), PREVIEW_MS);
    this.previews.set(key, { node, timer, points: stroke.points });
  }

  dropPreview(key) {
    const known = this.previews.get(key);
    if (!known) return;
    clearTimeout(known.timer);
    known.node.remove();
    this.previews.delete(key);
  }

  clearPreviews() {
    for (const key of [...this.previews.keys()]) this.dropPreview(key);
  }

  clear() {
    this.set([]);
  }
}
