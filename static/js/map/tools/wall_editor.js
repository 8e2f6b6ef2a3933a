// The wall editor, a map tool. Walls, doors and windows are drawn click to
// click: each click lands on the nearest grid corner and adds a segment
// from the last one, so a room is traced corner by corner without holding
// a button; a double-click, a right click, Escape or the same corner again
// ends the chain (closing it on its first corner does too), and a drag
// draws one segment. A door is one segment, so its chain ends by itself.
// From the keyboard the arrows move the corner and Enter takes it.
// The Select tool picks a segment (a click near it, or the arrow keys) to
// change its kind, delete it (Delete) or move its ends: drag an end to
// another corner, or from the keyboard hold one (E takes the other) and
// move it with Shift+arrows. Ctrl+Z undoes.
//
// It only ever edits the walls' lines (../wall_lines.js), whoever keeps
// them: the GM page's text area, or the room's scene. The page around it
// shows its state (onDraw: the tool, the chain, the corner under the
// pointer, the selected segment) and turns it into words with hintFor().

import { svg } from "../../lib/dom.js";
import { Handler } from "../handler.js";
import { writeLine } from "../wall_text.js";
import { clamp, distanceToSegment, same, sameEnds, segmentNode } from "../wall_shapes.js";

// The hints say what a mouse does, or on a touch screen what a finger does.
const HINTS = {
  select: "Click a segment to select it, or step through them with the arrow keys; drag an end to move it.",
  wall: "Click a grid corner, then the next, and the next (or arrows and Enter). Double-click or Escape ends the chain; a drag draws one wall.",
  window: "Click corner to corner along the window (or arrows and Enter). Double-click or Escape ends it.",
  door: "Click the two ends of the door (or arrows and Enter), or drag from one to the other.",
  chain: "click the next corner. Double-click, Escape or the same corner again ends it.",
};
const TOUCH_HINTS = {
  select: "Tap a segment to select it; drag an end to move it.",
  wall: "Tap a grid corner, then the next, and the next; the last corner again ends the chain. Two fingers zoom.",
  window: "Tap corner to corner along the window; the last corner again ends it.",
  door: "Tap the two ends of the door.",
  chain: "tap the next corner, or the same one again to end.",
};
const DRAWING = { wall: "walls", window: "a window", door: "a door" };
const HIT = 0.4; // squares from a segment that still select it
const END_HIT = 0.45; // squares from a selected segment's end that take the end
const MOVES = { ArrowRight: [1, 0], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowUp: [0, -1] };
const DRAG_PX = 6; // a press that moves less than this is a click
const STEPS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** What to tell the GM now: the tool's hint, or where the chain is. */
export function hintFor({ tool, chain }, touch = false) {
  const hints = touch ? TOUCH_HINTS : HINTS;
  if (!chain) return hints[tool];
  const [x, y] = chain.anchor;
  return `Drawing ${DRAWING[tool === "select" ? "wall" : tool]} from (${x}, ${y}): ${hints.chain}`;
}

/** The corner under the pointer, and the length drawn to it. */
export function readoutFor({ chain, hover }) {
  if (!hover) return "";
  if (!chain || same(hover, chain.anchor)) return `(${hover.join(", ")})`;
  const length = Math.hypot(hover[0] - chain.anchor[0], hover[1] - chain.anchor[1]);
  return `(${hover.join(", ")}) · ${Number(length.toFixed(1))} sq`;
}

export class WallEditor extends Handler {
  constructor({ surface, segmentsLayer, draftLayer, lines, size, toPoint, onDraw, ownsEscape = () => true }) {
    super();
    this.surface = surface; // what takes the pointer and the keys
    this.segmentsLayer = segmentsLayer;
    this.draftLayer = draftLayer;
    this.lines = lines;
    this.size = size; // () => {width, height} in squares
    this.toPoint = toPoint; // (pointer event) => [x, y] in squares
    this.onDraw = onDraw;
    this.ownsEscape = ownsEscape; // (key event) => whether Escape there is the editor's
    this.tool = "wall";
    this.chain = null; // {start, anchor} while a chain is being drawn
    this.press = null; // {at, x, y} of the button held down
    this.hover = null; // the corner under the pointer
    this.selected = -1; // the line of the selected segment
    this.held = 0; // which end of it the keyboard moves (0: the first)
    this.moving = null; // {end, to} while an end is dragged
    this.drawn = null; // the text the segments layer was drawn from
  }

