// The GM tab's fog of war: the room's scene's two switches (fog on or off,
// lit or dark: PATCH /api/scenes/<id>/), "See as" (`vision.preview`: the
// GM's map then shows a group's fog and only the tokens it sees), and the
// fog tools: Reveal area and Cover area (a map tool, ../map/tools/area.js,
// then `fog.edit` with the rectangle) and Reset fog. The tools act on the
// group seen as, or on every group when the GM sees as nobody.

import { el } from "../lib/dom.js";
import { patchJSON } from "../lib/api.js";
import { describeError } from "../lib/errors.js";
import { AreaTool } from "../map/tools/area.js";

const $ = (id) => document.getElementById(id);

export class FogPanel {
  constructor({ config, socket, board, status, onStopPreview }) {
    this.config = config;
    this.socket = socket;
    this.board = board;
    this.status = status;
    this.onStopPreview = onStopPreview;
    this.settings = config.settings || {};
    this.scene = null;
    this.fogBox = $("fog-on");
    this.litBox = $("fog-lit");
    this.seeAs = $("fog-see-as");
    this.note = $("fog-note");
    this.tools = { reveal: $("fog-reveal"), cover: $("fog-cover") };
    this.area = new AreaTool(board, board.layers.area, {
      onArea: (rect, mode) => this.edit(mode, rect),
      onEnd: () => {
        this.pressTools(null);
        this.status("");
      },
    });
    this.fogBox.addEventListener("change", () => this.patch({ fog: this.fogBox.checked }));
    this.litBox.addEventListener("change", () => this.patch({ lit: this.litBox.checked }));
    this.seeAs.addEventListener("change", () => this.preview());
    for (const [mode, button] of Object.entries(this.tools)) {
      button.addEventListener("click", () => this.toggleTool(mode));
    }
    $("fog-reset").addEventListener("click", () => this.reset());
    this.fillSeeAs();
    this.sceneChanged(null);
  }

  /** The campaign's settings changed: each player is a group of their own, or not. */
  setSettings(settings) {
    this.settings = settings || {};
    this.fillSeeAs();
  }

  /** "See as": nobody, the party, and each player when each sees through their own tokens. */
  fillSeeAs() {
    const keep = this.seeAs.value;
    const options = [el("option", { value: "", text: "Nobody: the whole map" }), el("option", { value: "party", text: "The party" })];
    if (this.settings.own_vision) {
      for (const member of this.config.members || []) {
        // A member with a view of their own (policy.sight_groups, served).
        const own = member.sight?.own;
        if (own && own !== member.sight.shared) options.push(el("option", { value: own, text: member.name }));
      }
    }
    this.seeAs.replaceChildren(...options);
    if ([...this.seeAs.options].some((o) => o.value === keep)) this.seeAs.value = keep;
    else if (keep) {
      this.seeAs.value = "";
      this.preview();
    }
  }

  /** The room's scene, or its fog and lighting, changed. */
  sceneChanged(scene) {
    this.scene = scene;
    const fog = !!scene?.fog;
    this.fogBox.checked = fog;
    this.litBox.checked = scene ? scene.lit !== false : true;
    this.fogBox.disabled = this.litBox.disabled = !scene;
    this.seeAs.disabled = !fog;
    for (const button of [...Object.values(this.tools), $("fog-reset")]) button.disabled = !fog;
    if (!fog) this.area.stop();
    $("fog-scene").textContent = scene ? `On ${scene.name}${fog ? "" : ": fog off"}.` : "No active scene.";
  }

  /** A new socket forgets whose view the GM sees: ask again. */
  resume() {
    if (this.seeAs.value) this.preview();
  }

  async patch(change) {
    const scene = this.scene;
    if (!scene) return;
    const said = Object.keys(change)[0] === "fog" ? (change.fog ? "Fog on" : "Fog off") : change.lit ? "Lit" : "Dark";
    let answer;
    try {
      answer = await patchJSON(`${this.config.api.scene}${scene.id}/`, change);
    } catch {
      answer = { ok: false, data: { error: { message: "offline: try again in a moment" } } };
    }
    if (answer.ok) {
      this.note.textContent = `${said}: ${scene.name}.`;
      return; // scene.updated redraws the room and these switches
    }
    this.sceneChanged(this.scene); // the switches back as the scene is
    this.note.textContent = `Not changed: ${describeError(answer.data?.error || answer.data)}`;
  }

  group() {
    return this.seeAs.value || null;
  }

  preview() {
    const group = this.group();
    const name = this.seeAs.selectedOptions[0]?.text || "nobody";
    this.socket
      .send({ type: "vision.preview", group })
      .then(() => {
        this.note.textContent = group ? `Your map shows what ${group === "party" ? "the party" : name} sees.` : "Your map shows everything.";
        if (!group) this.onStopPreview?.();
      })
      .catch((e) => {
        this.note.textContent = `Not changed: ${describeError(e)}`;
      });
  }

  pressTools(mode) {
    for (const [name, button] of Object.entries(this.tools)) button.setAttribute("aria-pressed", String(name === mode));
  }

  toggleTool(mode) {
    if (this.area.mode === mode) {
      this.area.stop();
      return;
    }
    this.area.start(mode); // the board gives it the pointer: the ruler, if on, goes off
    this.pressTools(mode);
    this.note.textContent = "Drag a rectangle on the map, or on the map move a corner with the arrows, stretch it with Shift+arrows and press Enter. Escape stops.";
    this.board.svg.focus();
  }

  whose() {
    const group = this.group();
    if (!group) return "every group";
    return group === "party" ? "the party" : this.seeAs.selectedOptions[0]?.text || group;
  }

  edit(action, rect = null) {
    const scene = this.scene;
    if (!scene) return Promise.resolve();
    const intent = { type: "fog.edit", scene: scene.id, action };
    if (rect) intent.rect = rect;
    if (this.group()) intent.group = this.group();
    const what = { reveal: "Revealed", cover: "Covered", reset: "Fog reset" }[action];
    return this.socket
      .send(intent)
      .then(() => {
        const area = rect ? ` ${rect[2]} × ${rect[3]} squares from column ${rect[0]}, row ${rect[1]}` : "";
        this.note.textContent = `${what}${area} for ${this.whose()}.`;
        this.status(this.note.textContent);
      })
      .catch((e) => {
        this.note.textContent = `Not done: ${describeError(e)}`;
        this.status(this.note.textContent, true);
      });
  }

  reset() {
    if (!this.scene) return;
    if (!window.confirm(`Forget everything ${this.whose()} has explored on ${this.scene.name}?`)) return;
    this.edit("reset");
  }
}
