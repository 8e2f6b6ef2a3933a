// A token's menu (WAI-ARIA menu pattern): opened by a right click, a long
// press or the context-menu key on a token, it floats over the map at the
// pointer (or beside the token). Arrow keys, Home and End move between its
// items, Enter or Space runs one, Escape or Tab closes it, and the focus
// goes back to the token. A press anywhere else closes it too.

import { el } from "../lib/dom.js";

export class TokenMenu {
  /** `host`: the positioned box over the map the menu floats in. */
  constructor(host) {
    this.host = host;
    this.node = el("div", { class: "token-menu", role: "menu", hidden: true });
    this.node.addEventListener("keydown", (e) => this.key(e));
    host.append(this.node);
    this.onOutside = (e) => {
      if (!this.node.contains(e.target)) this.close(false);
    };
    this.token = null;
    this.returnTo = null;
  }

  get isOpen() {
    return !this.node.hidden;
  }

  /**
   * Open for `token` with `items` [{label, run, danger?}], at `point`
   * ({x, y} on screen) or beside `anchor` (the token's node), and focus the
   * first item. `label` names the menu (by default, the token's actions).
   */
  open(token, items, { point = null, anchor = null, label = null } = {}) {
    if (this.isOpen && this.token?.id === token.id) return; // a long press and its contextmenu
    this.close(false);
    this.token = token;
    this.returnTo = anchor;
    this.node.setAttribute("aria-label", label || `${token.name}: token actions`);
    this.node.replaceChildren(
      ...items.map((item) =>
        el("button", {
          type: "button",
          role: "menuitem",
          tabindex: -1,
          class: item.danger ? "danger" : null,
          text: item.label,
          onclick: () => {
            this.close(true); // the focus back on the token, so a dialog returns it there
            item.run(token);
          },
        }),
      ),
    );
    this.node.hidden = false;
    this.place(point, anchor);
    this.items()[0]?.focus();
    // Listened for from the next press on, so the press that opened it does not close it.
    setTimeout(() => document.addEventListener("pointerdown", this.onOutside, true), 0);
  }

  place(point, anchor) {
    const host = this.host.getBoundingClientRect();
    let at = point;
    if (!at && anchor) {
      const box = anchor.getBoundingClientRect();
      at = { x: box.right, y: box.top + box.height / 2 };
    }
    at = at || { x: host.left + host.width / 2, y: host.top + host.height / 2 };
    const menu = this.node.getBoundingClientRect();
    // Kept inside the map's box, flipped to the left or up where it would not fit.
    let left = at.x - host.left;
    let top = at.y - host.top;
    if (left + menu.width > host.width) left = Math.max(0, left - menu.width);
    if (top + menu.height > host.height) top = Math.max(0, host.height - menu.height);
    this.node.style.left = `${left}px`;
    this.node.style.top = `${top}px`;
  }

  items() {
    return [...this.node.querySelectorAll("[role=menuitem]")];
  }

  /** Close; with `refocus`, the focus goes back to the token. */
  close(refocus = true) {
    if (!this.isOpen) return;
    document.removeEventListener("pointerdown", this.onOutside, true);
    this.node.hidden = true;
    const back = this.returnTo;
    this.token = null;
    this.returnTo = null;
    if (refocus && back?.isConnected) back.focus();
  }

  key(e) {
    const items = this.items();
    const at = items.indexOf(document.activeElement);
    const go = (i) => items[(i + items.length) % items.length]?.focus();
    switch (e.key) {
      case "ArrowDown":
        go(at + 1);
        break;
      case "ArrowUp":
        go(at - 1);
        break;
      case "Home":
        go(0);
        break;
      case "End":
        go(items.length - 1);
        break;
      case "Escape":
        this.close(true);
        break;
      case "Tab":
        this.close(true);
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  }
}
