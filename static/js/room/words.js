// How the log says things a person reads: field names as words, values
// without raw booleans or exponents, chances as "1 in a million", times as
// HH:MM, and a sentence with its numbers in bold. Everything is built from
// text nodes: a name that looks like markup stays text.

import { el } from "../lib/dom.js";

// Field names a result or request may carry, and values that are ids, in
// the game's own words: its kit's (the tray spec's `labels` and `said`,
// vtt/games/kit.py), set once by the room page with useGameWords. A key no
// table has is still said in words (underscores become spaces).
let LABELS = {};
let VALUES = {};

/** The campaign's game's words for the log, from the tray spec. */
export function useGameWords(spec) {
  LABELS = { ...(spec?.labels || {}) };
  VALUES = { ...(spec?.said || {}) };
}
// Shown elsewhere in the entry (the dice) or only the machine's business.
const HIDDEN = new Set(["system", "dice", "faces", "check"]);

export const words = (s) => String(s).replaceAll("_", " ");

export function label(key) {
  if (LABELS[key]) return LABELS[key];
  const said = words(key);
  return said.charAt(0).toUpperCase() + said.slice(1);
}

/** The game's words for a request (the tray spec's: vtt/web/tray_spec.py),
 *  so no field name of any game is written here: `field(action, path)` is a
 *  request field's label ("attacker.finesse" -> "Finesse dice"), `group`
 *  the label of the object a field sits in, `choice(v)` a choice value,
 *  `fixed(action, path)` whether the field is one the tray never shows. */
export function gameWords(spec) {
  const labels = new Map();
  const fixed = new Set();
  const walk = (fields, action) => {
    for (const f of fields || []) {
      labels.set(`${action}:${f.path}`, f.label);
      if (f.type === "fixed") fixed.add(`${action}:${f.path}`);
      if (f.type === "group") walk(f.fields, action);
      for (const [v, said] of Object.entries(f.choice_labels || {})) labels.set(`value:${v}`, said);
    }
  };
  for (const action of spec?.actions || []) walk(action.fields, action.id);
  for (const [v, said] of Object.entries(spec?.values || {})) labels.set(`value:${v}`, said);
  return {
    field: (action, path) => labels.get(`${action}:${path}`) || label(path.split(".").pop()),
    choice: (v) => labels.get(`value:${v}`) || value(v),
    fixed: (action, path) => fixed.has(`${action}:${path}`),
  };
}

/** A chance as a person says it: "12.5%", "less than 1 in a million". */
export function chance(p) {
  if (typeof p !== "number" || !Number.isFinite(p)) return "";
  if (p >= 0.9995) return "certain";
  if (p <= 0) return "none";
  if (p >= 0.001) return `${(p * 100).toFixed(p >= 0.1 ? 0 : 1)}%`;
  const n = 1 / p;
  if (n >= 1e12) return "less than 1 in a trillion";
  for (const [size, name] of [[1e9, "billion"], [1e6, "million"], [1e3, "thousand"]]) {
    if (n >= size) return `about 1 in ${Number((n / size).toPrecision(2))} ${name}`;
  }
  return `about 1 in ${Math.round(n)}`;
}

/** A value in words: no true/false, no exponents, ids as words. */
export function value(v) {
  if (v === true) return "Yes";
  if (v === false) return "No";
  if (v === null || v === undefined) return "—";
  if (typeof v === "number") {
    if (Number.isInteger(v)) return String(v);
    if (Math.abs(v) < 0.001) return chance(Math.abs(v));
    return String(Math.round(v * 100) / 100);
  }
  if (Array.isArray(v)) return v.map(value).join(", ");
  if (typeof v === "string") return VALUES[v] || words(v);
  return "";
}

/** A <dl> of every field of `data`, nested objects as their own groups. */
export function fieldList(data, prefix = "") {
  const dl = el("dl", { class: "fields" });
  for (const [key, v] of Object.entries(data || {})) {
    if (HIDDEN.has(key) || v === null || v === undefined) continue;
    const name = prefix ? `${prefix}: ${label(key)}` : label(key);
    if (typeof v === "object" && !Array.isArray(v)) {
      const inner = fieldList(v, name);
      if (inner.childElementCount) dl.append(...inner.childNodes);
      continue;
    }
    if (Array.isArray(v) && v.some((x) => typeof x === "object" && x !== null)) {
      v.forEach((item, i) => {
        if (item && typeof item === "object") dl.append(...fieldList(item, `${name} ${i + 1}`).childNodes);
      });
      continue;
    }
    dl.append(el("dt", { text: name }), el("dd", { text: value(v) }));
  }
  return dl;
}

/** Every field, under a summary, for whoever wants them. */
export function details(parts, summary = "Every number") {
  const box = el("details", { class: "entry-details" }, el("summary", { text: summary }));
  for (const [title, data] of parts) {
    const list = fieldList(data);
    if (!list.childElementCount) continue;
    if (title) box.append(el("p", { class: "fields-title", text: title }));
    box.append(list);
  }
  return box;
}

const NUMBER = /(\d+D(?:[+-]\d+)?|\d+d6|\d+(?:\.\d+)?)/g;

/** The sentence with its numbers in <strong>, names left as they are. */
export function emphasised(text, names = []) {
  const frag = document.createDocumentFragment();
  const known = [...new Set(names.filter((n) => typeof n === "string" && n))].sort((a, b) => b.length - a.length);
  const pieces = [String(text)];
  // Names are cut out first so a "Goblin 2" keeps its number plain.
  const split = (piece) => {
    for (const name of known) {
      const at = piece.indexOf(name);
      if (at >= 0) return [...split(piece.slice(0, at)), { name }, ...split(piece.slice(at + name.length))];
    }
    return piece ? [piece] : [];
  };
  for (const part of pieces.flatMap(split)) {
    if (typeof part === "object") {
      frag.append(el("span", { class: "name", text: part.name }));
      continue;
    }
    let last = 0;
    for (const match of part.matchAll(NUMBER)) {
      if (match.index > last) frag.append(part.slice(last, match.index));
      frag.append(el("strong", { text: match[0] }));
      last = match.index + match[0].length;
    }
    if (last < part.length) frag.append(part.slice(last));
  }
  return frag;
}

/** <time datetime=...>HH:MM</time> in the reader's own clock. */
export function timeOf(iso) {
  if (!iso) return null;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  const hhmm = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
  return el("time", { datetime: at.toISOString(), title: at.toLocaleString(), text: hhmm });
}
