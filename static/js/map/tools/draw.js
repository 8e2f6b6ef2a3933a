// Drawing on the map: a pen's freehand stroke, a line, an arrow, a
// rectangle or an ellipse dragged from corner to corner, a text placed with
// a press; Select drags a drawing to move it, Erase takes away each drawing
// it is pressed or dragged over. One finger, a mouse or a pen draws; two
// fingers still pinch and pan (./pan_zoom.js's Pinch).
//
// The tool takes the pointer (board.use): panning, token dragging and
// doors are off while it is on. It draws its own stroke at once as a
// preview (../drawings.js) and hands the room (room/drawing.js) what to
// send: what the stroke gained at most every PREVIEW_EVERY_MS while it is drawn,
// the finished stroke, a move, an erase. What the member may change is the
// room's answer (options.mayChange), from the served capabilities.
//
// Keys on the focused map: Enter places a text mid-view (Text); N and
// Shift+N select the next or last drawing the member may change, Delete
// erases the selected one and arrows move it a square (Select);
// Ctrl+Z undoes the member's last stroke, Escape lets go of a stroke or
// the selection, and with neither ends drawing.

import { Handler } from "../handler.js";
import { Pinch } from "./pan_zoom.js";
import { strokeKey } from "../drawings.js";

// Under the server's 20 intents a second for a socket (vtt/live/limits.py),
// so the finished stroke and the rest of the page's intents still get in.
export const PREVIEW_EVERY_MS = 70;
export const MAX_POINTS = 2000;
const MIN_SIZE = 0.1; // a line or a box shorter than this (squares) is a slip
const MIN_STEP_PX = 2; // a pen's points at least this far apart on screen
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

const round = (v) => Math.round(v * 100) / 100;
let strokes = 0;
const newStroke = () => `${Date.now().toString(36)}-${++strokes}`;

export class DrawTool extends Handler {
  /** options: style() -> {mode, color, width, layer}; onStroke(stroke),
   *  onFinish(stroke), onText(point), onMove(id, dx, dy), onErase(id),
   *  onUndo(), onDone(), onSelect(drawing|null), mayChange(drawing). */
  constructor(board, drawings, options) {
    super();
    this.board = board;
    this.drawings = drawings;
    this.options = options;
    this.pinch = new Pinch(board.view);
    this.fingers = new Set();
    this.stroke = null; // the stroke being drawn: {pointer, stroke, shape, ..., points}
    this.drag = null; // a drawing being moved: {pointer, id, from, dx, dy}
    this.erasing = null; // the pointer that erases while it is down
    this.sent = 0; // when the last preview went
    this.due = null; // the timer of the preview waiting its turn
  }

  addHooks() {
    const box = this.board.view.box;
    this.board.svg.classList.add("draw-mode");
    this.follow();
    this.pinch.enable();
    this.listen(box, "pointerdown", (e) => this.down(e), { capture: true });
    this.listen(box, "pointermove", (e) => this.move(e));
    this.listen(box, "pointerup", (e) => this.up(e));
    this.listen(box, "pointercancel", (e) => this.up(e, true));
    this.listen(this.board.svg, "keydown", (e) => this.key(e));
  }

  removeHooks() {
    this.pinch.disable();
    this.giveUp();
    this.fingers.clear();
    this.select(null);
    this.board.svg.classList.remove("draw-mode", "draw-select", "draw-erase");
  }

  get mode() {
    return this.options.style().mode;
  }

  /** The map's look follows the mode chosen (a select or erase press
   *  finds drawings; a shape press goes through them). */
  follow() {
    const svgEl = this.board.svg;
    svgEl.classList.toggle("draw-select", this.mode === "select");
    svgEl.classList.toggle("draw-erase", this.mode === "erase");
    if (this.mode !== "select") this.select(null);
  }

  /** The point under a pointer, in squares, kept on the map. */
  point(e) {
    const scene = this.board.scene;
    const [x, y] = this.board.view.toGrid(e.clientX, e.clientY);
    return [round(Math.max(0, Math.min(scene.width, x))), round(Math.max(0, Math.min(scene.height, y)))];
  }

