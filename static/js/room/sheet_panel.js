// The sheet at the table: the chosen character's wound state, counters and
// the sheet entries a roll can use. A click on an entry sets that roll up in
// the tray (odds and all); a counter is spent (owner or GM) or awarded (GM)
// over REST, and the room's character.updated brings the new value back.

import { el, clear } from "../lib/dom.js";
import { postJSON } from "../lib/api.js";
import { describeError } from "../lib/errors.js";

export class SheetPanel {
  constructor(root, { config, may, spec, roster, onRoll }) {
    this.root = root;
    this.config = config;
    this.counters = spec.counters || [];
    this.roster = roster;
    this.onRoll = onRoll;
    this.may = may; // what this member may do (./may.js)
    this.select = root.querySelector("#sheet-character");
    this.view = root.querySelector("#sheet-view");
    this.select.addEventListener("change", () => {
      this.draw();
      this.onChoose?.(this.chosen());
    });
    this.fill();
  }

  mine(c) {
    return this.may.readsSheet(c);
  }

  fill() {
    const keep = this.select.value;
    this.select.replaceChildren(el("option", { value: "", text: "Choose a character" }));
    for (const c of this.roster.byId.values()) {
      if (c.sheet && this.mine(c)) this.select.append(el("option", { value: String(c.id), text: c.name }));
    }
    if ([...this.select.options].some((o) => o.value === keep)) this.select.value = keep;
  }

  chosen() {
    return this.select.value ? Number(this.select.value) : null;
  }

  /** The tray's character changed: show that one's sheet. */
  choose(id) {
    const value = id ? String(id) : "";
    if ([...this.select.options].some((o) => o.value === value)) this.select.value = value;
    this.draw();
  }

  draw() {
    clear(this.view);
    const character = this.roster.get(this.chosen());
    if (!character) {
      this.view.append(el("p", { class: "empty", text: "Choose one of your characters to see its sheet here." }));
      return;
    }
    const wounds = character.wounds;
    if (wounds) {
      this.view.append(el("p", { class: "wound-state" }, "State: ", el("span", { text: wounds.state })));
    }
    this.view.append(this.counterList(character));
    const entries = character.entries || [];
    if (entries.length) {
      const list = el("ul", { class: "sheet-entries", "aria-label": `${character.name}'s rolls` });
      for (const entry of entries) {
        const value = entry.pips ? `${entry.value}+${entry.pips}` : String(entry.value);
        list.append(
          el(
            "li",
            {},
            el(
              "button",
              {
                type: "button",
                "aria-label": `Roll ${entry.label} (${value}) for ${character.name}`,
                onclick: () => this.onRoll(character.id, entry),
              },
              el("span", { text: entry.label }),
              // Most games' labels carry the value already ("Might 2D+1").
              /\d/.test(entry.label) ? null : el("span", { class: "value", text: value }),
            ),
          ),
        );
      }
      this.view.append(el("h3", { text: "Roll from the sheet" }), list);
    }
    this.view.append(el("p", { class: "error", role: "alert", id: "sheet-error" }));
  }

  counterList(character) {
    const have = character.resources || {};
    const list = el("ul", { class: "counters", "aria-label": `${character.name}'s counters` });
    for (const { key, label } of this.counters) {
      if (typeof have[key] !== "number") continue;
      list.append(
        el(
          "li",
          { "data-counter": key },
          el("span", { class: "name", text: label }),
          el("span", { class: "value", text: String(have[key]) }),
          this.may.editsCharacter(character)
            ? el("button", {
                type: "button",
                text: "Spend 1",
                disabled: have[key] <= 0,
                "aria-label": `Spend 1 ${label}`,
                onclick: () => this.change(character.id, "spend", key),
              })
            : null,
          this.may.runsTable
            ? el("button", {
                type: "button",
                text: "+1",
                "aria-label": `Award 1 ${label}`,
                onclick: () => this.change(character.id, "award", key),
              })
            : null,
        ),
      );
    }
    return list.children.length ? el("div", {}, el("h3", { text: "Counters" }), list) : el("div");
  }

  async change(id, verb, resource) {
    const error = this.view.querySelector("#sheet-error");
    error.textContent = "";
    let answer;
    try {
      answer = await postJSON(`${this.config.api.character}${id}/${verb}/`, { resource, amount: 1 });
    } catch {
      error.textContent = "Offline: not changed.";
      return;
    }
    if (!answer.ok) error.textContent = describeError(answer.data?.error || {});
  }
}
