// Status markers on tokens: the badges' words for the map, and the token's
// marker card (a dialog): what the token is marked with, in words, each
// with its effect on a roll where the game gives one; a Remove button on
// those this member may take off; and the form to add one: one of the
// game's conditions (the kit's declared list, served in the tray's spec)
// and, for the GM, a free marker (an icon and a few words) and "GM only".
// Who may do what is the server's answer (`may.markers`: "any",
// "conditions" on the tokens the member moves, "none"); the server
// decides again on every intent. The markers held are the room state's
// (./state.js): tokens bring theirs as they come into sight (the snapshot,
// a new map, a token revealed or coming into view), and the marker events
// follow them.

import { el } from "../lib/dom.js";
import { describeError } from "../lib/errors.js";

const $ = (id) => document.getElementById(id);

export class Markers {
  constructor({ config, spec, may, socket, board, status, room }) {
    this.config = config;
    this.may = may;
    this.socket = socket;
    this.board = board;
    this.status = status;
    this.room = room; // () => the room's state
    this.conditions = new Map((spec.conditions || []).map((c) => [c.id, c]));
    this.dialog = $("marker-dialog");
    this.token = null;
    if (!this.dialog) return;
    this.form = $("marker-form");
    this.fillForm();
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.add();
    });
    $("marker-close").addEventListener("click", () => this.dialog.close());
    this.dialog.addEventListener("close", () => {
      this.token = null;
    });
  }

  /** The token's markers as the map draws them: [{marker, words}]. */
  of(token) {
    const held = this.room()?.markers || {};
    return Object.values(held)
      .filter((m) => m.token_id === token.id)
      .sort((a, b) => a.id - b.id)
      .map((marker) => ({ marker, words: this.words(marker) }));
  }

  words(marker) {
    const says = this.conditions.get(marker.condition_id)?.says || "";
    return [marker.label, says ? `(${says})` : "", marker.gm_only ? "[GM only]" : ""].filter(Boolean).join(" ");
  }

  /** The declared conditions (with their effects) marked on the tokens
   *  of a character on this map, but secret ones, as its rolls take them. */
  conditionsOf(characterId) {
    const room = this.room();
    if (!room) return [];
    const ids = new Set();
    for (const marker of Object.values(room.markers || {})) {
      const token = room.tokens[marker.token_id];
      if (token?.character_id === characterId && marker.condition_id && !marker.gm_only) ids.add(marker.condition_id);
    }
    return [...ids].sort().map((id) => this.conditions.get(id)).filter(Boolean);
  }

  /** A token's markers changed (an event): its badges and its open card. */
  changed(tokenId) {
    this.onChange?.();
    const token = this.board.tokens.get(tokenId);
    if (token) this.board.pieces.drawToken(this.board.pieces.node(token), token);
    if (this.token?.id === tokenId) this.drawList();
  }

  /** Tokens came with their markers (a new map, tokens into view): the
   *  tray's odds and the open card follow; the map drew their badges. */
  arrived() {
    this.onChange?.();
    if (this.token) this.drawList();
  }

  // ------------------------------------------------------------ the card

  open(token) {
    if (!this.dialog) return;
    this.token = token;
    $("marker-dialog-title").textContent = `Markers on ${token.name}`;
    this.drawList();
    this.clearErrors();
    const addable = this.may.marks(token, true);
    this.form.hidden = !addable;
    this.dialog.showModal();
  }

  fillForm() {
    const select = $("marker-condition");
    select.replaceChildren(el("option", { value: "", text: this.may.marksFreely ? "A free marker (below)" : "Choose…" }));
    for (const c of this.conditions.values()) {
      select.append(el("option", { value: c.id, text: c.says ? `${c.name} (${c.says})` : c.name }));
    }
    const free = $("marker-free");
    if (free) free.hidden = !this.may.marksFreely;
    const icons = $("marker-icon");
    if (icons) {
      icons.replaceChildren(...(this.config.markers?.icons || []).map((icon) => el("option", { value: icon, text: icon })));
    }
    const label = $("marker-label");
    if (label) label.maxLength = this.config.markers?.label_max || 40;
  }

  drawList() {
    const list = $("marker-list");
    const token = this.token;
    const markers = this.of(token);
    if (!markers.length) {
      list.replaceChildren(el("li", { class: "note", text: "No markers." }));
      return;
    }
    list.replaceChildren(
      ...markers.map(({ marker, words }) => {
        const item = el("li", { class: "marker-item", "data-marker-id": marker.id }, el("span", { text: words }));
        if (this.may.marks(token, !!marker.condition_id)) {
          item.append(
            el("button", {
              type: "button",
              class: "danger",
              text: "Remove",
              "aria-label": `Remove ${marker.label}`,
              onclick: () => this.remove(marker),
            }),
          );
        }
        return item;
      }),
    );
  }

  clearErrors() {
    for (const spot of this.dialog.querySelectorAll(".field-error, .error")) spot.textContent = "";
  }

  async add() {
    this.clearErrors();
    const intent = { type: "marker.add", token: this.token.id };
    const condition = $("marker-condition").value;
    if (condition) intent.condition_id = condition;
    else {
      intent.icon = $("marker-icon")?.value;
      intent.label = $("marker-label")?.value;
    }
    if ($("marker-gm-only")?.checked) intent.gm_only = true;
    try {
      await this.socket.send(intent);
      // The next marker starts afresh: never a secret by a leftover tick.
      $("marker-condition").value = "";
      if ($("marker-label")) $("marker-label").value = "";
      if ($("marker-gm-only")) $("marker-gm-only").checked = false;
      this.status(`${this.token.name} marked.`);
    } catch (e) {
      const field = e?.field && this.dialog.querySelector(`.field-error[data-for="${e.field}"]`);
      (field || $("marker-error")).textContent = describeError(e);
    }
  }

  async remove(marker) {
    try {
      await this.socket.send({ type: "marker.remove", marker: marker.id });
      this.status(`${marker.label} taken off.`);
    } catch (e) {
      $("marker-error").textContent = describeError(e);
    }
  }
}
