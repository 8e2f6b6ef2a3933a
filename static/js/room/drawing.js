// Drawing on the room's map (docs/web.md, "Drawing"): the Draw button gives
// the map's pointer to the draw tool (../map/tools/draw.js) and shows the
// drawing bar: what to draw (pen, line, arrow, rectangle, ellipse, text) or
// Select and move, Erase; a colour of PALETTE; a width; for the GM, who
// sees it (everyone, or "GM only": the GM-only layer); Undo (the member's own last
// drawing), the GM's Clear all, and Done.
//
// The wire is docs/protocol.md's "Drawings": while a stroke is drawn its
// points so far go as `drawing.stroke` previews, which others see at once;
// the finished stroke is `drawing.add`, stored and sent back to everyone
// who may see it as a `drawing.added` event; then `drawing.move`,
// `drawing.remove`, `drawing.clear`. What the events do to the room is
// ./state.js's; this draws the effects (../map/drawings.js). Who may draw,
// use the GM layer and change whose drawings is the served `may`.

import { el } from "../lib/dom.js";
import { getJSON } from "../lib/api.js";
import { describeError } from "../lib/errors.js";
import { strokeKey } from "../map/drawings.js";
import { DrawTool } from "../map/tools/draw.js";
import { drawingWords } from "../map/drawing_shapes.js";

const $ = (id) => document.getElementById(id);

export const PALETTE = [
  ["#e53935", "Red"],
  ["#fb8c00", "Orange"],
  ["#fdd835", "Yellow"],
  ["#43a047", "Green"],
  ["#1e88e5", "Blue"],
  ["#8e24aa", "Purple"],
  ["#ffffff", "White"],
  ["#212121", "Black"],
];
const MAX_TEXT = 200;

const HINTS = {
  pen: "Draw: drag on the map to draw freehand.",
  line: "Line: drag from one end to the other.",
  arrow: "Arrow: drag from its tail to its point.",
  rect: "Rectangle: drag from corner to corner.",
  ellipse: "Ellipse: drag across its box, corner to corner.",
  text: "Text: press the map where the text goes (Enter: mid-view), type it, Enter.",
  select: "Select: press a drawing of yours and drag it (or N picks one on the focused map); arrows move it, Delete takes it away.",
  erase: "Erase: press or drag over your drawings to take them away.",
};

export class Drawing {
  constructor({ board, socket, may, me, status, api }) {
    Object.assign(this, { board, socket, may, me, status, api }); // api: a scene's REST root
    this.layer = board.drawings;
    this.button = $("tool-draw");
    this.bar = $("draw-bar");
    this.width = $("draw-width");
    this.gmOnly = $("draw-gm");
    this.deleteButton = $("draw-delete");
    this.clearButton = $("draw-clear");
    this.typing = null; // the text box open on the map, or null
    this.tool = new DrawTool(board, this.layer, {
      style: () => this.style(),
      onStroke: (stroke) => this.preview(stroke),
      onFinish: (stroke) => this.add(stroke),
      onText: (point) => this.askText(point),
      onMove: (id, dx, dy) => this.move(id, dx, dy),
      onErase: (id) => this.remove(id),
      onUndo: () => this.undo(),
      onDone: () => this.stop(),
      onSelect: (drawing) => this.selected(drawing),
      mayChange: (drawing) => may.changesDrawing(drawing),
    });
    this.colours();
    $("draw-gm-label").hidden = !may.drawsGm;
    this.clearButton.hidden = !may.drawsGm;
    this.button.addEventListener("click", () => this.toggle());
    $("draw-done").addEventListener("click", () => this.stop());
    $("draw-undo").addEventListener("click", () => this.undo());
    this.clearButton.addEventListener("click", () => this.clearAll());
    this.deleteButton.addEventListener("click", () => this.layer.selected !== null && this.remove(this.layer.selected));
    for (const radio of this.bar.querySelectorAll('input[name="draw-mode"]')) {
      radio.addEventListener("change", () => this.modeChanged());
    }
    board.events.addEventListener("tool", () => this.follow());
    this.offer();
  }

