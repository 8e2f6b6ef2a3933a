// The odds of every outcome before the roll, as a bar chart, and one
// distribution (successes, total or margin) as a small histogram.

import { el, clear } from "../lib/dom.js";

const DISTRIBUTIONS = ["successes", "total", "margin", "damage"];

const pct = (p) => (p >= 0.9995 ? "100%" : p < 0.0005 && p > 0 ? "<0.1%" : `${(p * 100).toFixed(1)}%`);

export function drawOdds(container, odds) {
  clear(container);
  const bars = el("ul", { class: "odds-bars", "aria-label": "Chance of each outcome" });
  for (const [outcome, p] of Object.entries(odds.outcomes || {})) {
    const bar = el("span");
    bar.style.width = `${Math.max(0, Math.min(1, p)) * 100}%`;
    bars.append(
      el(
        "li",
        { class: `o-${outcome}`, "data-outcome": outcome },
        el("span", { class: "name", text: outcome.replaceAll("_", " ") }),
        el("span", { class: "bar", "aria-hidden": "true" }, bar),
        el("span", { class: "pct", text: pct(p) }),
      ),
    );
  }
  container.append(bars);
  const name = DISTRIBUTIONS.find((key) => odds[key] && typeof odds[key] === "object");
  if (name) {
    const entries = toPairs(odds[name]);
    if (entries.length > 1) {
      const top = Math.max(...entries.map(([, p]) => p));
      const hist = el("div", { class: "odds-dist", role: "img", "aria-label": `Distribution of ${name}` });
      for (const [value, p] of entries) {
        const bar = el("span", { title: `${name} ${value}: ${pct(p)}` });
        bar.style.height = `${top ? (p / top) * 100 : 0}%`;
        hist.append(bar);
      }
      const lo = entries[0][0];
      const hi = entries[entries.length - 1][0];
      container.append(hist, el("p", { class: "note", text: `${name} from ${lo} to ${hi}` }));
    }
  }
  if (odds.truncated_mass > 0) {
    container.append(el("p", { class: "note", text: `exploding dice cut below ${odds.truncated_mass.toExponential(1)}` }));
  }
}

function toPairs(dist) {
  const pairs = Array.isArray(dist) ? dist.map(([v, p]) => [Number(v), p]) : Object.entries(dist).map(([v, p]) => [Number(v), p]);
  return pairs.filter(([v, p]) => Number.isFinite(v) && typeof p === "number").sort((a, b) => a[0] - b[0]);
}

export function drawOddsError(container, message) {
  clear(container);
  container.append(el("p", { class: "note", text: message }));
}
