// The GM's Light tool (the editing mode's "Light"): a click on the map
// places a light at the centre of that square (onPlace); a press on a
// light's sun selects it and a drag moves it (onMove when let go, to the
// centre of the square it was left on). From the keyboard: Enter on the
// focused map places a light in the middle of the view; on a focused sun,
// arrows move it a square, Delete removes it (onRemove); Escape leaves the
// tool. Who may do this is the server's to decide.

import { Handler } from "../handler.js";

const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function markOf(target) {
  const node = target.closest?.(".light-mark[data-light]");
  return node ? Number(node.dataset.light) : null;
}

export class LightTool extends Handler {
  constructor(board, marks, options) {
    super();
    this.board = board;
    this.marks = marks;
    // lightOf(id), onSelect(id|null), onPlace([x, y]), onMove(id, [x, y]), onRemove(id), onEnd()
    this.options = options;
  }

  addHooks() {
    const svgEl = this.board.svg;
    svgEl.classList.add("light-mode");
    this.listen(svgEl, "pointerdown", (e) => this.down(e));
    this.listen(svgEl, "keydown", (e) => this.key(e));
  }

  removeHooks() {
    this.board.svg.classList.remove("light-mode");
    this.options.onEnd?.();
  }

  /** The centre of the square under a pointer, kept on the map. */
  centre(clientX, clientY) {
    const [gx, gy] = this.board.view.toGrid(clientX, clientY);
    const { width, height } = this.board.scene;
    const x = Math.max(0, Math.min(width - 1, Math.floor(gx)));
    const y = Math.max(0, Math.min(height - 1, Math.floor(gy)));
    return [x + 0.5, y + 0.5];
  }

  down(e) {
    if (!this.board.scene || e.button > 0) return;
    e.preventDefault();
    const id = markOf(e.target);
    if (id === null) {
      const at = this.centre(e.clientX, e.clientY);
      // A click, not the start of a drag: placed when let go in place.
      const up = (ev) => {
        const there = this.centre(ev.clientX, ev.clientY);
        if (ev.type === "pointerup" && there[0] === at[0] && there[1] === at[1]) this.options.onPlace(at);
      };
      this.listen(this.board.svg, "pointerup", up, { once: true });
      return;
    }
    this.options.onSelect(id);
    const svgEl = this.board.svg;
    svgEl.setPointerCapture?.(e.pointerId);
    let to = null;
    const move = (ev) => {
      to = this.centre(ev.clientX, ev.clientY);
      this.marks.moveTo(id, ...to);
    };
    const up = (ev) => {
      svgEl.removeEventListener("pointermove", move);
      svgEl.removeEventListener("pointerup", up);
      svgEl.removeEventListener("pointercancel", up);
      const light = this.options.lightOf(id);
      if (ev.type === "pointerup" && to && light && (to[0] !== light.x || to[1] !== light.y)) this.options.onMove(id, to);
      else if (light) this.marks.moveTo(id, light.x, light.y);
      this.marks.focus(id);
    };
    this.listen(svgEl, "pointermove", move);
    this.listen(svgEl, "pointerup", up);
    this.listen(svgEl, "pointercancel", up);
  }

  key(e) {
    if (e.defaultPrevented) return;
    const id = markOf(e.target);
    if (e.key === "Escape") {
      e.preventDefault();
      this.board.use(null);
      return;
    }
    if (id === null) {
      if (e.target === this.board.svg && e.key === "Enter" && this.board.scene) {
        e.preventDefault();
        const [x, y] = this.board.middleSquare();
        this.options.onPlace([x + 0.5, y + 0.5]);
      }
      return;
    }
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.options.onSelect(id);
    } else if (e.key === "Delete" || e.key === "Backspace") {
      e.preventDefault();
      this.options.onRemove(id);
    } else if (STEPS[e.key]) {
      e.preventDefault();
      const light = this.options.lightOf(id);
      if (!light) return;
      const { width, height } = this.board.scene;
      const x = Math.max(0.5, Math.min(width - 0.5, light.x + STEPS[e.key][0]));
      const y = Math.max(0.5, Math.min(height - 0.5, light.y + STEPS[e.key][1]));
      this.options.onSelect(id);
      this.options.onMove(id, [x, y]);
    }
  }
}