  /** The palette's swatches, each a radio: one Tab stop, arrows choose. */
  colours() {
    const box = $("draw-colours");
    PALETTE.forEach(([colour, name], i) => {
      const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
      swatch.style.background = colour;
      const input = el("input", { type: "radio", name: "draw-colour", value: colour });
      input.checked = i === 0;
      box.append(el("label", { class: "draw-choice colour", title: name }, input, el("span", { class: "visually-hidden", text: name }), swatch));
    });
  }

  style() {
    const chosen = (name) => this.bar.querySelector(`input[name="${name}"]:checked`)?.value;
    return {
      mode: chosen("draw-mode") || "pen",
      color: chosen("draw-colour") || PALETTE[0][0],
      width: Number(this.width.value) || 3,
      layer: this.may.drawsGm && this.gmOnly.checked ? "gm" : "shared",
    };
  }

  /** Whether the member draws at all now (the GM layer, or the shared one). */
  get offered() {
    return this.may.draws || this.may.drawsGm;
  }

  /** The Draw button is there for those who may draw, as the settings stand. */
  offer() {
    this.button.hidden = !this.offered;
    if (!this.offered && this.board.tool === this.tool) this.stop();
  }

  /** The campaign's settings changed: drawing may have opened or closed. */
  settingsChanged() {
    this.offer();
  }

  toggle() {
    if (this.board.tool === this.tool) {
      this.stop();
      return;
    }
    if (!this.board.scene || !this.offered) return;
    this.board.use(this.tool);
    this.board.svg.focus({ preventScroll: true });
  }

  stop() {
    this.closeText();
    if (this.board.tool === this.tool) this.board.use(null);
    this.status("");
  }

  /** The board's tool changed: the bar and the button follow. */
  follow() {
    const on = this.board.tool === this.tool;
    this.button.setAttribute("aria-pressed", String(on));
    this.bar.hidden = !on;
    if (on) this.modeChanged();
    else this.closeText();
  }

  modeChanged() {
    const mode = this.style().mode;
    this.deleteButton.hidden = mode !== "select";
    if (this.board.tool !== this.tool) return;
    this.tool.follow();
    if (mode !== "text") this.closeText();
    this.status(HINTS[mode] || "");
  }

  selected(drawing) {
    this.deleteButton.disabled = !drawing;
    if (drawing) this.status(`Selected: ${drawingWords(drawing)} by ${drawing.by?.name || "someone"}. Drag it, or arrows; Delete takes it away.`);
  }

  // ---- what goes to the server

  /** A stroke being drawn, for the others to watch: posted without an id,
   *  so nothing waits on it and nothing is sent again after a reconnect (a
   *  refusal still comes back, and the status line says it). */
  preview(stroke) {
    const scene = this.board.scene;
    if (scene) this.socket.post({ type: "drawing.stroke", scene: scene.id, ...stroke });
  }

  add(stroke) {
    const scene = this.board.scene;
    if (!scene) return;
    this.socket
      .send({ type: "drawing.add", scene: scene.id, ...stroke })
      .then(() => this.status(""))
      .catch((e) => {
        this.layer.dropPreview(strokeKey(this.me.id, stroke.stroke));
        this.refused("Not drawn", e);
      });
  }

  move(id, dx, dy) {
    this.socket.send({ type: "drawing.move", drawing: id, dx, dy }).catch((e) => {
      this.layer.nudge(id, 0, 0); // back where the server has it
      this.refused("Not moved", e);
    });
  }

  remove(id) {
    if (!this.layer.stored.has(id)) return;
    this.socket.send({ type: "drawing.remove", drawing: id }).catch((e) => this.refused("Not taken away", e));
  }

