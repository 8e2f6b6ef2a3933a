// Pan and pinch: one pointer dragging the map's screen box (or the margin
// round the map) pans it, two fingers zoom by their spread and pan by
// their midpoint. Tokens and doors take their own presses first (they stop
// them); a tool that draws on the map (the ruler, a fog area, the wall
// editor) has the board disable this one while it is on.

import { Handler } from "../handler.js";

export class PanZoom extends Handler {
  constructor(view) {
    super();
    this.view = view;
    this.pointers = new Map();
  }

  addHooks() {
    const box = this.view.box;
    this.listen(box, "pointerdown", (e) => this.down(e));
    this.listen(box, "pointermove", (e) => this.move(e));
    this.listen(box, "pointerup", (e) => this.up(e));
    this.listen(box, "pointercancel", (e) => this.up(e));
  }

  removeHooks() {
    this.pointers.clear();
    this.view.svg.classList.remove("panning");
  }

  down(e) {
    if (e.defaultPrevented || !this.view.mine(e)) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    this.view.box.setPointerCapture?.(e.pointerId);
    this.view.svg.classList.add("panning");
  }

  move(e) {
    const last = this.pointers.get(e.pointerId);
    if (!last) return;
    const view = this.view;
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      const before = Math.hypot(a.x - b.x, a.y - b.y);
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const [c, d] = [...this.pointers.values()];
      const after = Math.hypot(c.x - d.x, c.y - d.y);
      const mid = [(c.x + d.x) / 2, (c.y + d.y) / 2];
      if (before > 0) view.zoomAt(after / before, mid[0], mid[1]);
      view.pan(mid[0] - (a.x + b.x) / 2, mid[1] - (a.y + b.y) / 2);
      return;
    }
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    view.pan(e.clientX - last.x, e.clientY - last.y);
  }

  up(e) {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size === 0) this.view.svg.classList.remove("panning");
  }
}

/** Two fingers only: they pinch and pan while a tool draws with one finger
 *  (./draw.js); one finger, a mouse or a pen is the tool's. Listens
 *  whatever the tool did with the press (it takes every first press). */
export class Pinch extends PanZoom {
  down(e) {
    if (e.pointerType !== "touch" || !this.view.mine(e)) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  }

  move(e) {
    if (!this.pointers.has(e.pointerId)) return;
    if (this.pointers.size === 2) super.move(e);
    else this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  }
}
