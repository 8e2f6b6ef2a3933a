// The roller's own result, shown at once where they are looking: a card at
// the bottom of the screen (above the tray on a phone) with the sentence and
// the dice, announced by a polite live region. The dice tumble briefly
// unless the reader asked for reduced motion (static/css/log.css).
//
// The tray and the attack panel say which roll they sent (the ack's roll
// id); the log passes every roll it draws. Whichever comes second shows it,
// so an old roll replayed from a snapshot never pops up.

import { el } from "../lib/dom.js";
import { emphasised } from "./words.js";

const SHOWN_FOR_MS = 8000;
// A hidden roll's card says so, as its log entry's tag does: the roller
// must not take it for a roll the table saw.
const HIDDEN_WORDS = {
  gm: "Hidden roll: GM only. The players do not see it.",
  self: "Hidden roll: only the roller and the GM see it.",
};
const KEPT = 20; // rolls remembered while their ack is on its way

let region = null;
let hideTimer = null;
const waiting = new Set(); // roll ids sent from this page, not yet drawn
const drawn = new Map(); // roll id -> entry, drawn before its ack came

function live() {
  if (region) return region;
  // One live region for the page's life: a region made at the moment it
  // is filled is often not announced.
  region = el("div", { class: "roll-toast-region", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  document.body.append(region);
  return region;
}

if (typeof document !== "undefined" && document.body) live();

export function dismiss() {
  clearTimeout(hideTimer);
  live().replaceChildren();
}

/** Show `sentence` with its dice (a list of {face, role}) in the toast. */
export function show({ sentence, dice = [], names = [], outcome = "", visibility = "public" }) {
  const box = live();
  clearTimeout(hideTimer);
  // On a phone the card sits at the top of the map, below its tools and the turn strip.
  const map = document.getElementById("map-wrap");
  if (map) box.style.setProperty("--map-top", `${Math.max(0, map.getBoundingClientRect().top) + 6}px`);
  const faces = dice.filter((d) => d && d.face !== undefined).slice(0, 24);
  const card = el(
    "div",
    { class: `roll-toast ${outcome}`.trim(), "data-fresh": "true", "data-visibility": visibility },
    faces.length
      ? el(
          "ul",
          { class: "toast-dice", "aria-hidden": "true" },
          faces.map((d) => el("li", { class: `die role-${d.role || "regular"}`, text: String(d.face) })),
        )
      : null,
    el("p", { class: "toast-sentence" }, emphasised(sentence, names)),
    HIDDEN_WORDS[visibility] ? el("p", { class: "toast-hidden", text: HIDDEN_WORDS[visibility] }) : null,
    el("button", { type: "button", class: "toast-close", "aria-label": "Dismiss the result", text: "×", onclick: dismiss }),
  );
  box.replaceChildren(card);
  hideTimer = setTimeout(dismiss, SHOWN_FOR_MS);
}

/** The tray sent a roll: show it when the log has it (or now, if it has). */
export function expectRoll(rollId) {
  if (rollId === undefined || rollId === null) return;
  const entry = drawn.get(rollId);
  if (entry) {
    drawn.delete(rollId);
    show(entry);
  } else waiting.add(rollId);
}

/** The log drew a roll: show it if this page sent it. */
export function rollDrawn(rollId, entry) {
  if (rollId === undefined || rollId === null) return;
  if (waiting.delete(rollId)) {
    show(entry);
    return;
  }
  drawn.set(rollId, entry);
  while (drawn.size > KEPT) drawn.delete(drawn.keys().next().value);
}
