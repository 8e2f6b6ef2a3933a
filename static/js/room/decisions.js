// The decisions waiting for this member, where they are looking: a
// "Decisions N" button in the room bar opens the queue (attacker -> target,
// the damage, Apply / Decline; a defender's resource panel where the game
// declares a reaction, its kit's), and a toast says when a new one arrives.
//
// The server is the authority on what is pending and for whom
// (vtt.combat.services.decisions): the snapshot carries the list, and any
// entry that can change it (an attack, damage applied or declined, an undo,
// a sheet's counters) asks for it again with the "decisions" intent. An
// entry the server finds stale (undone, its target out of the fight, a
// later hit applied since) says why and offers only Decline. The log's own
// buttons follow the same list (onChange).

import { el } from "../lib/dom.js";
import { describeError } from "../lib/errors.js";

const CHANGING = new Set(["combat.attack", "combat.damage", "combat.declined", "undo", "reveal", "character.updated"]);
const TOAST_MS = 8000;

export class Decisions {
  constructor(button, { socket, may, onChange, reaction = null }) {
    this.button = button;
    // The resource a defender spends against a hit, as the kit declares it:
    // `field` names both the intent's amount and what the decision says they have.
    this.reaction = reaction;
    this.count = button.querySelector(".count");
    this.socket = socket;
    this.may = may; // what this member may do (./may.js)
    this.onChange = onChange;
    this.list = [];
    this.known = null; // attack ids seen, so a toast is for new ones only
    this.asking = null;
    this.again = false;
    this.panel = el("section", { class: "decisions-panel", id: "decisions-panel", "aria-label": "Decisions", hidden: true });
    this.items = el("ul", { class: "decisions-list" });
    this.panel.append(el("h2", { text: "Decisions waiting for you" }), this.items);
    this.toast = el("div", { class: "decision-toast", role: "status", "aria-live": "polite", hidden: true });
    document.body.append(this.panel, this.toast);
    button.addEventListener("click", () => this.toggle());
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !this.panel.hidden) this.toggle(false);
    });
    // A popover: a press anywhere else folds it away.
    document.addEventListener("pointerdown", (e) => {
      if (!this.panel.hidden && !this.panel.contains(e.target) && !button.contains(e.target)) this.toggle(false);
    });
  }

  /** The list as the server gave it; `announce`: toast the new ones. */
  set(list, announce) {
    this.list = list || [];
    const ids = new Set(this.list.map((d) => d.attack));
    if (announce && this.known) {
      const fresh = this.list.filter((d) => !this.known.has(d.attack) && !d.stale);
      if (fresh.length) this.announce(fresh[fresh.length - 1], fresh.length);
    }
    this.known = ids;
    this.draw();
    this.onChange?.(this.list);
  }

  /** A live log entry: refresh when it may have changed the list. */
  event(event) {
    if (CHANGING.has(event.type)) this.refresh();
  }

  refresh() {
    if (this.asking) {
      this.again = true; // one more once this answer is in: it may be older
      return this.asking;
    }
    this.asking = this.socket
      .send({ type: "decisions" })
      .then((ack) => this.set(ack.decisions, true))
      .catch(() => {}) // offline: the next snapshot brings the list
      .finally(() => {
        this.asking = null;
        if (this.again) {
          this.again = false;
          this.refresh();
        }
      });
    return this.asking;
  }

  toggle(open = this.panel.hidden) {
    this.panel.hidden = !open;
    this.button.setAttribute("aria-expanded", String(open));
    if (open) this.toast.hidden = true; // the queue says it all, uncovered
    if (open) this.panel.querySelector("button:not([disabled]), input")?.focus();
    else if (document.activeElement && this.panel.contains(document.activeElement)) this.button.focus();
  }

  draw() {
    const n = this.list.length;
    if (n === 0 && !this.panel.hidden) this.toggle(false); // all decided
    this.count.textContent = String(n);
    this.button.hidden = n === 0 && this.panel.hidden;
    this.button.classList.toggle("waiting", this.list.some((d) => !d.stale));
    this.button.setAttribute("aria-label", `Decisions: ${n} waiting`);
    this.items.replaceChildren(...this.list.map((d) => this.entry(d)));
    if (!n) this.items.append(el("li", { class: "empty", text: "Nothing waits for you." }));
  }

  entry(d) {
    const reaction = this.reaction;
    const error = el("p", { class: "error", role: "alert" });
    const item = el("li", { class: `decision${d.stale ? " stale" : ""}`, "data-attack": d.attack });
    const send = (intent, buttons) => {
      for (const b of buttons) b.disabled = true;
      error.textContent = "";
      return this.socket
        .send(intent)
        .then(() => this.refresh())
        .catch((e) => {
          error.textContent = describeError(e);
          for (const b of buttons) b.disabled = false;
          this.refresh();
        });
    };
    const seq = d.seq ? ` (#${d.seq})` : "";
    item.append(
      el("p", { class: "who", text: `${d.attacker} → ${d.target}${seq}` }),
      el("p", { class: "what", text: d.kind === "reaction" && reaction ? `${d.damage} damage; ${reaction.label} may take some off (${d.have} left)` : `${d.damage} damage` }),
    );
    if (d.stale) item.append(el("p", { class: "stale-reason", text: `Cannot apply: ${d.stale.message}.` }));
    const row = el("div", { class: "row" });
    const buttons = [];
    if (d.kind === "reaction" && reaction) {
      const have = d.have ?? 0;
      const points = el("input", { type: "number", class: "amount", min: 0, max: Math.max(0, Math.min(have, d.damage ?? 0)), step: 1, value: 0, inputmode: "numeric", id: `decision-ap-${d.attack}` });
      const take = el("button", { type: "button", class: "primary decision-apply", text: "Take the damage", disabled: Boolean(d.stale) });
      take.addEventListener("click", () => send({ type: "reaction", reaction: reaction.id, attack: d.attack, values: { [reaction.field]: Number(points.value) } }, buttons));
      row.append(el("label", { for: points.id, text: reaction.label }), points, take);
      buttons.push(take);
    } else if (this.may.runsTable) {
      const apply = el("button", { type: "button", class: "primary decision-apply", text: `Apply ${d.damage ?? 0}`, disabled: Boolean(d.stale) });
      apply.addEventListener("click", () => send({ type: "attack.damage", attack: d.attack }, buttons));
      row.append(apply);
      buttons.push(apply);
    }
    if (this.may.runsTable) {
      const decline = el("button", { type: "button", class: "decision-decline", text: "Decline" });
      decline.addEventListener("click", () => send({ type: "attack.decline", attack: d.attack }, buttons));
      row.append(decline);
      buttons.push(decline);
    }
    item.append(row, error);
    return item;
  }

  announce(d, many) {
    clearTimeout(this.toastTimer);
    const more = many > 1 ? ` (${many} new)` : "";
    const open = el("button", { type: "button", class: "primary", text: "Open" });
    open.addEventListener("click", () => this.toggle(true));
    this.toast.replaceChildren(el("span", { text: `Decision for you${more}: ${d.attacker} → ${d.target}, ${d.damage} damage.` }), open);
    this.toast.hidden = false;
    this.toastTimer = setTimeout(() => {
      this.toast.hidden = true;
    }, TOAST_MS);
  }
}
