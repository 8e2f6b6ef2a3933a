// The Handouts tab: what the GM has handed this member (a title, a picture,
// text), read over REST, and a notice when a new one arrives
// ("handout.shared", addressed to this member alone). The GM also makes
// handouts here and shares them with everyone or chosen members.
//
// The text comes rendered by the server (Markdown, sanitized there against
// its one allow-list of tags and link schemes: vtt/handouts/text.py). The
// page reads that HTML in an inert document (nothing in it runs or loads
// while it is read) and takes its nodes as they are.

import { getJSON, postJSON, sendForm } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { describeError } from "../lib/errors.js";

const NOTICE_MS = 10000;

/** The server's rendering of a handout's text, as nodes of this page. */
export function textNodes(html) {
  const parsed = new DOMParser().parseFromString(html || "", "text/html");
  // A link opens beside the room, never in its place.
  for (const link of parsed.body.querySelectorAll("a[href]")) {
    link.target = "_blank";
    link.rel = "noopener noreferrer nofollow";
  }
  return [...parsed.body.childNodes].map((node) => document.importNode(node, true));
}

export class Handouts {
  constructor(panel, { config, may, tab, onOpen }) {
    this.panel = panel;
    this.config = config;
    this.may = may;
    this.tab = tab;
    this.onOpen = onOpen;
    this.list = panel.querySelector("#handout-list");
    this.unread = tab.querySelector(".unread");
    this.count = 0;
    this.items = [];
    this.notice = el("div", { class: "handout-notice-region", role: "status", "aria-live": "polite" });
    document.body.append(this.notice);
    if (may.runsTable) this.makeForm(panel.querySelector("#handout-form"));
  }

  async load() {
    const answer = await getJSON(`${this.config.api.handouts}?page_size=100`);
    if (!answer.ok) return;
    this.items = answer.data.results || [];
    this.draw();
  }

  shown() {
    this.mark(0);
  }

  /** A "handout.shared" event's data, as this member received it. */
  arrived(data) {
    this.load();
    if (data.to?.id !== this.config.me.id) return; // the GM's own hand: no notice
    if (this.panel.hidden) this.mark(this.count + 1);
    this.notify(data);
  }

  notify(data) {
    clearTimeout(this.timer);
    const open = el("button", { type: "button", text: "Read it", onclick: () => { this.notice.replaceChildren(); this.onOpen(); } });
    const close = el("button", { type: "button", class: "close", "aria-label": "Dismiss", text: "×", onclick: () => this.notice.replaceChildren() });
    const who = data.from?.name || "The GM";
    this.notice.replaceChildren(
      el("div", { class: "handout-notice" }, el("p", {}, `${who} handed you `, el("strong", { text: data.handout?.title || "a handout" })), open, close),
    );
    this.timer = setTimeout(() => this.notice.replaceChildren(), NOTICE_MS);
  }

  mark(count) {
    this.count = count;
    this.unread.hidden = count === 0;
    this.unread.textContent = String(count);
    this.unread.setAttribute("aria-label", `${count} new`);
  }

  draw() {
    if (!this.items.length) {
      const none = this.may.runsTable ? "No handouts yet: make one below." : "Nothing has been handed to you yet.";
      this.list.replaceChildren(el("li", { class: "note", text: none }));
      return;
    }
    this.list.replaceChildren(...[...this.items].reverse().map((h) => this.item(h)));
  }

  item(handout) {
    const parts = [el("h3", { text: handout.title })];
    if (handout.image) parts.push(el("img", { src: handout.image, alt: handout.title, loading: "lazy" }));
    if (handout.html) parts.push(el("div", { class: "handout-text" }, ...textNodes(handout.html)));
    if (this.may.runsTable) parts.push(this.sharing(handout));
    return el("li", { class: "handout", "data-handout": handout.id }, el("article", {}, ...parts));
  }

  /** The GM's controls: who has it, and whom to let in (never out). */
  sharing(handout) {
    const members = (this.config.members || []).filter((m) => m.id !== this.config.me.id);
    const has = new Set(handout.shared_with || []);
    const boxes = members.map((m) => {
      const id = `handout-${handout.id}-to-${m.id}`;
      const given = handout.everyone || has.has(m.id);
      return el("span", { class: "inline-check" }, el("input", { type: "checkbox", id, value: m.id, checked: given, disabled: given }), el("label", { for: id, text: m.name }));
    });
    const everyoneId = `handout-${handout.id}-everyone`;
    const everyone = el("span", { class: "inline-check" }, el("input", { type: "checkbox", id: everyoneId, checked: handout.everyone, disabled: handout.everyone }), el("label", { for: everyoneId, text: "Everyone" }));
    const error = el("p", { class: "error", role: "alert" });
    const form = el("form", { class: "handout-share" }, el("fieldset", {}, el("legend", { text: handout.everyone ? "Shared with everyone" : "Share with" }), everyone, ...boxes), el("button", { type: "submit", text: "Share", disabled: handout.everyone }), error);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = {
        everyone: form.querySelector(`#${everyoneId}`).checked,
        members: [...form.querySelectorAll("input[value]:checked:not(:disabled)")].map((box) => Number(box.value)),
      };
      const answer = await postJSON(`${this.config.api.handout}${handout.id}/share/`, body);
      if (!answer.ok) error.textContent = describeError(answer.data?.error);
      else this.load();
    });
    return form;
  }

  makeForm(form) {
    if (!form) return;
    const error = form.querySelector(".error");
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      error.textContent = "";
      const data = new FormData(form);
      if (!data.get("image")?.size) data.delete("image");
      const answer = await sendForm(this.config.api.handouts, "POST", data);
      if (!answer.ok) {
        error.textContent = describeError(answer.data?.error);
        return;
      }
      form.reset();
      this.load();
    });
  }
}