  down(e) {
    if (!this.board.scene || !this.board.view.mine(e)) return;
    if (e.pointerType === "touch") {
      this.fingers.add(e.pointerId);
      if (this.fingers.size > 1) {
        this.giveUp(); // a second finger: a pinch, not a stroke
        return;
      }
    }
    // Alt+click and an armed ping's press are the ping tool's (it listens
    // first, and marks the press it took).
    if (e.button !== 0 || e.altKey || e.defaultPrevented) return;
    e.preventDefault(); // not a long-press ping, not a text selection
    this.board.view.box.setPointerCapture?.(e.pointerId);
    const at = this.point(e);
    const { mode, color, width, layer } = this.options.style();
    if (mode === "text") this.options.onText(at);
    else if (mode === "select") this.pick(e, at);
    else if (mode === "erase") {
      this.erasing = e.pointerId;
      this.eraseAt(e);
    } else {
      // `previewed`: how many of a pen's points the previews have carried.
      this.stroke = { pointer: e.pointerId, stroke: newStroke(), shape: mode, layer, color, width, points: [at, at], previewed: 0 };
      if (mode === "pen") this.stroke.points = [at];
      this.show();
    }
  }

  move(e) {
    if (this.stroke?.pointer === e.pointerId) this.extend(e);
    else if (this.drag?.pointer === e.pointerId) this.dragTo(this.point(e));
    else if (this.erasing === e.pointerId) this.eraseAt(e);
  }

  up(e, cancelled = false) {
    this.fingers.delete(e.pointerId);
    if (this.stroke?.pointer === e.pointerId) {
      if (cancelled) this.giveUp();
      else this.finish();
    } else if (this.drag?.pointer === e.pointerId) this.drop(cancelled);
    else if (this.erasing === e.pointerId) this.erasing = null;
  }

  // ---- strokes

  extend(e) {
    const stroke = this.stroke;
    const at = this.point(e);
    if (stroke.shape !== "pen") stroke.points[1] = at;
    else {
      const last = stroke.points[stroke.points.length - 1];
      const apart = Math.hypot(at[0] - last[0], at[1] - last[1]) * this.board.view.scale;
      if (apart < MIN_STEP_PX || stroke.points.length >= MAX_POINTS) return;
      stroke.points.push(at);
    }
    this.show();
  }

  /** Draw the stroke here, and send it on, at most every PREVIEW_EVERY_MS. */
  show() {
    const stroke = this.stroke;
    this.drawings.preview(this.keyOf(stroke), stroke);
    if (!this.drawn(stroke)) return;
    if (this.due) return;
    const wait = this.sent + PREVIEW_EVERY_MS - performance.now();
    if (wait <= 0) this.sendPreview();
    else this.due = setTimeout(() => this.sendPreview(), wait);
  }

  /** A pen's preview carries only the points since the last one, from
   *  their index in the stroke: a long stroke is not sent whole again
   *  every PREVIEW_EVERY_MS. A line's or a box's two points go whole. */
  sendPreview() {
    this.due = null;
    const stroke = this.stroke;
    if (!stroke) return;
    const from = stroke.shape === "pen" ? stroke.previewed : 0;
    if (from >= stroke.points.length) return;
    this.sent = performance.now();
    stroke.previewed = stroke.points.length;
    this.options.onStroke({ ...this.wire(stroke, from), from });
  }

  /** The preview's key: the stored drawing's `drawing.added` names it. */
  keyOf(stroke) {
    return strokeKey(this.board.options.me?.id, stroke.stroke);
  }

  /** Whether the stroke is something yet (not a click). */
  drawn(stroke) {
    const [a, b] = [stroke.points[0], stroke.points[stroke.points.length - 1]];
    if (stroke.shape === "pen") return stroke.points.length >= 2;
    return Math.hypot(b[0] - a[0], b[1] - a[1]) >= MIN_SIZE;
  }

  wire({ stroke, shape, layer, color, width, points }, from = 0) {
    return { stroke, shape, layer, color, width, points: points.slice(from).map((p) => [...p]) };
  }

  finish() {
    const stroke = this.stroke;
    this.stroke = null;
    clearTimeout(this.due);
    this.due = null;
    if (!this.drawn(stroke)) {
      this.drawings.dropPreview(this.keyOf(stroke));
      return;
    }
    // The preview stays until the stored drawing replaces it (or a refusal).
    this.options.onFinish(this.wire(stroke));
  }

