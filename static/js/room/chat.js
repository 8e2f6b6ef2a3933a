// Chat: rendered as text (textContent), never as HTML.

import { el } from "../lib/dom.js";

export class Chat {
  constructor(list, form, socket) {
    this.list = list;
    this.socket = socket;
    this.input = form.querySelector("input");
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      try {
        await socket.send({ type: "chat", text });
        this.input.value = "";
      } catch (error) {
        this.system(`Not sent: ${error.message || error.code}`);
      }
    });
  }

  clear() {
    this.list.replaceChildren();
  }

  add(event) {
    if (this.list.querySelector(`[data-seq="${event.seq}"]`)) return;
    const d = event.data || {};
    const item = el(
      "li",
      { "data-seq": event.seq, class: "chat-line" },
      el("span", { class: "who", text: d.from?.name || "someone" }),
      el("span", { class: "text", text: d.text ?? "" }),
    );
    this.list.append(item);
    this.list.scrollTop = this.list.scrollHeight;
  }

  system(text, seq) {
    if (seq !== undefined && this.list.querySelector(`[data-seq="${seq}"]`)) return;
    this.list.append(el("li", { class: "system", "data-seq": seq, text }));
    this.list.scrollTop = this.list.scrollHeight;
  }
}
