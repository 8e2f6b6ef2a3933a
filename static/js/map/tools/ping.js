// Pinging a point of the map for the others to see: Alt+click (a mouse or
// a pen), a finger held still on open ground (a long press: on a token it
// stays the token's menu), P on the focused map (a focused token, else the
// point under the mouse, else the selected token, else the middle of the
// view), or a press of the toolbar's Ping button and then the map (arm).
// With Shift, or armed as a pull, the GM's ping also pulls everyone's view
// there. The ping goes to options.onPing(x, y, pull); the pulses it and
// others' pings draw are ../pulses.js's (`pulses`).
//
// Always on, under every tool: its Alt+click and an armed press come
// before the tools' own presses (capture on the map's box).

import { Handler } from "../handler.js";
import { Pulses } from "../pulses.js";
import { tokenIdOf } from "./token_drag.js";

const LONG_PRESS_MS = 550;
const PRESS_SLOP_PX = 8;

export class PingTool extends Handler {
  constructor(board, layer) {
    super();
    this.board = board;
    this.pulses = new Pulses(layer, () => board.view.scale);
    this.armed = null; // null, or { pull }: the next press on the map pings
    this.hover = null; // the last point the mouse was at over the map, in squares
    this.press = null; // a finger's press waiting to become a ping
    this.fired = false; // a long press just pinged: its contextmenu is not a menu
  }

  addHooks() {
    const box = this.board.view.box;
    this.listen(box, "pointerdown", (e) => this.clicked(e), { capture: true });
    this.listen(box, "pointerdown", (e) => this.pressed(e));
    this.listen(box, "pointermove", (e) => this.moved(e));
    this.listen(box, "pointerleave", () => (this.hover = null));
    for (const end of ["pointerup", "pointercancel"]) this.listen(box, end, () => this.letGo());
    this.listen(box, "contextmenu", (e) => this.fired && e.preventDefault());
    this.listen(this.board.svg, "keydown", (e) => this.key(e));
  }

  removeHooks() {
    this.letGo();
    this.disarm();
    this.pulses.clear();
  }

  get pings() {
    return !!this.board.options.onPing && !!this.board.scene;
  }

  /** The next press on the map pings (with `pull`, pulls too); told on `events`. */
  arm(pull = false) {
    this.armed = { pull };
    this.board.svg.classList.add("ping-mode");
    this.board.events.dispatchEvent(new CustomEvent("ping-armed", { detail: this.armed }));
  }

  disarm() {
    if (!this.armed) return;
    this.armed = null;
    this.board.svg.classList.remove("ping-mode");
    this.board.events.dispatchEvent(new CustomEvent("ping-armed", { detail: null }));
  }

  send(x, y, pull) {
    const scene = this.board.scene;
    if (!this.pings || x < 0 || y < 0 || x > scene.width || y > scene.height) return;
    const round = (v) => Math.round(v * 100) / 100;
    this.board.options.onPing(round(x), round(y), !!pull);
  }

  /** Alt+click, or the press an armed tool waits for: a ping, and nothing else. */
  clicked(e) {
    if (!this.pings || e.button !== 0 || !this.board.view.mine(e)) return;
    const armed = this.armed;
    if (!armed && !(e.altKey && e.pointerType !== "touch")) return;
    e.preventDefault();
    e.stopPropagation();
    this.disarm();
    const [x, y] = this.board.view.toGrid(e.clientX, e.clientY);
    this.send(x, y, armed ? armed.pull : e.shiftKey);
  }

  /** A finger on open ground (tokens and doors stop their own presses). */
  pressed(e) {
    this.letGo();
    if (!this.pings || e.pointerType !== "touch" || e.defaultPrevented || !e.isPrimary) return;
    const at = [e.clientX, e.clientY];
    this.press = {
      at,
      timer: setTimeout(() => {
        this.press = null;
        this.fired = true;
        setTimeout(() => (this.fired = false), 800); // the long press's own contextmenu
        this.send(...this.board.view.toGrid(...at), false);
      }, LONG_PRESS_MS),
    };
  }

  moved(e) {
    if (e.pointerType === "mouse") this.hover = this.board.view.toGrid(e.clientX, e.clientY);
    if (this.press && Math.hypot(e.clientX - this.press.at[0], e.clientY - this.press.at[1]) > PRESS_SLOP_PX) this.letGo();
    else if (this.press && !e.isPrimary) this.letGo(); // a second finger: a pinch
  }

  letGo() {
    if (this.press) clearTimeout(this.press.timer);
    this.press = null;
  }

  /** P on the focused map (Shift+P pulls); Escape disarms. */
  key(e) {
    if (e.key === "Escape" && this.armed) {
      this.disarm();
      return;
    }
    if ((e.key !== "p" && e.key !== "P") || e.ctrlKey || e.metaKey || e.altKey || !this.pings) return;
    e.preventDefault();
    e.stopPropagation();
    this.send(...this.keyPoint(e.target), e.shiftKey);
  }

  /** The focused token, the point under the mouse, the selected token, or
   *  the middle of the view: the first there is. */
  keyPoint(target) {
    const board = this.board;
    const centre = (t) => [t.x + (t.size || 1) / 2, t.y + (t.size || 1) / 2];
    const focused = board.tokens.get(tokenIdOf(target));
    if (focused) return centre(focused);
    if (this.hover) return this.hover;
    const selected = board.tokens.get(board.selected);
    if (selected) return centre(selected);
    const [x, y] = board.middleSquare();
    return [x + 0.5, y + 0.5];
  }
}
