// The lights of the room's scene under the GM's Light tool
// (../map/tools/light_tool.js), one of the editing mode's tools
// (./map_edit.js). The scene's lights come from the scene's REST read (the
// GM's: policy.sees_lights) and follow each `light.changed` event; each
// edit is its intent (`light.place`, `light.update`, `light.remove`), so
// the players' fog follows from the server. The bar's fields change the
// selected light: bright and dim reach in squares, colour, on or off.
//
// The same read brings a dim or dark scene's lit areas, whole (the GM's
// alone: `lit_areas`), handed to onLit; it is read again, soon after, when
// a light, the walls, a door or the lighting change, or a token carrying a
// light moves.

import { getJSON } from "../lib/api.js";
import { describeError } from "../lib/errors.js";
import { LightMarks, lightLabel } from "../map/light_marks.js";
import { LightTool } from "../map/tools/light_tool.js";

const $ = (id) => document.getElementById(id);

// A new light: a lantern's reach and warm light (squares).
export const NEW_LIGHT = { bright: 4, dim: 8, color: "#ffb347", on: true };

export class LightEdit {
  constructor({ board, socket, config, status, onDraw, onLit }) {
    this.onLit = onLit;
    this.readTimer = null;
    this.edits = 0; // lights changed so far: a read begun before one is stale
    this.board = board;
    this.socket = socket;
    this.config = config;
    this.status = status;
    this.lights = new Map();
    this.selected = null;
    this.sceneId = null;
    this.marks = new LightMarks(board.layers.lights);
    this.tool = new LightTool(board, this.marks, {
      lightOf: (id) => this.lights.get(id),
      onSelect: (id) => this.select(id),
      onPlace: (at) => this.place(at),
      onMove: (id, [x, y]) => this.change(id, { x, y }),
      onRemove: (id) => this.remove(id),
      onEnd: () => this.select(null),
    });
    this.fields = { bright: $("light-bright"), dim: $("light-dim"), color: $("light-color"), on: $("light-on") };
    this.bar = $("light-fields");
    for (const [name, input] of Object.entries(this.fields)) {
      input.addEventListener("change", () => this.fieldChanged(name));
    }
    this.draw();
    this.onDraw = onDraw; // after each later drawing: the bar's Delete follows the selection
  }

  start() {
    this.board.use(this.tool);
  }

  /** The room's scene changed (another map, or this one's walls, doors or
   *  lighting): its lights and lit areas are read again. */
  sceneChanged(scene) {
    if (scene?.id !== this.sceneId) {
      this.sceneId = scene?.id ?? null;
      this.lights.clear();
      this.selected = null;
      this.draw();
      this.onLit?.([]);
    }
    if (scene) this.readSoon();
  }

  /** A token changed: one carrying a light relights the map. */
  tokenChanged(token) {
    const carries = token.light_ft > 0 || [...this.lights.values()].some((l) => l.token_id === token.id);
    if (carries) this.readSoon();
  }

  /** Read the scene once the changes arriving together are in. */
  readSoon() {
    clearTimeout(this.readTimer);
    this.readTimer = setTimeout(() => this.read(), 100);
  }

  async read() {
    const id = this.sceneId;
    const edits = this.edits;
    if (id === null) return;
    const answer = await getJSON(`${this.config.api.scene}${id}/`).catch(() => null);
    // Begun before a light changed, it could bring back a removed one: the
    // read that change asked for (readSoon) comes after it.
    if (!answer?.ok || this.sceneId !== id || this.edits !== edits) return;
    this.lights.clear();
    for (const light of answer.data.lights || []) this.lights.set(light.id, light);
    if (!this.lights.has(this.selected)) this.selected = null;
    this.draw();
    this.onLit?.(answer.data.lit_areas || []);
  }

  /** A `light.changed` event: placed, changed or removed. */
  changed(light, action) {
    if (light.scene_id !== undefined && light.scene_id !== this.sceneId) return;
    this.edits += 1;
    if (action === "removed") {
      this.lights.delete(light.id);
      if (this.selected === light.id) this.selected = null;
    } else this.lights.set(light.id, light);
    this.draw();
    this.readSoon();
  }

  draw() {
    // A sun that had the focus keeps it when the marks are drawn anew.
    const focused = document.activeElement?.closest?.(".light-mark[data-light]");
    this.marks.draw([...this.lights.values()], this.selected);
    const light = this.lights.get(this.selected);
    this.bar.hidden = !this.tool.enabled;
    this.bar.disabled = !light;
    const shown = light || NEW_LIGHT;
    // A field being typed in keeps what is typed until it is sent.
    const keep = (input) => input === document.activeElement && light;
    if (!keep(this.fields.bright)) this.fields.bright.value = String(shown.bright);
    if (!keep(this.fields.dim)) this.fields.dim.value = String(shown.dim);
    if (!keep(this.fields.color)) this.fields.color.value = shown.color;
    this.fields.on.checked = !!shown.on;
    if (focused) this.marks.focus(Number(focused.dataset.light));
    this.onDraw?.();
  }

  select(id) {
    this.selected = id;
    this.draw();
    const light = this.lights.get(id);
    this.status(light ? `${lightLabel(light)} selected: drag it or use the arrows; Delete removes it.` : "");
  }

  /** The light the editing mode's Delete takes away, if one is selected. */
  deleteSelected() {
    if (this.selected !== null) this.remove(this.selected);
  }

  send(intent, done) {
    return this.socket
      .send(intent)
      .then(done)
      .catch((e) => {
        this.status(`Not done: ${describeError(e)}`, true);
        this.draw(); // a dragged light goes back where the server has it
      });
  }

  place([x, y]) {
    if (this.sceneId === null) return;
    const light = { ...NEW_LIGHT, x, y };
    this.send({ type: "light.place", scene: this.sceneId, light }, (ack) => {
      if (!ack?.light) return;
      this.lights.set(ack.light.id, ack.light);
      this.select(ack.light.id);
      this.status(`Light placed at column ${Math.floor(x)}, row ${Math.floor(y)}.`);
    });
  }

  change(id, changes) {
    this.send({ type: "light.update", light: id, changes }, (ack) => {
      if (ack?.light) this.changed(ack.light, "changed");
    });
  }

  remove(id) {
    // Deleted from its focused sun: the keyboard goes back to the map (its
    // event may arrive before the answer and take the sun away first).
    const focused = document.activeElement?.closest?.(".light-mark[data-light]");
    this.send({ type: "light.remove", light: id }, () => {
      this.changed({ id }, "removed");
      if (focused) this.board.svg.focus({ preventScroll: true }); // the keyboard stays on the map
      this.status("Light removed.");
    });
  }

  fieldChanged(name) {
    if (this.selected === null) return;
    const input = this.fields[name];
    let value = name === "on" ? input.checked : name === "color" ? input.value : Number(input.value);
    if (typeof value === "number" && !Number.isFinite(value)) value = 0;
    const changes = { [name]: value };
    // Dim reaches at least as far as bright: the other follows.
    const light = this.lights.get(this.selected);
    if (name === "bright" && value > light.dim) changes.dim = value;
    if (name === "dim" && value < light.bright) changes.bright = value;
    this.change(this.selected, changes);
  }
}
