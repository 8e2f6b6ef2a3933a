// Area templates in the room: the Template button and its bar (shape, size
// in squares and in feet, a name, GM-only for the GM), the tool that places
// one by drag (../map/tools/template_tool.js) while the tokens inside are
// listed, and the templates on the map (../map/template_layer.js), each
// with a Remove button for whoever may take it off (./may.js). The room's
// state holds the templates this member may see (./state.js); the server
// decides which, and refuses what the member may not do.

import { el, clear } from "../lib/dom.js";
import { getJSON } from "../lib/api.js";
import { describeError } from "../lib/errors.js";
import { TemplateLayer } from "../map/template_layer.js";
import { TemplateTool } from "../map/tools/template_tool.js";
import { FEET_PER_SQUARE, MAX_SIZE, MIN_SIZE, templateWords } from "../map/template_shapes.js";

export class Templates {
  constructor({ config, may, socket, board, status, room }) {
    this.config = config;
    this.may = may;
    this.socket = socket;
    this.board = board;
    this.status = status;
    this.room = room; // () => the room's state
    const $ = (id) => document.getElementById(id);
    this.button = $("tool-template");
    this.bar = $("template-bar");
    this.shape = $("template-shape");
    this.size = $("template-size");
    this.feet = $("template-feet");
    this.label = $("template-label");
    this.gmOnly = $("template-gm-only");
    this.inside = $("template-inside");
    this.error = $("template-error");
    this.list = $("template-list");
    this.layer = new TemplateLayer(board, board.layers.templates);
    this.tool = new TemplateTool(board, this.layer, {
      onChange: (template, tokens) => this.placing(template, tokens),
      onPlace: (template) => this.place(template),
      onEnd: () => this.ended(),
    });
    if (!may.placesTemplates) return;
    this.button.hidden = false;
    $("template-gm-only-box").hidden = !may.placesSecretTemplates;
    this.button.addEventListener("click", () => (this.tool.enabled ? this.tool.stop() : this.start()));
    board.events.addEventListener("tool", () => this.button.setAttribute("aria-pressed", String(board.tool === this.tool)));
    $("template-place").addEventListener("click", () => this.tool.place());
    $("template-done").addEventListener("click", () => this.tool.stop());
    // Squares and feet are one size: either box sets the other.
    this.size.addEventListener("input", () => this.sized(Number(this.size.value), "squares"));
    this.feet.addEventListener("input", () => this.sized(Number(this.feet.value) / FEET_PER_SQUARE, "feet"));
    for (const input of [this.shape, this.label, this.gmOnly]) input.addEventListener("change", () => this.tool.setSpec(this.spec()));
  }

  spec() {
    return {
      shape: this.shape.value,
      size: Number(this.size.value),
      label: this.label.value.trim(),
      gm_only: this.may.placesSecretTemplates && this.gmOnly.checked,
    };
  }

  /** A size typed in one box: the other follows; the tool redraws a whole size. */
  sized(squares, from) {
    if (from === "feet") this.size.value = Number.isInteger(squares) ? String(squares) : "";
    else this.feet.value = Number.isFinite(squares) ? String(squares * FEET_PER_SQUARE) : "";
    const whole = Number.isInteger(squares) && squares >= MIN_SIZE && squares <= MAX_SIZE;
    this.error.textContent = whole ? "" : `A template is ${MIN_SIZE} to ${MAX_SIZE} squares (${MIN_SIZE * FEET_PER_SQUARE} to ${MAX_SIZE * FEET_PER_SQUARE} ft), in whole squares.`;
    if (whole) this.tool.setSpec(this.spec());
  }

  start() {
    this.bar.hidden = false;
    this.error.textContent = "";
    this.tool.start(this.spec());
    this.drawList();
    this.board.svg.focus({ preventScroll: true });
  }

  ended() {
    this.bar.hidden = true;
    clear(this.inside);
  }

  /** While placing: the tokens inside, by name. */
  placing(template, tokens) {
    clear(this.inside);
    const names = tokens.map((t) => t.name).sort((a, b) => a.localeCompare(b));
    this.inside.append(
      el("b", { text: `${templateWords(template)}: ` }),
      names.length ? `${names.length} inside: ${names.join(", ")}` : "no token inside",
    );
  }

  async place(template) {
    this.error.textContent = "";
    try {
      const ack = await this.socket.send({ type: "template.place", ...template });
      this.status(`Placed a ${templateWords(ack.template)} template.`);
      this.tool.stop();
    } catch (error) {
      this.error.textContent = `Not placed: ${describeError(error)}`;
    }
  }

  async remove(template) {
    try {
      await this.socket.send({ type: "template.remove", template: template.id });
      this.status(`The ${templateWords(template)} template is off the map.`);
    } catch (error) {
      this.status(`Not removed: ${describeError(error)}`, true);
    }
  }

  /** The templates the room holds changed (a snapshot, an event). */
  changed() {
    this.layer.set(this.held());
    this.drawList();
  }

  held() {
    return Object.values(this.room()?.templates || {}).sort((a, b) => a.id - b.id);
  }

  drawList() {
    clear(this.list);
    for (const t of this.held()) {
      const words = `${templateWords(t)}${t.gm_only ? ", GM only" : ""}${t.by ? ` · ${t.by.name}` : ""}`;
      const item = el("li", { "data-template": String(t.id) }, el("span", { text: words }));
      if (this.may.removesTemplate(t)) {
        item.append(el("button", { type: "button", class: "link-button", text: "Remove", "aria-label": `Remove the ${templateWords(t)} template`, onclick: () => this.remove(t) }));
      }
      this.list.append(item);
    }
    this.list.hidden = !this.list.children.length;
  }

  /** Tokens came, went or moved: what a template holds may have changed. */
  tokensChanged() {
    this.layer.draw();
    if (this.tool.enabled) this.tool.update();
  }

  /** A new map: its templates are not in the scene change, so they are asked for. */
  async load() {
    const scene = this.board.scene;
    const room = this.room();
    if (!scene || !room) return;
    try {
      const found = [];
      // Fifty a page, and a scene may hold up to 200: every page is read.
      let url = `/api/campaigns/${this.config.campaign.id}/templates/?scene=${scene.id}`;
      while (url) {
        const got = await getJSON(url);
        if (!got.ok || this.board.scene?.id !== scene.id) return;
        found.push(...got.data.results);
        const next = got.data.next ? new URL(got.data.next, location.href) : null;
        url = next ? next.pathname + next.search : null;
      }
      room.templates = Object.fromEntries(found.map((t) => [t.id, t]));
      this.changed();
    } catch {
      // offline: the next snapshot brings them
    }
  }
}
