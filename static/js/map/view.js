// Pan and zoom of the battle map: mouse drag and wheel, two-finger pinch,
// and the keyboard (arrows pan, + and - zoom, 0 fits). One grid unit is one
// square. When the map's box changes (a panel opens, the toolbar wraps, the
// window turns) a fitted map is fitted again, and a zoom the user chose is
// kept, centred on the same spot. Zooming out stops at 8 px a square, or at
// the fitted zoom of a map too big to fit at that, so "Fit" always shows
// the whole map.
//
// The <svg> itself is what moves: it is UNIT CSS pixels a square (its
// viewBox is the map in squares), and a style transform on it pans and
// scales it inside its box (the screen box, its parent, which takes the
// pointer and clips it). Not one pixel a square: Chromium rounds an SVG
// element's box to whole pixels of the svg before the transform, which at
// one pixel a square would be whole squares. A transform on the svg
// element, not on a group inside it, leaves the SVG's own layout alone:
// Chromium has nothing to lay out or walk again in the map at each frame.
// While the view moves (a drag, a wheel, a pinch), the map is one picture
// the compositor moves and scales (`will-change: transform` by the class
// "moving"). Once it has rested for REST_MS, the picture is drawn again
// sharp and `onRest` lets the board fit what depends on the zoom (text
// sizes, touch discs). A fit, being one step, rests at once.
//
// The view's own input is two handlers (../handler.js): `panning`
// (./tools/pan_zoom.js: drag and pinch) and `wheelZoom`
// (./tools/wheel_zoom.js); enable() and disable() switch both, and the
// board switches `panning` alone when a tool takes the pointer.
//
// On a phone (the room's narrow layout) a fit never draws a square smaller
// than PHONE_PX: a map too big for that fills the screen's box along its
// short side instead (or zooms to PHONE_PX if that is still less), centred
// on `focus()` (the board's: the player's own token), the rest a pan or a
// pinch away.

import { PanZoom } from "./tools/pan_zoom.js";
import { WheelZoom } from "./tools/wheel_zoom.js";

const MIN_SCALE = 8;
const MAX_SCALE = 200;
const REST_MS = 150;
const UNIT = 32; // CSS px a square in the svg's own box, before its transform
const PHONE_PX = 24;
const PHONE = window.matchMedia("(max-width: 899px)");

export class MapView {
  constructor(svgEl, onRest) {
    this.svg = svgEl;
    this.box = svgEl.parentElement; // the screen box the map moves in
    this.onRest = onRest;
    this.scale = 40;
    this.tx = 0;
    this.ty = 0;
    this.size = { width: 20, height: 20 };
    this.fitted = true;
    this.boxSize = null;
    this.panning = new PanZoom(this);
    this.wheelZoom = new WheelZoom(this);
    this.enable();
    new ResizeObserver(() => this.resized()).observe(this.box);
  }

  /** Where the map is seen on screen (client coordinates). */
  screenBox() {
    return this.box.getBoundingClientRect();
  }

  resized() {
    const box = this.screenBox();
    if (!box.width || !box.height) return;
    const before = this.boxSize;
    this.boxSize = { width: box.width, height: box.height };
    if (this.fitted || !before) {
      this.fit();
      return;
    }
    this.tx += (box.width - before.width) / 2;
    this.ty += (box.height - before.height) / 2;
    this.apply();
  }

  /** Panning, pinching and the wheel, on the screen box: a drag or a
   *  wheel beside the map moves it too. */
  enable() {
    this.panning.enable();
    this.wheelZoom.enable();
  }

  disable() {
    this.panning.disable();
    this.wheelZoom.disable();
  }

  apply() {
    this.svg.style.transform = `translate(${this.tx}px, ${this.ty}px) scale(${this.scale / UNIT})`;
    this.svg.classList.add("moving");
    clearTimeout(this.restTimer);
    this.restTimer = setTimeout(() => this.rest(), REST_MS);
  }

  /** The view stopped moving: drawn sharp, and the board told. */
  rest() {
    clearTimeout(this.restTimer);
    this.svg.classList.remove("moving");
    this.onRest?.();
  }

  /** Screen (client) coordinates to grid units. */
  toGrid(clientX, clientY) {
    const box = this.screenBox();
    return [(clientX - box.left - this.tx) / this.scale, (clientY - box.top - this.ty) / this.scale];
  }

