// The odds of every outcome before the roll, as a bar chart, and one
// distribution (successes, total, margin, damage, or a Condition after an
// attack) as a small histogram, with the expected values the answer carries.
// A roll whose only outcome is a number (a numeric roll) gets no outcome bar:
// "rolled 100%" says nothing.

import { el, clear } from "../lib/dom.js";
import { chance, label } from "../room/words.js";

const DISTRIBUTIONS = ["successes", "total", "margin", "damage"];
// Far tails of a distribution are left off the histogram: nobody can see them.
const TAIL = 0.0005;

const pct = (p) => (p >= 0.9995 ? "100%" : p < 0.0005 && p > 0 ? "<0.1%" : `${(p * 100).toFixed(1)}%`);
const words = (s) => String(s).replaceAll("_", " ");
// Outcome ids as the bars name them.
const OUTCOME_WORDS = { actor: "Roller wins", opponent: "Roller loses", draw: "Draw" };
const outcomeName = (o) => OUTCOME_WORDS[o] || label(o);

export function drawOdds(container, odds, { distributions = DISTRIBUTIONS, expected = false } = {}) {
  clear(container);
  const bars = el("ul", { class: "odds-bars", "aria-label": "Chance of each outcome" });
  const outcomes = Object.entries(odds.outcomes || {});
  // One certain outcome is no choice: the distribution below says it all.
  const numeric = outcomes.length === 1 && outcomes[0][1] >= 0.9995;
  for (const [outcome, p] of numeric ? [] : outcomes) {
    const bar = el("span");
    bar.style.width = `${Math.max(0, Math.min(1, p)) * 100}%`;
    bars.append(
      el(
        "li",
        { class: `o-${outcome}`, "data-outcome": outcome },
        el("span", { class: "name", text: outcomeName(outcome) }),
        el("span", { class: "bar", "aria-hidden": "true" }, bar),
        el("span", { class: "pct", text: pct(p) }),
      ),
    );
  }
  if (bars.childElementCount) container.append(bars);
  const name = distributions.find((key) => odds[key] && typeof odds[key] === "object");
  if (name) {
    const entries = trim(toPairs(odds[name]));
    if (entries.length > 1) {
      const top = Math.max(...entries.map(([, p]) => p));
      const hist = el("div", { class: "odds-dist", role: "img", "aria-label": `Distribution of ${words(name)}` });
      for (const [value, p] of entries) {
        const bar = el("span", { title: `${words(name)} ${value}: ${pct(p)}` });
        bar.style.height = `${top ? (p / top) * 100 : 0}%`;
        hist.append(bar);
      }
      const lo = entries[0][0];
      const hi = entries[entries.length - 1][0];
      container.append(hist, el("p", { class: "note", text: `${label(name)} from ${lo} to ${hi}` }));
    } else if (entries.length === 1) {
      // Nothing left to chance (a passive value): say the one result.
      container.append(el("p", { class: "odds-certain", text: `${label(name)}: ${entries[0][0]}, certain` }));
    }
  }
  if (expected) {
    const means = Object.entries(odds)
      .filter(([key, value]) => key.startsWith("expected_") && typeof value === "number")
      .map(([key, value]) => `${label(key.replace(/^expected_/, ""))} on average: ${value.toFixed(2)}`);
    if (means.length) container.append(el("p", { class: "note", text: means.join(" · ") }));
  }
  if (odds.truncated_mass > 0) {
    // Exploding dice could go on for ever: the odds leave out what is rarer than this.
    container.append(
      el("p", { class: "note", text: `Exploding dice: endings rarer than ${chance(odds.truncated_mass).replace(/^(about|less than) /, "")} are left out of these odds.` }),
    );
  }
}

/** [value, p] pairs: numbers sorted; named values (a Condition track) in the answer's order. */
function toPairs(dist) {
  const pairs = Array.isArray(dist) ? dist.map(([v, p]) => [v, p]) : Object.entries(dist);
  const clean = pairs.filter(([, p]) => typeof p === "number");
  if (clean.every(([v]) => Number.isFinite(Number(v)))) {
    return clean.map(([v, p]) => [Number(v), p]).sort((a, b) => a[0] - b[0]);
  }
  return clean;
}

function trim(pairs) {
  let lo = 0;
  let hi = pairs.length;
  while (lo < hi && pairs[lo][1] < TAIL) lo += 1;
  while (hi > lo && pairs[hi - 1][1] < TAIL) hi -= 1;
  return pairs.slice(lo, hi);
}

export function drawOddsError(container, message) {
  clear(container);
  container.append(el("p", { class: "note", text: message }));
}
