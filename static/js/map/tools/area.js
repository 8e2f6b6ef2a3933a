// A map tool that marks a rectangle of whole squares (the GM's "Reveal
// area" and "Cover area"): drag from one square to another with a mouse,
// pen or finger, or from the keyboard on the focused map: arrows move the
// corner, Shift with arrows stretches the rectangle, Enter takes it, Escape
// leaves the tool. The rectangle goes to onArea([x, y, w, h], mode).
//
// start(mode) has the board use this tool (Board.use: it takes the pointer
// and the others give it up); stop() gives the map back. Disabled by any
// means (Escape, another tool, stop()), it says so through onEnd.

import { svg, clear } from "../../lib/dom.js";
import { Handler } from "../handler.js";

const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export class AreaTool extends Handler {
  constructor(board, layer, { onArea, onEnd }) {
    super();
    this.board = board;
    this.layer = layer;
    this.onArea = onArea;
    this.onEnd = onEnd; // the tool was left (Escape, another tool, or stop())
    this.mode = null;
    this.from = null;
    this.to = null;
  }

  start(mode) {
    if (this.enabled) this.board.use(null);
    this.mode = mode;
    this.board.use(this);
  }

  stop() {
    if (this.enabled) this.board.use(null);
  }

  addHooks() {
    const svgEl = this.board.svg;
    svgEl.classList.add("area-mode");
    svgEl.dataset.areaMode = this.mode;
    this.listen(svgEl, "pointerdown", (e) => this.down(e));
    this.listen(svgEl, "keydown", (e) => this.key(e));
    const middle = this.board.middleSquare() || [0, 0];
    this.from = middle;
    this.to = [...middle];
    this.draw();
  }

  removeHooks() {
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
    if (!this.board.scene || e.button > 0) return;
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
    this.listen(svgEl, "pointermove", move);
    this.listen(svgEl, "pointerup", up);
    this.listen(svgEl, "pointercancel", up);
  }

  /** Keys on the focused map: handled ones are prevented, so the board's
   *  own (Escape drops the selection) leave them be. */
  key(e) {
    if (e.target !== this.board.svg) return;
    if (e.key === "Escape") {
      e.preventDefault();
      this.stop();
      return;
    }
    if (e.key === "Enter") {
      e.preventDefault();
      this.take();
      return;
    }
    const step = STEPS[e.key];
    if (!step || !this.board.scene) return;
    e.preventDefault();
    const { width, height } = this.board.scene;
    const moved = [
      Math.max(0, Math.min(width - 1, this.to[0] + step[0])),
      Math.max(0, Math.min(height - 1, this.to[1] + step[1])),
    ];
    this.to = moved;
    if (!e.shiftKey) this.from = [...moved];
    this.draw();
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