  /** Let go of a stroke or a move half done: nothing is sent. */
  giveUp() {
    clearTimeout(this.due);
    this.due = null;
    if (this.stroke) this.drawings.dropPreview(this.keyOf(this.stroke));
    this.stroke = null;
    if (this.drag) this.drawings.nudge(this.drag.id, 0, 0);
    this.drag = null;
    this.erasing = null;
  }

  // ---- select and move, erase

  changeable(id) {
    const drawing = this.drawings.stored.get(id);
    return drawing && this.options.mayChange(drawing) ? drawing : null;
  }

  select(id) {
    if (this.drawings.selected === id) return;
    this.drawings.select(id);
    this.options.onSelect?.(id === null ? null : this.drawings.stored.get(id) || null);
  }

  pick(e, at) {
    const id = this.drawings.idAt(e.target);
    if (id === null || !this.changeable(id)) {
      this.select(null);
      return;
    }
    this.select(id);
    this.drag = { pointer: e.pointerId, id, from: at, dx: 0, dy: 0 };
  }

  /** How far a drawing may go by (dx, dy) and stay on the map. */
  kept(id, dx, dy) {
    const drawing = this.drawings.stored.get(id);
    const scene = this.board.scene;
    const xs = drawing.points.map((p) => p[0]);
    const ys = drawing.points.map((p) => p[1]);
    const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
    return [
      round(clamp(dx, -Math.min(...xs), scene.width - Math.max(...xs))),
      round(clamp(dy, -Math.min(...ys), scene.height - Math.max(...ys))),
    ];
  }

  dragTo(at) {
    const drag = this.drag;
    [drag.dx, drag.dy] = this.kept(drag.id, at[0] - drag.from[0], at[1] - drag.from[1]);
    this.drawings.nudge(drag.id, drag.dx, drag.dy);
  }

  drop(cancelled) {
    const { id, dx, dy } = this.drag;
    this.drag = null;
    if (cancelled || (!dx && !dy)) {
      this.drawings.nudge(id, 0, 0);
      return;
    }
    // Shown where it was let go until the moved drawing comes back.
    this.options.onMove(id, dx, dy);
  }

  eraseAt(e) {
    // A captured pointer's target is the box: ask what is under it.
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const id = this.drawings.idAt(under);
    if (id !== null && this.changeable(id)) this.options.onErase(id);
  }

  // ---- keys

  key(e) {
    if (e.target !== this.board.svg || e.altKey) return;
    const mode = this.mode;
    const selected = this.drawings.selected;
    let took = true;
    if ((e.ctrlKey || e.metaKey) && (e.key === "z" || e.key === "Z")) this.options.onUndo();
    else if (e.ctrlKey || e.metaKey) took = false;
    else if (e.key === "Escape" && (this.stroke || this.drag)) this.giveUp();
    else if (e.key === "Escape" && selected !== null) this.select(null);
    else if (e.key === "Escape") this.options.onDone?.();
    else if (e.key === "Enter" && mode === "text") this.options.onText(this.middle());
    else if ((e.key === "n" || e.key === "N") && mode === "select") this.cycle(e.shiftKey ? -1 : 1);
    else if ((e.key === "Delete" || e.key === "Backspace") && selected !== null) this.options.onErase(selected);
    else if (ARROWS[e.key] && mode === "select" && selected !== null) {
      const [dx, dy] = this.kept(selected, ...ARROWS[e.key]);
      if (dx || dy) this.options.onMove(selected, dx, dy);
    } else took = false;
    if (took) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  /** Select the next (or, by -1, the one before) of the drawings the
   *  member may change, in the order they were drawn: the keyboard's way
   *  to a drawing. */
  cycle(by) {
    const ids = [...this.drawings.stored.keys()].filter((id) => this.changeable(id)).sort((a, b) => a - b);
    if (!ids.length) return;
    const at = ids.indexOf(this.drawings.selected);
    const next = at < 0 ? (by > 0 ? 0 : ids.length - 1) : (at + by + ids.length) % ids.length;
    this.select(ids[next]);
  }

  middle() {
    const box = this.board.view.screenBox();
    return this.point({ clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 });
  }
}