  addHooks() {
    const on = (type, fn) => this.listen(this.surface, type, fn);
    on("pointerdown", (e) => this.down(e));
    on("pointermove", (e) => (this.moving ? this.moveTo(this.corner(e)) : this.hoverAt(this.corner(e))));
    on("pointerup", (e) => this.up(e));
    on("pointercancel", () => {
      this.press = null;
      if (this.moving) this.dropEnd(false);
    });
    on("pointerleave", (e) => {
      if (e.pointerType === "mouse" && !this.press) this.hoverAt(null);
    });
    on("dblclick", (e) => {
      e.preventDefault();
      if (this.chain) this.endChain();
    });
    on("contextmenu", (e) => {
      if (!this.chain) return;
      e.preventDefault(); // a right click ends the chain, as Escape does
      this.endChain();
    });
    on("keydown", (e) => this.key(e));
    // Escape ends a chain (or drops the selection) wherever the focus is.
    this.listen(document, "keydown", (e) => {
      if (e.key !== "Escape" || !this.ownsEscape(e)) return;
      if (this.chain) this.endChain();
      else if (this.selected >= 0) this.select(-1);
      else return;
      e.preventDefault();
    });
    this.setTool(this.tool);
  }

  removeHooks() {
    this.chain = this.press = this.hover = this.moving = null;
    this.selected = -1;
    this.drawn = null;
    this.surface.classList.remove("selecting");
    this.segmentsLayer.replaceChildren();
    this.draftLayer.replaceChildren();
  }

  // ---- what the page asks

  setTool(next) {
    this.tool = next;
    this.surface.classList.toggle("selecting", next === "select");
    this.endChain();
  }

  select(i) {
    if (i !== this.selected) this.held = 0;
    this.selected = this.lines.segmentAt(i) ? i : -1;
    this.draw();
  }

  /** One end of the selected segment to another corner (0 the first, 1 the
   *  second); a segment of no length is not made. */
  moveEnd(end, to) {
    const current = this.lines.segmentAt(this.selected);
    if (!current) return false;
    const ends = [...current.ends];
    ends.splice(end * 2, 2, ...to);
    if (same(ends.slice(0, 2), ends.slice(2)) || sameEnds(ends, current.ends)) return false;
    this.lines.setLine(this.selected, writeLine({ ...current, ends }));
    this.draw();
    return true;
  }

  /** The selected segment becomes another kind. */
  setKind(kind) {
    const current = this.lines.segmentAt(this.selected);
    if (current) this.lines.setLine(this.selected, writeLine({ ...current, kind }));
    this.draw();
  }

  deleteSelected() {
    if (this.selected < 0) return;
    this.lines.setLine(this.selected, null);
    this.select(-1);
  }

  undo() {
    if (!this.lines.undo()) return;
    this.chain = null;
    this.select(-1);
  }

  // ---- drawing

  kind() {
    return this.tool === "select" ? "wall" : this.tool;
  }

  draw() {
    if (!this.enabled) return;
    const current = this.lines.segmentAt(this.selected);
    if (!current) this.selected = -1;
    const text = this.lines.text();
    if (this.drawn !== text) {
      this.segmentsLayer.replaceChildren(...this.lines.segments().map((s) => segmentNode(s)));
      this.drawn = text;
    }
    const drafts = [];
    if (current) {
      const ends = [...current.ends];
      if (this.moving) ends.splice(this.moving.end * 2, 2, ...this.moving.to);
      const [x1, y1, x2, y2] = ends;
      const end = (i, cx, cy) => svg("circle", { class: `wall-end${i === this.held ? " held" : ""}`, cx, cy, r: 0.2 });
      drafts.push(
        svg("line", { class: "wall-halo", x1, y1, x2, y2 }),
        segmentNode({ ...current, ends }, this.moving ? "chosen wall-draft" : "chosen"),
        end(0, x1, y1),
        end(1, x2, y2),
      );
    }
    const { chain, hover } = this;
    if (chain) {
      if (hover && !same(hover, chain.anchor)) {
        drafts.push(segmentNode({ ends: [...chain.anchor, ...hover], kind: this.kind() }, "wall-draft"));
      }
      drafts.push(svg("circle", { class: "wall-anchor", cx: chain.anchor[0], cy: chain.anchor[1], r: 0.16 }));
    }
    if (hover && this.tool !== "select") drafts.push(svg("circle", { class: "wall-corner", cx: hover[0], cy: hover[1], r: 0.22 }));
    this.draftLayer.replaceChildren(...drafts);
    this.onDraw?.({ tool: this.tool, chain, hover, selected: this.selected, current });
  }

  // ---- chains, clicks and drags

  endChain() {
    this.chain = null;
    this.draw();
  }

  clickAt(at) {
    const chain = this.chain;
    if (!chain) {
      this.chain = { start: at, anchor: at };
    } else if (same(at, chain.anchor)) {
      this.chain = null; // the same corner twice (or a double-click): done
    } else {
      this.lines.add(chain.anchor, at, this.kind());
      const closed = same(at, chain.start);
      this.chain = this.tool === "door" || closed ? null : { ...chain, anchor: at };
    }
    this.draw();
  }

