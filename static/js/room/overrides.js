// The GM's changes to an attack's pools before the roll: every number,
// checkbox and choice of the game's attack request, drawn from the tray
// spec (the rules' own field declarations, bounds included) and filled
// with what the sheets gave. Only what the GM changes is sent, as
// `overrides.attack`, laid over the sheets' request by the server.

import { el, clear } from "../lib/dom.js";

const idFor = (path) => `attack-o-${path.replace(/[^a-zA-Z0-9]+/g, "-")}`;

function valueAt(request, path) {
  return path.split(".").reduce((node, key) => (node && typeof node === "object" ? node[key] : undefined), request);
}

function setAt(target, path, value) {
  const keys = path.split(".");
  let node = target;
  for (const key of keys.slice(0, -1)) {
    node[key] = node[key] && typeof node[key] === "object" ? node[key] : {};
    node = node[key];
  }
  node[keys[keys.length - 1]] = value;
}

export class Overrides {
  constructor(container, { spec, onChange }) {
    this.container = container;
    this.spec = spec;
    // The server's own facts, which it refuses to have overridden: the
    // game's chain declares them and the tray spec carries them.
    this.protected = new Set(spec.protected || []);
    this.onChange = onChange;
    this.inputs = new Map(); // path -> {control, leaf}
    this.touched = new Map(); // path -> value the GM set
    this.base = null;
    this.action = null;
  }

  /** Forget the GM's changes: the attack changed (attacker, target, weapon). */
  forget() {
    this.touched.clear();
    this.base = null;
    this.action = null;
    this.inputs.clear();
    clear(this.container);
  }

  reset() {
    this.touched.clear();
    for (const [path, { control }] of this.inputs) this.write(control, valueAt(this.base, path));
  }

  leaves(fields, out = [], group = null) {
    for (const field of fields) {
      if (field.type === "group") this.leaves(field.fields, out, field.label);
      else if (["int", "bool", "choice"].includes(field.type) && !this.protected.has(field.path)) out.push({ ...field, group });
    }
    return out;
  }

  actionSpec(id) {
    return this.spec.actions.find((a) => a.id === id);
  }

  defaultFor(path) {
    const action = this.actionSpec(this.action || this.guessAction());
    const leaf = action && this.leaves(action.fields || []).find((f) => f.path === path);
    if (!leaf) return undefined;
    if (leaf.default !== undefined && leaf.default !== null) return leaf.default;
    if (leaf.type === "bool") return false;
    if (leaf.type === "choice") return leaf.choices[0];
    if (leaf.values) return leaf.values[0];
    return Math.max(leaf.min ?? 2, Math.min(leaf.max ?? 2, 2));
  }

  /** The attack action of the game, before any preview has named it. */
  guessAction() {
    const ids = this.spec.actions.map((a) => a.id);
    return ["attack", "opposed", "roll", "check"].find((id) => ids.includes(id));
  }

  /** The previewed request (the sheets' pools with the changes laid over). */
  show(request) {
    if (!request) return;
    if (this.base && this.action === request.action) {
      for (const [path, { control }] of this.inputs) {
        if (!this.touched.has(path) && document.activeElement !== control) this.write(control, valueAt(request, path));
      }
      return;
    }
    this.base = request;
    this.action = request.action;
    this.build(this.actionSpec(request.action), request);
  }

  build(action, request) {
    clear(this.container);
    this.inputs.clear();
    if (!action?.fields) return;
    const grid = el("div", { class: "tray-fields" });
    for (const leaf of this.leaves(action.fields)) {
      const id = idFor(leaf.path);
      const label = leaf.group ? `${leaf.group}: ${leaf.label}` : leaf.label;
      let control;
      if (leaf.type === "bool") {
        control = el("input", { type: "checkbox", id, name: leaf.path });
      } else if (leaf.type === "choice" || leaf.values) {
        control = el("select", { id, name: leaf.path });
        if (leaf.nullable) control.append(el("option", { value: "", text: "—" }));
        for (const v of leaf.values || leaf.choices) control.append(el("option", { value: String(v), text: leaf.choice_labels?.[v] ?? String(v) }));
      } else {
        control = el("input", { type: "number", id, name: leaf.path, min: leaf.min, max: leaf.max, step: 1, inputmode: "numeric" });
      }
      this.write(control, valueAt(request, leaf.path));
      control.addEventListener("change", () => this.changed(leaf, control));
      // Typing a number asks for odds as it goes (debounced by the panel), so
      // the preview is never one change behind what the box shows.
      if (control.type === "number") control.addEventListener("input", () => this.changed(leaf, control));
      this.inputs.set(leaf.path, { control, leaf });
      const box = leaf.type === "bool" ? el("div", { class: "field inline-check" }, control, el("label", { for: id, text: label })) : el("div", { class: "field" }, el("label", { for: id, text: label }), control);
      grid.append(box);
    }
    this.container.append(grid);
  }

  write(control, value) {
    if (control.type === "checkbox") control.checked = !!value;
    else control.value = value === null || value === undefined ? "" : String(value);
  }

  read1(control, leaf) {
    if (control.type === "checkbox") return control.checked;
    if (control.value === "") return null;
    if (leaf.type === "choice") return control.value;
    const n = Number(control.value);
    return Number.isInteger(n) ? n : control.value; // the server names a bad value
  }

  changed(leaf, control) {
    const value = this.read1(control, leaf);
    const base = valueAt(this.base, leaf.path) ?? null;
    if (value === base) this.touched.delete(leaf.path);
    else this.touched.set(leaf.path, value);
    this.onChange?.();
  }

  /** overrides.attack: the page's fills for a sheetless attacker, then the GM's changes; null if none. */
  read(fills = {}) {
    const out = {};
    for (const [path, value] of Object.entries(fills)) if (path !== "__sheetless") setAt(out, path, value);
    for (const [path, value] of this.touched) setAt(out, path, value);
    return Object.keys(out).length || fills.__sheetless ? out : null;
  }
}
