// Chat: lines and whispers, rendered as text (textContent), never as HTML.
// Commands ("/r 3D diff 2", "/w gm ...", "/help") are the server's: this
// box only sends the line, with the page's current character (the tray's
// "For"), whom a roll without "as NAME" is for when the member has several.
// A roll typed here shows here as a compact card (the log has it in full)
// and pops up for its roller. What the server answers the sender alone (the
// help, a refusal) shows in a note under the box; the line stays in the box
// until the server has taken it.

import { el } from "../lib/dom.js";
import { PinnedScroll } from "../lib/pinned.js";
import { outcomeClass } from "./log.js";
import { expectRoll, show } from "./toast.js";
import { emphasised } from "./words.js";

export class Chat {
  constructor(list, form, socket, { me, may, jump, character } = {}) {
    this.list = list;
    this.character = character; // () => the page's current character id, or null
    this.follow = new PinnedScroll(list, jump);
    this.socket = socket;
    this.me = me || {};
    this.may = may; // what this member may do (./may.js)
    this.input = form.querySelector("input");
    this.note = el("p", { class: "chat-note", id: "chat-note", role: "status", "aria-live": "polite" });
    this.note.hidden = true;
    form.after(this.note);
    this.input.setAttribute("aria-describedby", "chat-note");
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
  }

  async submit() {
    const text = this.input.value.trim();
    if (!text) return;
    const intent = { type: "chat", text };
    const current = text.startsWith("/") ? this.character?.() : null;
    if (current) intent.character = current;
    try {
      const ack = await this.socket.send(intent);
      this.input.value = "";
      if (ack?.help) this.tell(ack.help, "help");
      else this.tell("");
      if (ack?.roll_id !== undefined) this.rolled(ack);
    } catch (error) {
      const where = error.field && error.field !== "text" ? `${error.field}: ` : "";
      this.tell(`Not sent: ${where}${error.message || error.code}`, "error");
    }
  }

  // The roller's pop-up: when the roll arrives, or at once for a player's
  // GM-only roll, which never comes back to their page.
  rolled(ack) {
    if (ack.visibility === "gm" && !this.may.runsTable) show({ sentence: "Your roll went to the GM.", visibility: "gm" });
    else expectRoll(ack.roll_id);
  }

  // The server's answer to this member alone; empty hides it.
  tell(text, kind = "") {
    this.note.textContent = text;
    this.note.dataset.kind = kind;
    this.note.hidden = !text;
  }

  clear() {
    this.list.replaceChildren();
    this.follow.toEnd();
  }

  add(event) {
    if (this.list.querySelector(`[data-seq="${event.seq}"]`)) return;
    const d = event.data || {};
    const item =
      event.type === "whisper"
        ? this.whisper(event.seq, d)
        : el(
            "li",
            { "data-seq": event.seq, class: "chat-line" },
            el("span", { class: "who", text: d.from?.name || "someone" }),
            el("span", { class: "text", text: d.text ?? "" }),
          );
    this.list.append(item);
    this.follow.added();
  }

  /** A roll typed in the chat: who, the sentence and the dice, compact. */
  roll(event) {
    if (this.list.querySelector(`[data-seq="${event.seq}"]`)) return;
    const d = event.data || {};
    const names = [d.character?.name, d.roller?.name];
    const who = d.character ? `${d.roller?.name || "someone"} for ${d.character.name}` : d.roller?.name || "someone";
    const sentence = d.sentence || `${d.character?.name || d.roller?.name || "Someone"} rolled.`;
    const dice = (d.result?.dice || []).filter((die) => die && die.face !== undefined).slice(0, 24);
    const item = el(
      "li",
      { "data-seq": event.seq, "data-roll-id": d.roll_id, class: "chat-roll", "data-visibility": d.visibility || "public" },
      el("span", { class: "who", text: who }),
      d.visibility === "gm" ? el("span", { class: "tag hidden", text: "GM only" }) : null,
      el("p", { class: `sentence ${outcomeClass(d.result?.outcome || "")}`.trim() }, emphasised(sentence, names)),
      dice.length
        ? el(
            "ul",
            { class: "chat-dice", "aria-hidden": "true" },
            dice.map((die) => el("li", { class: `die role-${die.role || "regular"}`, text: String(die.face) })),
          )
        : null,
    );
    this.list.append(item);
    this.follow.added();
  }

  // "Whisper to gm: …" for the sender, "gm whispers: …" for the recipient.
  whisper(seq, d) {
    const mine = d.from?.id === this.me.id;
    const who = mine ? `Whisper to ${d.to?.name || "someone"}:` : `${d.from?.name || "someone"} whispers:`;
    return el(
      "li",
      { "data-seq": seq, class: "chat-line whisper" },
      el("span", { class: "who", text: who }),
      el("span", { class: "text", text: d.text ?? "" }),
    );
  }

  system(text, seq) {
    if (seq !== undefined && this.list.querySelector(`[data-seq="${seq}"]`)) return;
    this.list.append(el("li", { class: "system", "data-seq": seq, text }));
    this.follow.added();
  }
}
