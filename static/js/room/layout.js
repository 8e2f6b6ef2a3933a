// The room's side panel: its tabs, the unread counts on Log and Chat, the
// toggle that folds it away, and the handle that resizes it. On a narrow
// screen the same panel is a bottom sheet, folded until a tab is tapped.
// Width and folding are remembered per browser; the map refits itself
// whenever its box changes (../map/view.js), so none of this clips it.

import { tabs } from "../lib/tabs.js";
import { recall, remember } from "../lib/remember.js";

const WIDTH_KEY = "d6.room.panelWidth";
const OPEN_KEY = "d6.room.panelOpen";
const MIN_WIDTH = 300;
const NARROW = window.matchMedia("(max-width: 899px)");

export class SidePanel {
  constructor(room, { onShow } = {}) {
    this.room = room;
    this.side = room.querySelector("#side");
    this.toggleButton = room.querySelector("#panel-toggle");
    this.resizer = room.querySelector("#panel-resizer");
    this.unread = { "panel-log": room.querySelector("#log-unread"), "panel-chat": room.querySelector("#chat-unread") };
    this.counts = { "panel-log": 0, "panel-chat": 0 };
    this.current = "panel-roll";
    this.onShow = onShow;
    this.tablist = tabs(room.querySelector(".side-tabs"), (panel) => this.shown(panel));
    // A tap on the tab already shown folds a bottom sheet; any tab opens it.
    for (const tab of room.querySelectorAll(".side-tabs [role=tab]")) {
      tab.addEventListener("pointerdown", () => {
        this.wasCurrent = tab.getAttribute("aria-controls") === this.current && this.isOpen();
      });
      tab.addEventListener("click", () => {
        if (NARROW.matches && this.wasCurrent) this.setOpen(false);
        else this.setOpen(true);
        this.wasCurrent = false;
      });
    }
    this.toggleButton.addEventListener("click", () => this.setOpen(!this.isOpen()));
    const width = Number(recall(WIDTH_KEY));
    this.setWidth(width || 400);
    const open = recall(OPEN_KEY);
    this.setOpen(NARROW.matches ? false : open !== "false", false);
    this.resizable();
  }

  isOpen() {
    return this.room.dataset.panel !== "closed";
  }

  setOpen(open, keep = true) {
    this.room.dataset.panel = open ? "open" : "closed";
    this.toggleButton.setAttribute("aria-expanded", String(open));
    this.toggleButton.querySelector(".visually-hidden").textContent = open ? "Hide the panel" : "Show the panel";
    if (keep && !NARROW.matches) remember(OPEN_KEY, String(open));
  }

  /** Show a tab's panel (and open the panel if it is folded). */
  show(panel) {
    this.tablist.show(panel);
    this.setOpen(true);
  }

  shown(panel) {
    this.current = panel;
    if (panel in this.counts) this.mark(panel, 0);
    this.onShow?.(panel);
  }

  /** A new log or chat entry: counted on its tab while that tab is not in sight. */
  arrived(panel) {
    if (this.current === panel && this.isOpen()) return;
    this.mark(panel, this.counts[panel] + 1);
  }

  mark(panel, count) {
    this.counts[panel] = count;
    const badge = this.unread[panel];
    badge.hidden = count === 0;
    badge.textContent = count > 99 ? "99+" : String(count);
    badge.setAttribute("aria-label", `${count} new`);
  }

  setWidth(px) {
    const max = Math.max(MIN_WIDTH, Math.round(window.innerWidth * 0.6));
    this.width = Math.min(max, Math.max(MIN_WIDTH, Math.round(px)));
    this.room.style.setProperty("--side-width", `${this.width}px`);
    this.resizer.setAttribute("aria-valuenow", String(this.width));
    this.resizer.setAttribute("aria-valuemin", String(MIN_WIDTH));
    this.resizer.setAttribute("aria-valuemax", String(max));
  }

  resizable() {
    const r = this.resizer;
    r.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      r.setPointerCapture(e.pointerId);
      const startX = e.clientX;
      const startWidth = this.side.getBoundingClientRect().width;
      const move = (m) => this.setWidth(startWidth + (startX - m.clientX));
      const up = () => {
        r.removeEventListener("pointermove", move);
        r.removeEventListener("pointerup", up);
        remember(WIDTH_KEY, String(this.width));
      };
      r.addEventListener("pointermove", move);
      r.addEventListener("pointerup", up);
    });
    r.addEventListener("keydown", (e) => {
      const step = { ArrowLeft: 24, ArrowRight: -24 }[e.key];
      if (step === undefined) return;
      e.preventDefault();
      this.setWidth(this.side.getBoundingClientRect().width + step);
      remember(WIDTH_KEY, String(this.width));
    });
  }
}
