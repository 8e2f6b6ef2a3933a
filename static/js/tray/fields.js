// Draws a roll's fields from the tray spec (vtt/web/tray_spec.py) and reads
// them back into a rules request. The spec comes from the same field
// declarations the adjudicator validates, so a form cannot ask for
// something the rules do not take.

import { el } from "../lib/dom.js";

const idFor = (path) => `tray-f-${path.replace(/[^a-zA-Z0-9]+/g, "-")}`;

function clamp(v, lo, hi) {
  return Math.max(lo ?? v, Math.min(hi ?? v, v));
}

export class FieldSet {
  constructor(container, fields, context) {
    this.container = container;
    this.fields = fields;
    // { settings, onChange, fillable, pipsField, entries, requestSettings }:
    // requestSettings, the kit's, names the campaign setting that presets a
    // request field of another name.
    this.context = context;
    this.readers = [];
    this.container.append(...this.build(fields, this.readers));
  }

  setting(spec) {
    const { settings } = this.context;
    if (spec.path.includes(".")) return undefined;
    const key = this.context.requestSettings?.[spec.name] || spec.name;
    return settings && key in settings ? settings[key] : undefined;
  }

  build(fields, readers) {
    const grid = el("div", { class: "tray-fields" });
    const out = [grid];
    for (const spec of fields) {
      if (spec.type === "fixed") {
        const value = this.setting(spec);
        if (value !== undefined) readers.push([spec.name, () => value]);
      } else if (spec.type === "group") {
        const inner = [];
        const box = el("fieldset", { class: "tray-group" }, el("legend", { text: spec.label }));
        box.append(...this.build(spec.fields, inner));
        out.push(box);
        readers.push([spec.name, () => readAll(inner)]);
      } else if (spec.type === "list") {
        out.push(this.buildList(spec, readers));
      } else {
        const [node, read] = this.input(spec);
        grid.append(node);
        readers.push([spec.name, read]);
      }
    }
    return out;
  }

  input(spec) {
    const id = idFor(spec.path);
    const hintId = spec.hint ? `${id}-hint` : null;
    const label = el("label", { for: id, text: spec.label });
    const hint = spec.hint ? el("small", { class: "help", id: hintId, text: spec.hint }) : null;
    const preset = this.setting(spec);
    const change = () => this.context.onChange?.();
    let control;
    let read;
    if (spec.type === "bool") {
      control = el("input", { type: "checkbox", id, name: spec.path, "aria-describedby": hintId });
      control.checked = preset ?? spec.default ?? false;
      read = () => control.checked;
      control.addEventListener("change", change);
      return [el("div", { class: "field inline-check" }, control, label, hint), read];
    }
    if (spec.type === "choice" || spec.type === "pick" || spec.values) {
      control = el("select", { id, name: spec.path, "aria-describedby": hintId });
      const options = spec.type === "pick" ? this.picked(spec.from) : spec.values || spec.choices;
      if (spec.nullable) control.append(el("option", { value: "", text: "—" }));
      for (const value of options) control.append(el("option", { value: String(value), text: spec.choice_labels?.[value] ?? String(value).replaceAll("_", " ") }));
      const initial = preset ?? spec.default;
      control.value = initial === null || initial === undefined ? (spec.nullable ? "" : String(options[0])) : String(initial);
      read = () => {
        if (control.value === "") return undefined;
        return spec.values ? Number(control.value) : control.value;
      };
    } else {
      control = el("input", {
        type: "number",
        id,
        name: spec.path,
        inputmode: "numeric",
        step: 1,
        min: spec.min,
        max: spec.max,
        "aria-describedby": hintId,
      });
      const initial = preset ?? spec.default ?? clamp(2, spec.min, spec.max);
      control.value = String(initial);
      read = () => {
        const text = control.value.trim();
        if (text === "") return spec.default !== undefined ? undefined : "";
        const n = Number(text);
        return Number.isInteger(n) ? n : text; // the server names a bad value
      };
    }
    control.addEventListener("input", change);
    control.addEventListener("change", change);
    const box = el("div", { class: "field", "data-path": spec.path }, label, control, hint);
    const fromSheet = this.sheetPicker(spec, control);
    if (fromSheet) box.append(fromSheet);
    return [box, read];
  }

  /** "From the sheet": a character's entries that can fill this number. */
  sheetPicker(spec, control) {
    // The game's kit names the fields a sheet entry fills and the one taking its pips.
    const { fillable = [], pipsField, entries = [] } = this.context;
    if (!entries.length || !fillable.includes(spec.name)) return null;
    const id = `${control.id}-sheet`;
    const picker = el("select", { id, class: "from-sheet", "aria-label": `${spec.label} from the sheet` });
    picker.append(el("option", { value: "", text: "From the sheet…" }));
    entries.forEach((entry, i) => picker.append(el("option", { value: String(i), text: entry.label })));
    picker.addEventListener("change", () => {
      const entry = entries[Number(picker.value)];
      if (!entry) return;
      control.value = String(entry.value);
      const pipsPath = pipsField && spec.path.replace(/[^.]+$/, pipsField);
      const pips = pipsPath && this.container.querySelector(`[name="${CSS.escape(pipsPath)}"]`);
      if (pips && entry.pips !== undefined) pips.value = String(entry.pips);
      this.context.onChange?.();
    });
    return picker;
  }

  /** A "pick" widget's names: the campaign setting `from`, else the
   *  default of the request's fixed field of that name. */
  picked(from) {
    const { settings } = this.context;
    if (settings?.[from]) return settings[from];
    const fixed = this.fields.find((f) => f.name === from);
    return fixed?.default || [];
  }

  buildList(spec, readers) {
    const box = el("fieldset", { class: "tray-list" }, el("legend", { text: spec.label }));
    const rows = [];
    const holder = el("div", { class: "stack" });
    const add = el("button", { type: "button", text: "Add one" });
    const remove = el("button", { type: "button", text: "Remove the last" });
    const sync = () => {
      add.disabled = rows.length >= spec.max;
      remove.disabled = rows.length <= spec.min;
    };
    const addRow = () => {
      const inner = [];
      const n = rows.length + 1;
      const item = spec.item.map((f) => ({ ...f, path: f.path.replace("[]", `[${n - 1}]`) }));
      const row = el("fieldset", {}, el("legend", { text: `#${n}` }));
      row.append(...this.build(item, inner));
      rows.push({ row, inner });
      holder.append(row);
      sync();
      this.context.onChange?.();
    };
    add.addEventListener("click", addRow);
    remove.addEventListener("click", () => {
      rows.pop()?.row.remove();
      sync();
      this.context.onChange?.();
    });
    for (let i = 0; i < Math.max(spec.min, 1); i += 1) addRow();
    box.append(holder, el("div", { class: "row" }, add, remove));
    readers.push([spec.name, () => rows.map((r) => readAll(r.inner))]);
    return box;
  }

  read() {
    return readAll(this.readers);
  }
}

function readAll(readers) {
  const out = {};
  for (const [name, read] of readers) {
    const value = read();
    if (value !== undefined) out[name] = value;
  }
  return out;
}

export function fieldElement(container, path) {
  return path ? container.querySelector(`[name="${CSS.escape(path)}"]`) : null;
}
