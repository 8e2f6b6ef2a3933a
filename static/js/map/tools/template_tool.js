// Placing an area template: press on the map to put it down, drag to
// move a burst or a square, or to turn a cone or a line from where it was
// put down; it snaps to the grid's intersections and to whole degrees
// (Shift: to 15°). From the keyboard on the focused map: arrows move it,
// "," and "." turn it by 15°, Enter places it, Escape leaves the tool.
// While it is being placed the tokens inside are ringed, and told through
// onChange(template, tokens) so the page lists them; onPlace(template)
// sends it. Nothing is placed until then.
//
// A handler (../handler.js): start(spec) has the board use it (the plain
// map's pan, drag and doors are off meanwhile); disabled by any means, it
// clears its drawing and says so through onEnd.

import { Handler } from "../handler.js";
import { TURNING } from "../template_shapes.js";

const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
const TURN_STEP = 15;

export class TemplateTool extends Handler {
  constructor(board, layer, { onChange, onPlace, onEnd }) {
    super();
    this.board = board;
    this.layer = layer; // ../template_layer.js
    this.onChange = onChange;
    this.onPlace = onPlace;
    this.onEnd = onEnd;
    this.spec = null; // {shape, size, label, gm_only}
    this.at = null; // [x, y]: the intersection it stands on
    this.angle = 0;
  }

  start(spec) {
    this.spec = { ...spec };
    this.board.use(this);
  }

  stop() {
    if (this.enabled) this.board.use(null);
  }

  /** The picker changed the shape, size or words: redrawn where it is. */
  setSpec(spec) {
    this.spec = { ...spec };
    if (this.enabled) this.update();
  }

  addHooks() {
    const svgEl = this.board.svg;
    svgEl.classList.add("template-mode");
    this.listen(svgEl, "pointerdown", (e) => this.down(e));
    this.listen(svgEl, "keydown", (e) => this.key(e));
    const middle = this.board.middleSquare() || [0, 0];
    this.at = this.clamp(middle);
    this.update();
  }

  removeHooks() {
    this.board.svg.classList.remove("template-mode");
    this.layer.show(null);
    this.at = null;
    this.onEnd?.();
  }

  /** The template as it stands now, as the server takes it. */
  template() {
    if (!this.spec || !this.at) return null;
    const { shape, size, label, gm_only } = this.spec;
    return { shape, size, label: label || "", gm_only: !!gm_only, x: this.at[0], y: this.at[1], angle: TURNING.includes(shape) ? this.angle : 0 };
  }

  clamp([x, y]) {
    const scene = this.board.scene;
    if (!scene) return [Math.max(0, x), Math.max(0, y)];
    return [Math.max(0, Math.min(scene.width, x)), Math.max(0, Math.min(scene.height, y))];
  }

  /** The intersection a pointer puts it on: a square is held by its middle. */
  snap(e) {
    const [gx, gy] = this.board.view.toGrid(e.clientX, e.clientY);
    const half = this.spec.shape === "square" ? this.spec.size / 2 : 0;
    return this.clamp([Math.round(gx - half), Math.round(gy - half)]);
  }

  turnTo(e, snapTo) {
    const [gx, gy] = this.board.view.toGrid(e.clientX, e.clientY);
    const [dx, dy] = [gx - this.at[0], gy - this.at[1]];
    if (Math.hypot(dx, dy) < 0.3) return; // too near its corner to say which way
    const degrees = (Math.atan2(dy, dx) * 180) / Math.PI;
    this.angle = (((Math.round(degrees / snapTo) * snapTo) % 360) + 360) % 360;
  }

  down(e) {
    if (e.defaultPrevented || e.button > 0) return;
    e.preventDefault();
    this.board.svg.focus({ preventScroll: true });
    const turning = TURNING.includes(this.spec.shape);
    this.at = this.snap(e);
    this.update();
    const svgEl = this.board.svg;
    svgEl.setPointerCapture?.(e.pointerId);
    const move = (ev) => {
      if (turning) this.turnTo(ev, ev.shiftKey ? TURN_STEP : 1);
      else this.at = this.snap(ev);
      this.update();
    };
    const up = () => {
      svgEl.removeEventListener("pointermove", move);
      svgEl.removeEventListener("pointerup", up);
    };
    this.listen(svgEl, "pointermove", move);
    this.listen(svgEl, "pointerup", up);
  }

  key(e) {
    if (e.target !== this.board.svg) return;
    if (e.key === "Escape") {
      e.preventDefault();
      this.stop();
      return;
    }
    if (e.key === "Enter") {
      e.preventDefault();
      this.place();
      return;
    }
    if (e.key === "," || e.key === ".") {
      e.preventDefault();
      this.angle = (this.angle + (e.key === "." ? TURN_STEP : 360 - TURN_STEP)) % 360;
      this.update();
      return;
    }
    const step = STEPS[e.key];
    if (!step || !this.at) return;
    e.preventDefault();
    this.at = this.clamp([this.at[0] + step[0], this.at[1] + step[1]]);
    this.update();
  }

  place() {
    const template = this.template();
    if (template) this.onPlace?.(template);
  }

  /** Drawn again: the picker changed it, or tokens came, went or moved. */
  update() {
    const template = this.template();
    if (!template) return;
    this.layer.show(template);
    this.onChange?.(template, this.layer.held(template));
  }
}
