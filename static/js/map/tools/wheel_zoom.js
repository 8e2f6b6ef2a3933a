// The wheel zooms the map about the pointer, on the map or beside it. It
// stays on under every other tool: measuring or drawing walls, one still
// wants to zoom.

import { Handler } from "../handler.js";

export class WheelZoom extends Handler {
  constructor(view) {
    super();
    this.view = view;
  }

  addHooks() {
    this.listen(this.view.box, "wheel", (e) => this.wheel(e), { passive: false });
  }

  wheel(e) {
    if (!this.view.mine(e)) return;
    e.preventDefault();
    this.view.zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX, e.clientY);
  }
}
