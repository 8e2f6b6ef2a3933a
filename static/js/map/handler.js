// A map tool's contract, after Leaflet's handlers: a tool is off until
// enable(), which calls its addHooks(); disable() takes away every listener
// the tool added with listen() (one AbortController per enabling, so what
// goes is exactly what came) and then calls its removeHooks() to clear
// what it drew. A listener added while enabled, a drag's pointermove
// included, goes too when the tool is disabled mid-drag.
//
// A tool never asks another whether it may act: the board enables the one
// that has the pointer and disables the others (Board.use).

export class Handler {
  constructor() {
    this.enabled = false;
    this.signal = null;
  }

  enable() {
    if (this.enabled) return this;
    this.enabled = true;
    this.aborter = new AbortController();
    this.signal = this.aborter.signal;
    this.addHooks();
    return this;
  }

  disable() {
    if (!this.enabled) return this;
    this.enabled = false;
    this.aborter.abort();
    this.signal = null;
    this.removeHooks();
    return this;
  }

  /** Listen while enabled: the listener goes with disable(). */
  listen(target, type, fn, options = {}) {
    target.addEventListener(type, fn, { ...options, signal: this.signal });
  }

  /** What enable() adds: listen() to what the tool needs. */
  addHooks() {}

  /** What disable() clears besides the listeners (drawings, classes). */
  removeHooks() {}
}
