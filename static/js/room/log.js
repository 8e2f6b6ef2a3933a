// The roll log: every die with its face, the Wild Die and its explosions
// and checks set apart (the die's `role`), the outcome and the numbers
// that matter (successes, margin, cascade, total, result points, damage).

import { el } from "../lib/dom.js";

const GOOD = new Set(["success", "hit", "wild_success", "passive", "rolled", "unharmed"]);
const BAD = new Set(["failure", "miss", "dire_failure", "dead", "incapacitated", "out_of_range", "damaged"]);
const ROLE_WORDS = {
  regular: "die",
  wild: "Wild Die",
  explosion: "explosion",
  crit_check: "critical failure check",
  cp_wild: "Character Point die",
  rollup_wild: "Rolling Up die",
  botch_check: "botch check",
  luck: "luck die",
  insight: "Insight Die",
  reroll: "re-roll",
};
const VISIBILITY_TAGS = { gm: "GM only", self: "roller and GM", blind: "blind" };
const SKIP = new Set(["system", "action", "outcome", "dice"]);

const words = (s) => String(s).replaceAll("_", " ");


export class RollLog {
  constructor(list, { me, reroll, onReroll, onReveal }) {
    this.list = list;
    this.me = me;
    this.reroll = reroll;
    this.onReroll = onReroll;
    this.onReveal = onReveal; // the GM's: show a hidden roll to everyone
  }

  clear() {
    this.list.replaceChildren();
  }

  has(seq) {
    return !!this.list.querySelector(`[data-seq="${seq}"]`);
  }

  add(event) {
    if (this.has(event.seq)) return;
    const item = event.data?.blind ? this.blind(event) : this.roll(event);
    item.dataset.seq = event.seq;
    this.list.append(item);
    this.scrollToEnd();
  }

  /** Show the newest entry: on a phone the list scrolls, at a desk its section. */
  scrollToEnd() {
    this.list.scrollTop = this.list.scrollHeight;
    const section = this.list.closest("section");
    if (section) section.scrollTop = section.scrollHeight;
  }

  blind(event) {
    const d = event.data;
    return el(
      "li",
      { class: "roll-entry blind" },
      el(
        "div",
        { class: "head" },
        el("span", { class: "who", text: d.roller?.name || "someone" }),
        el("span", { class: "what", text: `made a blind roll (${words(d.action || "roll")})` }),
        el("span", { class: "tags" }, el("span", { class: "tag hidden", text: "blind: the GM sees it" })),
      ),
    );
  }

  roll(event) {
    const d = event.data;
    const result = d.result || {};
    const tags = el("span", { class: "tags" });
    if (d.physical) tags.append(el("span", { class: "tag physical", text: "physical dice" }));
    if (VISIBILITY_TAGS[d.visibility]) tags.append(el("span", { class: "tag hidden", text: VISIBILITY_TAGS[d.visibility] }));
    const outcome = result.outcome || "";
    const outcomeClass = GOOD.has(outcome) ? "good" : BAD.has(outcome) ? "bad" : "";
    const what = [d.character ? `for ${d.character.name}` : "", words(result.action || d.request?.action || "")]
      .filter(Boolean)
      .join(" · ");
    return el(
      "li",
      { class: "roll-entry", "data-roll-id": d.roll_id, "data-physical": d.physical ? "true" : "false" },
      el(
        "div",
        { class: "head" },
        el("span", { class: "who", text: d.roller?.name || "someone" }),
        el("span", { class: "what", text: what }),
        tags,
        el("span", { class: `outcome ${outcomeClass}`, text: words(outcome) }),
      ),
      // The result in the game's words, from the server's game kit.
      d.sentence ? el("p", { class: "sentence", text: d.sentence }) : null,
      this.dice(result.dice || []),
      this.facts(result),
      this.rerolls(d),
      this.reveal(event),
    );
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

  /** The roller may replace dice of their own result (Xero Sum: with Insight Dice). */
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
      const ul = el("ul", { class: "dice", "aria-label": `${words(pool)} dice` });
      if (pools.size > 1) box.append(el("span", { class: "facts", text: words(pool) }));
      for (const die of list) {
        const success = die.success === true ? " success" : die.success === false ? " fail" : "";
        const other = pool === "opponent" ? " opponent" : "";
        const label = `${ROLE_WORDS[die.role] || words(die.role)}: ${die.face}${die.value !== die.face ? ` counted as ${die.value}` : ""}${die.success === true ? ", success" : ""}`;
        ul.append(
          el(
            "li",
            {
              class: `die role-${die.role}${success}${other}`,
              "data-role": die.role,
              "data-face": die.face,
              title: label,
              "aria-label": label,
            },
            String(die.face),
            die.value !== die.face ? el("span", { class: "mod", text: `→${die.value}` }) : null,
          ),
        );
      }
      box.append(ul);
    }
    return box;
  }

  facts(result, prefix = "") {
    const parts = [];
    for (const [key, value] of Object.entries(result)) {
      if (SKIP.has(key) || value === null || value === undefined) continue;
      if (typeof value === "object" && !Array.isArray(value)) {
        const inner = this.factPairs(value);
        if (inner) parts.push([`${prefix}${words(key)}`, inner]);
      } else if (!Array.isArray(value) && value !== false) {
        parts.push([`${prefix}${words(key)}`, value === true ? "yes" : String(value)]);
      }
    }
    const p = el("p", { class: "facts" });
    parts.forEach(([k, v], i) => {
      if (i) p.append(" · ");
      p.append(`${k} `, el("b", { text: v }));
    });
    return p;
  }

  factPairs(obj) {
    return Object.entries(obj)
      .filter(([k, v]) => !SKIP.has(k) && v !== null && typeof v !== "object" && v !== false)
      .map(([k, v]) => `${words(k)} ${v === true ? "yes" : v}`)
      .join(", ");
  }
}