  /** The square under a point on screen, or null off the map. */
  squareAt(clientX, clientY) {
    const box = this.screenBox();
    if (clientX < box.left || clientX > box.right || clientY < box.top || clientY > box.bottom) return null;
    const [x, y] = this.toGrid(clientX, clientY).map(Math.floor);
    if (x < 0 || y < 0 || x >= this.size.width || y >= this.size.height) return null;
    return [x, y];
  }

  /** The square in the middle of what the map shows, kept on the map. */
  middleSquare() {
    const box = this.screenBox();
    const [gx, gy] = this.toGrid(box.left + box.width / 2, box.top + box.height / 2);
    const clamp = (v, side) => Math.max(0, Math.min(side - 1, Math.floor(v)));
    return [clamp(gx, this.size.width), clamp(gy, this.size.height)];
  }

  fit(width = this.size.width, height = this.size.height) {
    this.size = { width, height };
    // Set only when the map's size changes: each setting lays the SVG out.
    const viewBox = `0 0 ${width} ${height}`;
    if (this.svg.getAttribute("viewBox") !== viewBox) {
      this.svg.setAttribute("viewBox", viewBox);
      this.svg.style.width = `${width * UNIT}px`;
      this.svg.style.height = `${height * UNIT}px`;
    }
    const box = this.screenBox();
    const w = box.width || 600;
    const h = box.height || 400;
    const whole = Math.min(this.fitScale(w, h), MAX_SCALE);
    const cover = Math.max(w / (width + 1), h / (height + 1));
    this.scale = PHONE.matches && whole < PHONE_PX ? Math.min(Math.max(PHONE_PX, cover), MAX_SCALE) : whole;
    const [fx, fy] = (this.scale > whole && this.focus?.()) || [width / 2, height / 2];
    this.tx = this.centred(w, width, fx);
    this.ty = this.centred(h, height, fy);
    this.fitted = true;
    this.apply();
    this.rest();
  }

  /** The offset along one side that puts square `at` in the middle of the
   *  box, or the map in its middle if it fits; never more than half a
   *  square past the map's edge. */
  centred(box, side, at) {
    const drawn = side * this.scale;
    if (drawn <= box) return (box - drawn) / 2;
    const margin = this.scale / 2;
    return Math.min(margin, Math.max(box - drawn - margin, box / 2 - at * this.scale));
  }

  /** The zoom that shows the whole map, with half a square round it. */
  fitScale(w, h) {
    return Math.min(w / (this.size.width + 1), h / (this.size.height + 1));
  }

  /** The smallest zoom: 8 px a square, or less when that is what fits. */
  minScale(box = this.screenBox()) {
    return Math.min(MIN_SCALE, this.fitScale(box.width || 600, box.height || 400));
  }

  zoomAt(factor, clientX, clientY) {
    const box = this.screenBox();
    const px = clientX === undefined ? box.width / 2 : clientX - box.left;
    const py = clientY === undefined ? box.height / 2 : clientY - box.top;
    const next = clamp(this.scale * factor, this.minScale(box), MAX_SCALE);
    const k = next / this.scale;
    this.tx = px - (px - this.tx) * k;
    this.ty = py - (py - this.ty) * k;
    this.scale = next;
    this.fitted = false;
    this.apply();
  }

  /** Put the point (x, y), in squares, in the middle of the box (a GM's
   *  ping that pulls the view), at the zoom there is. */
  centreOn(x, y) {
    const box = this.screenBox();
    this.pan(box.width / 2 - x * this.scale - this.tx, box.height / 2 - y * this.scale - this.ty);
  }

  pan(dx, dy) {
    if (!dx && !dy) return;
    this.tx += dx;
    this.ty += dy;
    this.fitted = false;
    this.apply();
  }

  /** The map or the margin round it, not what floats over it (a token's menu). */
  mine(e) {
    return e.target === this.box || this.svg.contains(e.target);
  }

  /** Keys on the focused map itself. Returns true when handled. */
  key(e) {
    const step = 40;
    switch (e.key) {
      case "ArrowLeft": this.pan(step, 0); return true;
      case "ArrowRight": this.pan(-step, 0); return true;
      case "ArrowUp": this.pan(0, step); return true;
      case "ArrowDown": this.pan(0, -step); return true;
      case "+": case "=": this.zoomAt(1.2); return true;
      case "-": case "_": this.zoomAt(1 / 1.2); return true;
      case "0": this.fit(); return true;
      default: return false;
    }
  }
}

function clamp(v, lo, hi) {
  return Math.max(lo, Math.min(hi, v));
}
