// The GM's token dialog: name, colour, size, sight and light (feet: what it
// sees in a dark scene, and the light it carries), the character it stands
// for, who moves it, and its picture. Save sends one `token.update` with what
// changed, then the new picture (PUT /api/tokens/<id>/art/, multipart);
// "Remove picture" deletes the token's own picture at once. A refusal is
// shown beside the field it names; the dialog stays open until all is saved.

import { el } from "../lib/dom.js";
import { sendForm } from "../lib/api.js";
import { describeError } from "../lib/errors.js";

const $ = (id) => document.getElementById(id);

const FIELDS = ["name", "color", "size", "sight_ft", "light_ft", "character_id", "controllers", "image"];
// Each field's input, by the name the service gives it.
const INPUTS = {
  name: "token-name",
  color: "token-color",
  size: "token-size",
  sight_ft: "token-sight",
  light_ft: "token-light",
  character_id: "token-character",
  image: "token-art-file",
};

// The service's and the protocol's field names, to the dialog's fields.
function fieldOf(path) {
  const name = String(path || "").replace(/^changes\./, "").replace(/\[\d+\]$/, "");
  return FIELDS.includes(name) ? name : null;
}

export class TokenDialog {
  constructor(dialog, { config, socket, roster, board, status }) {
    this.dialog = dialog;
    this.config = config;
    this.socket = socket;
    this.roster = roster;
    this.board = board;
    this.status = status;
    this.form = $("token-dialog-form");
    this.token = null;
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.save();
    });
    $("token-dialog-cancel").addEventListener("click", () => dialog.close());
    $("token-art-remove").addEventListener("click", () => this.removeArt());
    // A field's refusal goes once the field is changed.
    this.form.addEventListener("input", (e) => {
      const spot = e.target.closest(".field")?.querySelector(".field-error");
      if (spot) spot.textContent = "";
      e.target.removeAttribute("aria-invalid");
    });
    // A token changed by someone else meanwhile: its picture is shown as it is now.
    this.dialog.addEventListener("close", () => {
      this.token = null;
    });
  }

  open(token) {
    this.token = token;
    $("token-name").value = token.name;
    $("token-color").value = token.color || "#888888";
    $("token-size").value = String(token.size || 1);
    $("token-sight").value = String(token.sight_ft ?? 0);
    $("token-light").value = String(token.light_ft ?? 0);
    this.fillCharacters(token.character_id);
    this.fillControllers(token.controllers || []);
    $("token-art-file").value = "";
    this.showArt(token);
    this.clearErrors();
    this.dialog.dataset.token = token.id;
    this.dialog.showModal();
  }

  fillCharacters(chosen) {
    const select = $("token-character");
    select.replaceChildren(el("option", { value: "", text: "None" }));
    const characters = [...this.roster.byId.values()].filter((c) => c.name);
    characters.sort((a, b) => a.name.localeCompare(b.name));
    for (const c of characters) {
      const kind = c.kind === "npc" ? " (NPC)" : "";
      select.append(el("option", { value: String(c.id), text: `${c.name}${kind}` }));
    }
    select.value = chosen ? String(chosen) : "";
  }

  fillControllers(ids) {
    const box = $("token-controllers");
    box.replaceChildren();
    for (const member of this.config.members || []) {
      const id = `token-controller-${member.id}`;
      box.append(
        el(
          "div",
          { class: "inline-check" },
          el("input", { type: "checkbox", id, value: String(member.id), checked: ids.includes(member.id) }),
          el("label", { for: id, text: member.role === "gm" ? `${member.name} (GM)` : member.name }),
        ),
      );
    }
  }

  /** The token's picture as the map draws it, and where it comes from. */
  showArt(token) {
    const img = $("token-art-preview");
    const art = token.art;
    img.hidden = !art;
    if (art) {
      img.src = art.thumb_128 || art.url;
      img.alt = `${token.name}'s picture`;
    } else img.removeAttribute("src");
    $("token-art-from").textContent =
      token.art_from === "token" ? "Its own picture." : token.art_from === "character" ? "Its character's portrait." : "No picture: its initials show.";
    $("token-art-remove").disabled = token.art_from !== "token";
  }

  clearErrors() {
    $("token-dialog-error").textContent = "";
    for (const p of this.form.querySelectorAll(".field-error")) p.textContent = "";
    for (const node of this.form.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
  }

  /** A refusal beside the field it names, or under the form. */
  showError(error, fallbackField = null) {
    const field = fieldOf(error?.field) || fallbackField;
    const spot = field && this.form.querySelector(`.field-error[data-for="${field}"]`);
    const text = describeError(error ? { ...error, field: spot ? null : error.field } : null);
    if (!spot) {
      $("token-dialog-error").textContent = text;
      return;
    }
    spot.textContent = text;
    const input = INPUTS[field];
    if (input) {
      $(input).setAttribute("aria-invalid", "true");
      $(input).focus();
    }
  }

  changes() {
    const token = this.token;
    const changes = {};
    const name = $("token-name").value.trim();
    if (name !== token.name) changes.name = name;
    const color = $("token-color").value;
    if (color !== token.color) changes.color = color;
    const size = Number($("token-size").value);
    if (size !== (token.size || 1)) changes.size = Number.isInteger(size) ? size : $("token-size").value;
    for (const [field, input] of [["sight_ft", "token-sight"], ["light_ft", "token-light"]]) {
      // Text that is no whole number goes as typed, so the server names the field.
      const raw = $(input).value.trim();
      const feet = raw === "" ? 0 : Number(raw);
      if (feet !== (token[field] ?? 0)) changes[field] = Number.isInteger(feet) ? feet : raw;
    }
    const character = $("token-character").value ? Number($("token-character").value) : null;
    if (character !== (token.character_id ?? null)) changes.character_id = character;
    const controllers = [...$("token-controllers").querySelectorAll("input:checked")].map((i) => Number(i.value)).sort((a, b) => a - b);
    const before = [...(token.controllers || [])].sort((a, b) => a - b);
    if (controllers.join() !== before.join()) changes.controllers = controllers;
    return changes;
  }

  async save() {
    if (!this.token) return;
    this.clearErrors();
    const id = this.token.id;
    const changes = this.changes();
    if (Object.keys(changes).length) {
      try {
        const ack = await this.socket.send({ type: "token.update", token: id, changes });
        if (ack?.token) this.token = ack.token;
      } catch (error) {
        this.showError(error);
        return;
      }
    }
    const file = $("token-art-file").files[0];
    if (file) {
      const ok = await this.sendArt(id, "PUT", file);
      if (!ok) return;
    }
    this.dialog.close();
    this.status(`${this.token?.name || "The token"} saved.`);
  }

  async sendArt(id, method, file = null) {
    let form = null;
    if (file) {
      form = new FormData();
      form.append("image", file);
    }
    let answer;
    try {
      answer = await sendForm(`${this.config.api.token}${id}/art/`, method, form);
    } catch {
      this.showError({ code: "offline", message: "Offline: the picture was not sent." }, "image");
      return false;
    }
    if (!answer.ok) {
      this.showError(answer.data?.error || { message: `the server answered ${answer.status}` }, "image");
      return false;
    }
    const data = answer.data;
    if (data && this.token?.id === id) {
      this.token = { ...this.token, art: data.art, art_from: data.art_from };
      this.showArt(this.token);
      this.board.upsert(data);
    }
    return true;
  }

  async removeArt() {
    if (!this.token) return;
    this.clearErrors();
    if (await this.sendArt(this.token.id, "DELETE")) $("token-art-file").value = "";
  }
}
