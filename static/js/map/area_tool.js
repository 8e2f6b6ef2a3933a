// A map mode that marks a rectangle of whole squares (the GM's "Reveal
// area" and "Cover area"): drag from one square to another with a mouse,
// pen or finger, or from the keyboard on the focused map: arrows move the
// corner, Shift with arrows stretches the rectangle, Enter takes it, Escape
// leaves the mode. The rectangle goes to onArea([x, y, w, h], mode).

import { svg, clear } from "../lib/dom.js";

const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export class AreaTool {
  constructor(board, layer, { onArea, onEnd }) {
    this.board = board;
    this.layer = layer;
    this.onArea = onArea;
    this.onEnd = onEnd; // the mode was left (Escape, or stop())
    this.mode = null;
    this.from = null;
    this.to = null;
    board.svg.addEventListener("pointerdown", (e) => this.down(e));
  }

  get active() {
    return this.mode !== null;
  }

  start(mode) {
    this.mode = mode;
    this.board.svg.classList.add("area-mode");
    this.board.svg.dataset.areaMode = mode;
    const middle = this.board.middleSquare() || [0, 0];
    this.from = middle;
    this.to = [...middle];
    this.draw();
  }

  stop() {
    if (!this.active) return;
    this.mode = null;
    this.from = this.to = null;
    this.board.svg.classList.remove("area-mode");
    delete this.board.svg.dataset.areaMode;
    clear(this.layer);
    this.onEnd?.();
  }

  /** The square under a pointer, kept on the map. */
  square(e) {
    const [gx, gy] = this.board.view.toGrid(e.clientX, e.clientY);
    const { width, height } = this.board.scene;
    return [Math.max(0, Math.min(width - 1, Math.floor(gx))), Math.max(0, Math.min(height - 1, Math.floor(gy)))];
  }

  rect() {
    const x = Math.min(this.from[0], this.to[0]);
    const y = Math.min(this.from[1], this.to[1]);
    return [x, y, Math.abs(this.to[0] - this.from[0]) + 1, Math.abs(this.to[1] - this.from[1]) + 1];
  }

  down(e) {
    if (!this.active || !this.board.scene || e.button > 0) return;
    e.preventDefault();
    this.from = this.square(e);
    this.to = [...this.from];
    this.draw();
    const svgEl = this.board.svg;
    svgEl.setPointerCapture?.(e.pointerId);
    const move = (ev) => {
      this.to = this.square(ev);
      this.draw();
    };
    const up = (ev) => {
      svgEl.removeEventListener("pointermove", move);
      svgEl.removeEventListener("pointerup", up);
      svgEl.removeEventListener("pointercancel", up);
      if (ev.type === "pointerup") this.take();
    };
    svgEl.addEventListener("pointermove", move);
    svgEl.addEventListener("pointerup", up);
    svgEl.addEventListener("pointercancel", up);
  }

  /** Keys on the focused map; true when handled. */
  key(e) {
    if (!this.active) return false;
    if (e.key === "Escape") {
      this.stop();
      return true;
    }
    if (e.key === "Enter") {
      this.take();
      return true;
    }
    const step = STEPS[e.key];
    if (!step || !this.board.scene) return false;
    const { width, height } = this.board.scene;
    const moved = [
      Math.max(0, Math.min(width - 1, this.to[0] + step[0])),
      Math.max(0, Math.min(height - 1, this.to[1] + step[1])),
    ];
    this.to = moved;
    if (!e.shiftKey) this.from = [...moved];
    this.draw();
    return true;
  }

  take() {
    if (!this.from || !this.to) return;
    this.onArea(this.rect(), this.mode);
  }

  draw() {
    clear(this.layer);
    if (!this.from || !this.to) return;
    const [x, y, width, height] = this.rect();
    this.layer.append(svg("rect", { class: `area area-${this.mode}`, x, y, width, height }));
    const verb = this.mode === "reveal" ? "Reveal" : "Cover";
    this.board.options.status(`${verb} ${width} × ${height} from column ${x}, row ${y}: Enter takes it, Escape stops.`);
  }
}