  /** Take away the member's own latest drawing on this map (ids grow). */
  undo() {
    const mine = [...this.layer.stored.values()].filter((d) => d.by?.id === this.me.id);
    if (!mine.length) {
      this.status("Nothing of yours to undo on this map.");
      return;
    }
    const last = mine.reduce((a, b) => (b.id > a.id ? b : a));
    this.socket
      .send({ type: "drawing.remove", drawing: last.id })
      .then(() => this.status(`Undone: your ${drawingWords(last)}.`))
      .catch((e) => this.refused("Not undone", e));
  }

  clearAll() {
    const scene = this.board.scene;
    if (!scene || !window.confirm("Take every drawing off this map, for everyone (the GM layer too)?")) return;
    this.socket
      .send({ type: "drawing.clear", scene: scene.id, layer: "all" })
      .then(() => this.status("Every drawing is off this map."))
      .catch((e) => this.refused("Not cleared", e));
  }

  refused(what, e) {
    this.status(`${what}: ${describeError(e)}`, true);
  }

  // ---- text

  /** A box on the map where the text goes; Enter sends it, Escape drops it. */
  askText(point) {
    this.closeText();
    const view = this.board.view;
    const input = el("input", {
      type: "text",
      class: "draw-text",
      maxlength: MAX_TEXT,
      "aria-label": "Text to write on the map (Enter writes it, Escape drops it)",
      autocomplete: "off",
    });
    input.style.left = `${view.tx + point[0] * view.scale}px`;
    input.style.top = `${view.ty + point[1] * view.scale}px`;
    input.style.color = this.style().color;
    input.addEventListener("keydown", (e) => {
      e.stopPropagation(); // the map's keys are not the text's
      if (e.key === "Enter") {
        e.preventDefault();
        this.writeText(point, input.value);
      } else if (e.key === "Escape") {
        e.preventDefault();
        this.closeText(true);
      }
    });
    // The press that placed it would take the focus back to the map.
    input.addEventListener("pointerdown", (e) => e.stopPropagation());
    this.board.view.box.append(input);
    this.typing = input;
    requestAnimationFrame(() => input.focus());
  }

  writeText(point, value) {
    const text = value.trim().slice(0, MAX_TEXT);
    this.closeText(true);
    if (!text) return;
    const { color, width, layer } = this.style();
    this.add({ shape: "text", layer, color, width, points: [point], text });
  }

  closeText(refocus = false) {
    if (!this.typing) return;
    const input = this.typing;
    this.typing = null;
    input.remove();
    if (refocus) this.board.svg.focus({ preventScroll: true });
  }

  // ---- what comes from the server

  /** Someone else's stroke being drawn (a `drawing.stroke` frame). */
  arrived(frame) {
    if (!this.board.scene || frame.scene !== this.board.scene.id || frame.by?.id === this.me.id) return;
    this.layer.preview(strokeKey(frame.by.id, frame.stroke), frame);
  }

  /** The scene's drawings, all at once (../room/state.js's "drawings"). */
  set(list) {
    this.layer.set(list);
    this.tool.enabled && this.tool.follow();
  }

  /** The map shown changed without its drawings: none shown until the
   *  ones this member sees are read (GET /api/scenes/<id>/drawings/);
   *  resolves to {scene, drawings}, or null (offline: they come with the
   *  next snapshot). */
  async load() {
    const scene = this.board.scene;
    this.set([]);
    if (!scene || !this.api) return null;
    const answer = await getJSON(`${this.api}${scene.id}/drawings/`).catch(() => null);
    return answer?.ok ? { scene: scene.id, drawings: answer.data } : null;
  }

  /** A drawing stored or moved; `stroke` is the stroke it finished. */
  changed(drawing, stroke) {
    this.layer.nudge(drawing.id, 0, 0);
    this.layer.upsert(drawing, stroke);
  }

  gone(id) {
    const selected = this.layer.selected === id;
    this.layer.remove(id);
    if (selected) this.selected(null);
  }
}
