// Pan and zoom of the battle map: mouse drag and wheel, two-finger pinch,
// and the keyboard (arrows pan, + and - zoom, 0 fits). The world group is
// transformed; one grid unit is one square. When the map's box changes (a
// panel opens, the toolbar wraps, the window turns) a fitted map is fitted
// again, and a zoom the user chose is kept, centred on the same spot.

const MIN_SCALE = 8;
const MAX_SCALE = 200;

export class MapView {
  constructor(svgEl, world, onChange) {
    this.svg = svgEl;
    this.world = world;
    this.onChange = onChange;
    this.scale = 40;
    this.tx = 0;
    this.ty = 0;
    this.size = { width: 20, height: 20 };
    this.pointers = new Map();
    this.fitted = true;
    this.box = null;
    this.enable();
    new ResizeObserver(() => this.resized()).observe(svgEl);
  }

  resized() {
    const box = this.svg.getBoundingClientRect();
    if (!box.width || !box.height) return;
    const before = this.box;
    this.box = { width: box.width, height: box.height };
    if (this.fitted || !before) {
      this.fit();
      return;
    }
    this.tx += (box.width - before.width) / 2;
    this.ty += (box.height - before.height) / 2;
    this.apply();
  }

  enable() {
    this.svg.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    this.svg.addEventListener("pointerdown", (e) => this.down(e));
    this.svg.addEventListener("pointermove", (e) => this.move(e));
    this.svg.addEventListener("pointerup", (e) => this.up(e));
    this.svg.addEventListener("pointercancel", (e) => this.up(e));
  }

  apply() {
    this.world.setAttribute("transform", `translate(${this.tx} ${this.ty}) scale(${this.scale})`);
    this.onChange?.();
  }

  /** Screen (client) coordinates to grid units. */
  toGrid(clientX, clientY) {
    const box = this.svg.getBoundingClientRect();
    return [(clientX - box.left - this.tx) / this.scale, (clientY - box.top - this.ty) / this.scale];
  }

  fit(width = this.size.width, height = this.size.height) {
    this.size = { width, height };
    const box = this.svg.getBoundingClientRect();
    const w = box.width || 600;
    const h = box.height || 400;
    this.scale = clamp(Math.min(w / (width + 1), h / (height + 1)), MIN_SCALE, MAX_SCALE);
    this.tx = (w - width * this.scale) / 2;
    this.ty = (h - height * this.scale) / 2;
    this.fitted = true;
    this.apply();
  }

  zoomAt(factor, clientX, clientY) {
    const box = this.svg.getBoundingClientRect();
    const px = clientX === undefined ? box.width / 2 : clientX - box.left;
    const py = clientY === undefined ? box.height / 2 : clientY - box.top;
    const next = clamp(this.scale * factor, MIN_SCALE, MAX_SCALE);
    const k = next / this.scale;
    this.tx = px - (px - this.tx) * k;
    this.ty = py - (py - this.ty) * k;
    this.scale = next;
    this.fitted = false;
    this.apply();
  }

  pan(dx, dy) {
    if (!dx && !dy) return;
    this.tx += dx;
    this.ty += dy;
    this.fitted = false;
    this.apply();
  }

  wheel(e) {
    e.preventDefault();
    this.zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX, e.clientY);
  }

  down(e) {
    // Tokens and tools stop the event themselves; what reaches here pans.
    if (e.defaultPrevented || this.ignore?.(e)) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    this.svg.setPointerCapture?.(e.pointerId);
    this.svg.classList.add("panning");
  }

  move(e) {
    const last = this.pointers.get(e.pointerId);
    if (!last) return;
    if (this.pointers.size === 2) {
      // Two fingers: their spread zooms, their midpoint pans.
      const [a, b] = [...this.pointers.values()];
      const before = Math.hypot(a.x - b.x, a.y - b.y);
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const [c, d] = [...this.pointers.values()];
      const after = Math.hypot(c.x - d.x, c.y - d.y);
      const mid = [(c.x + d.x) / 2, (c.y + d.y) / 2];
      if (before > 0) this.zoomAt(after / before, mid[0], mid[1]);
      this.pan(mid[0] - (a.x + b.x) / 2, mid[1] - (a.y + b.y) / 2);
      return;
    }
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    this.pan(e.clientX - last.x, e.clientY - last.y);
  }

  up(e) {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size === 0) this.svg.classList.remove("panning");
  }

  /** Keys on the focused map itself. Returns true when handled. */
  key(e) {
    const step = 40;
    switch (e.key) {
      case "ArrowLeft": this.pan(step, 0); return true;
      case "ArrowRight": this.pan(-step, 0); return true;
      case "ArrowUp": this.pan(0, step); return true;
      case "ArrowDown": this.pan(0, -step); return true;
      case "+": case "=": this.zoomAt(1.2); return true;
      case "-": case "_": this.zoomAt(1 / 1.2); return true;
      case "0": this.fit(); return true;
      default: return false;
    }
  }
}

function clamp(v, lo, hi) {
  return Math.max(lo, Math.min(hi, v));
}