  corner(e) {
    const [x, y] = this.toPoint(e);
    const { width, height } = this.size();
    return [clamp(Math.round(x), 0, width), clamp(Math.round(y), 0, height)];
  }

  /** The line of the segment nearest the pointer, within HIT squares, or -1. */
  nearest(e) {
    const [x, y] = this.toPoint(e);
    let best = -1;
    let bestDistance = HIT;
    for (const s of this.lines.segments()) {
      const d = distanceToSegment(x, y, s.ends);
      if (d <= bestDistance) [best, bestDistance] = [s.line, d];
    }
    return best;
  }

  hoverAt(at) {
    if (at && this.hover && same(at, this.hover)) return;
    if (!at && !this.hover) return;
    this.hover = at;
    this.draw();
  }

  down(e) {
    if (e.button !== 0) return;
    // The press also focuses the map (its tabindex), for Delete and the arrows.
    if (this.tool === "select") {
      // An end of the selected segment, or of the one pressed, is taken to drag.
      if (this.endAt(e) < 0) this.select(this.nearest(e));
      const end = this.endAt(e);
      if (end >= 0) {
        this.held = end;
        this.moving = { end, to: this.corner(e) };
        this.surface.setPointerCapture?.(e.pointerId);
        this.draw();
      }
      return;
    }
    this.selected = -1;
    const at = this.corner(e);
    this.press = { at, x: e.clientX, y: e.clientY };
    this.surface.setPointerCapture?.(e.pointerId);
    this.hover = at;
    this.clickAt(at);
  }

  /** Which end of the selected segment is under the pointer: 0, 1, or -1. */
  endAt(e) {
    const current = this.lines.segmentAt(this.selected);
    if (!current) return -1;
    const [x, y] = this.toPoint(e);
    const [x1, y1, x2, y2] = current.ends;
    const d1 = Math.hypot(x - x1, y - y1);
    const d2 = Math.hypot(x - x2, y - y2);
    if (Math.min(d1, d2) > END_HIT) return -1;
    return d1 <= d2 ? 0 : 1;
  }

  moveTo(at) {
    if (same(at, this.moving.to)) return;
    this.moving.to = at;
    this.draw();
  }

  /** The dragged end let go: moved there (keep) or back where it was. */
  dropEnd(keep) {
    const { end, to } = this.moving;
    this.moving = null;
    if (!keep || !this.moveEnd(end, to)) this.draw();
  }

  up(e) {
    if (this.moving) {
      this.moveTo(this.corner(e));
      this.dropEnd(true);
      return;
    }
    const press = this.press;
    if (!press) return;
    const at = this.corner(e);
    const dragged = Math.hypot(e.clientX - press.x, e.clientY - press.y) > DRAG_PX;
    if (dragged && !same(at, press.at)) {
      this.lines.add(press.at, at, this.kind());
      this.endChain();
    }
    this.press = null;
  }

  key(e) {
    if (!this.surface.contains(e.target)) return;
    const all = this.lines.segments().map((s) => s.line);
    const current = this.lines.segmentAt(this.selected);
    if ((e.key === "Delete" || e.key === "Backspace") && this.selected >= 0) {
      this.deleteSelected();
    } else if (current && e.shiftKey && MOVES[e.key]) {
      const [x, y] = current.ends.slice(this.held * 2, this.held * 2 + 2);
      const { width, height } = this.size();
      const [dx, dy] = MOVES[e.key];
      this.moveEnd(this.held, [clamp(x + dx, 0, width), clamp(y + dy, 0, height)]);
    } else if (current && (e.key === "e" || e.key === "E") && !e.ctrlKey && !e.metaKey) {
      this.held = 1 - this.held;
      this.draw();
    } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") {
      this.undo();
    } else if (this.tool !== "select" && MOVES[e.key] && !e.altKey) {
      // Drawing from the keyboard: the arrows move the corner (Shift: five
      // squares), Enter or Space takes it as a click would.
      const { width, height } = this.size();
      const from = this.hover || this.chain?.anchor || [Math.round(width / 2), Math.round(height / 2)];
      const [dx, dy] = MOVES[e.key].map((d) => d * (e.shiftKey ? 5 : 1));
      this.hoverAt([clamp(from[0] + dx, 0, width), clamp(from[1] + dy, 0, height)]);
    } else if (this.tool !== "select" && (e.key === "Enter" || e.key === " ") && this.hover) {
      this.clickAt(this.hover);
    } else if (STEPS[e.key] && all.length) {
      const step = STEPS[e.key];
      const at = all.indexOf(this.selected);
      this.select(all[at < 0 ? (step > 0 ? 0 : all.length - 1) : (at + step + all.length) % all.length]);
    } else return;
    e.preventDefault();
  }
}
