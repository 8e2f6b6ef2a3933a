// The roll log: each roll as a sentence in the game's own words (from the
// server's game kit) with its numbers in bold, the roller and the time, the
// dice with their faces (the Wild Die and its explosions set apart by the
// die's `role`), and every field of the result under "Every number".

import { el } from "../lib/dom.js";
import { details, emphasised, label, timeOf, words } from "./words.js";
import { rollDrawn } from "./toast.js";
import { PinnedScroll } from "../lib/pinned.js";

const GOOD = new Set(["success", "hit", "wild_success", "passive", "rolled", "unharmed", "actor"]);
const BAD = new Set(["failure", "miss", "dire_failure", "dead", "incapacitated", "out_of_range", "damaged", "opponent"]);
// A die's role ("wild") in the game's words: its kit's (the tray spec's
// `dice`), set once by the room page.
let ROLE_WORDS = {};

export function useDiceWords(spec) {
  ROLE_WORDS = { ...(spec?.dice || {}) };
}
const POOL_WORDS = { actor: "Roller's dice", opponent: "Dice against", attacker: "Attacker's dice", defender: "Defender's dice" };
const VISIBILITY_TAGS = { gm: "GM only", self: "roller and GM", blind: "blind" };
// Physical dice were entered by a person: the session's seed does not give them.
export const PHYSICAL = "physical dice: not derived";

/** Where a throw's dice come from in its play session (docs/dice.md). */
export function drawLine(draw, me) {
  if (!draw) return null;
  const where = `Session ${draw.session}, roll ${draw.roll}`;
  if (draw.physical) return el("p", { class: "draw", text: `${where}: physical dice, not derived from the seed.` });
  const by = draw.nonce_by === "server" ? "the server's nonce" : "the roller's nonce";
  return el("p", { class: "draw", title: `nonce ${draw.nonce}`, text: `${where}, with ${by}.` });
}

export const outcomeClass = (outcome) => (GOOD.has(outcome) ? "good" : BAD.has(outcome) ? "bad" : "");

/** What a die says to a screen reader: "Wild Die: 6, success". */
export function dieWords(die) {
  const role = ROLE_WORDS[die.role] || words(die.role || "die");
  const counted = die.value !== undefined && die.value !== die.face ? ` counted as ${die.value}` : "";
  const success = die.success === true ? ", success" : "";
  return `${role.charAt(0).toUpperCase()}${role.slice(1)}: ${die.face}${counted}${success}`;
}

export class RollLog {
  constructor(list, { me, reroll, onReroll, onReveal, sessionPage, jump }) {
    this.list = list;
    // The tab's section scrolls, at a desk and on a phone.
    this.follow = new PinnedScroll(list.closest("section"), jump);
    this.me = me;
    this.sessionPage = sessionPage; // a session's number -> its check page
    this.reroll = reroll;
    this.onReroll = onReroll;
    this.onReveal = onReveal; // the GM's: show a hidden roll to everyone
  }

  clear() {
    this.list.replaceChildren();
    this.follow.toEnd(); // a fresh snapshot opens at its newest entry
  }

  has(seq) {
    return !!this.list.querySelector(`[data-seq="${seq}"]`);
  }

  add(event) {
    if (this.has(event.seq)) return;
    const item = event.data?.blind ? this.blind(event) : this.roll(event);
    this.put(item, event);
  }

  put(item, event) {
    item.dataset.seq = event.seq;
    this.list.append(item);
    this.appended();
  }

  /** An entry was appended: in view if the reader is at the newest, else counted. */
  appended() {
    this.follow.added();
  }

  blind(event) {
    const d = event.data;
    const who = d.roller?.name || "Someone";
    return el(
      "li",
      { class: "roll-entry blind" },
      el(
        "div",
        { class: "head" },
        el("span", { class: "who", text: who }),
        timeOf(event.at),
        el("span", { class: "tags" }, el("span", { class: "tag hidden", text: "blind: the GM sees it" })),
      ),
      el("p", { class: "sentence", text: `${who} made a blind roll (${label(d.action || "roll")}); only the GM sees the result.` }),
    );
  }

