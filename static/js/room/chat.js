// Chat: lines and whispers, rendered as text (textContent), never as HTML.
// Commands ("/r 3D diff 2", "/w gm ...", "/help") are the server's: this
// box only sends the line. What the server answers the sender alone (the
// help, a refusal) shows in a note under the box; the line stays in the box
// until the server has taken it.

import { el } from "../lib/dom.js";
import { PinnedScroll } from "../lib/pinned.js";

export class Chat {
  constructor(list, form, socket, { me, jump } = {}) {
    this.list = list;
    this.follow = new PinnedScroll(list, jump);
    this.socket = socket;
    this.me = me || {};
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
    try {
      const ack = await this.socket.send({ type: "chat", text });
      this.input.value = "";
      if (ack?.help) this.tell(ack.help, "help");
      else this.tell("");
    } catch (error) {
      const where = error.field && error.field !== "text" ? `${error.field}: ` : "";
      this.tell(`Not sent: ${where}${error.message || error.code}`, "error");
    }
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