  roll(event) {
    const d = event.data;
    const result = d.result || {};
    const tags = el("span", { class: "tags" });
    if (d.physical) tags.append(el("span", { class: "tag physical", text: PHYSICAL }));
    if (VISIBILITY_TAGS[d.visibility]) tags.append(el("span", { class: "tag hidden", text: VISIBILITY_TAGS[d.visibility] }));
    const outcome = result.outcome || "";
    const names = [d.character?.name, d.roller?.name];
    const who = d.character ? `${d.roller?.name || "Someone"} for ${d.character.name}` : d.roller?.name || "Someone";
    const sentence = d.sentence || `${d.character?.name || d.roller?.name || "Someone"} rolled.`;
    rollDrawn(d.roll_id, { sentence, dice: result.dice || [], names, outcome: outcomeClass(outcome), visibility: d.visibility });
    return el(
      "li",
      {
        class: "roll-entry",
        "data-roll-id": d.roll_id,
        "data-physical": d.physical ? "true" : "false",
        "data-outcome": outcome,
      },
      el("div", { class: "head" }, el("span", { class: "who", text: who }), timeOf(event.at), tags),
      // The result in the game's words, from the server's game kit.
      el("p", { class: `sentence ${outcomeClass(outcome)}`.trim() }, emphasised(sentence, names)),
      this.dice(result.dice || []),
      drawLine(d.draw),
      details([
        ["", result],
        ["Asked for", d.request || {}],
      ]),
      this.rerolls(d),
      this.reveal(event),
    );
  }

  /** A play session starts (its seed's digest) or ends (its seed). */
  session(event) {
    const d = event.data;
    const ended = event.type === "session.ended";
    const said = ended
      ? `Session ${d.session} ended. Its seed is out: every roll you saw can be checked.`
      : `Session ${d.session} started. Its dice are committed to before any roll.`;
    const item = el(
      "li",
      { class: "session-entry", "data-session": d.session, "data-ended": ended ? "true" : "false" },
      el("div", { class: "head" }, el("span", { class: "who", text: "Dice" }), timeOf(event.at)),
      el("p", { class: "sentence", text: said }),
      el("p", { class: "digest" }, "SHA-256 of the seed: ", el("code", { text: d.digest })),
      ended ? el("p", { class: "digest" }, "Seed: ", el("code", { text: d.seed })) : null,
      this.sessionPage
        ? el("a", { href: this.sessionPage(d.session), text: ended ? "Check the rolls" : "The session's rolls" })
        : null,
    );
    this.put(item, event);
  }

  /** The GM may show a hidden, self or blind roll to everyone, once. */
  reveal(event) {
    const visibility = event.data?.visibility;
    if (!this.onReveal || !visibility || visibility === "public") return null;
    const box = el("div", { class: "row reveal-row" });
    const error = el("p", { class: "error", role: "alert" });
    box.append(
      el("button", {
        type: "button",
        class: "reveal",
        text: "Reveal to everyone",
        onclick: () => this.onReveal(event.seq).catch((e) => (error.textContent = e.message || e.code)),
      }),
      error,
    );
    return box;
  }

  /** The roller may replace dice of their own result, as the game declares (its kit's reroll). */
  rerolls(d) {
    const result = d.result || {};
    // The game's kit says which results a later roll may replace dice of.
    const reroll = this.reroll;
    if (!reroll || !reroll.of.includes(result.action) || !this.onReroll) return null;
    if (d.roller?.id !== this.me.id) return null;
    const box = el("div", { class: "row reroll" });
    const choices = [
      [[0], `Reroll die 1 with ${reroll.spend}`],
      [[1], `Reroll die 2 with ${reroll.spend}`],
      [[0, 1], `Reroll both with ${reroll.spend}`],
    ];
    for (const [replace, label] of choices) {
      box.append(el("button", { type: "button", text: label, onclick: () => this.onReroll(d, replace) }));
    }
    return box;
  }

  dice(dice) {
    const pools = new Map();
    for (const die of dice) {
      if (!pools.has(die.pool)) pools.set(die.pool, []);
      pools.get(die.pool).push(die);
    }
    const box = el("div", { class: "dice-pools" });
    for (const [pool, list] of pools) {
      const name = POOL_WORDS[pool] || label(pool || "dice");
      const ul = el("ul", { class: "dice", "aria-label": pools.size > 1 ? name : "Dice" });
      if (pools.size > 1) box.append(el("span", { class: "pool-name", text: name }));
      for (const die of list) {
        const success = die.success === true ? " success" : die.success === false ? " fail" : "";
        const other = pool === "opponent" ? " opponent" : "";
        const said = dieWords(die);
        ul.append(
          el(
            "li",
            { class: `die role-${die.role}${success}${other}`, "data-role": die.role, "data-face": die.face, title: said },
            // The face for the eye, the whole die in words for a screen reader.
            el("span", { "aria-hidden": "true", text: String(die.face) }),
            die.value !== die.face ? el("span", { class: "mod", "aria-hidden": "true", text: `→${die.value}` }) : null,
            el("span", { class: "visually-hidden", text: said }),
          ),
        );
      }
      box.append(ul);
    }
    return box;
  }

  /** Every field of a result, for an attack's step (./combat_log.js). */
  facts(result, title = "") {
    return details([[title, result]], title ? `Every number: ${title}` : "Every number");
  }
}
