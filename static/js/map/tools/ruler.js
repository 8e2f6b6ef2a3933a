// The ruler: from one square to another, in feet (measured here, with the
// campaign's diagonal rule) and as a range category for the weapon chosen
// in "Range bands". From the token whose bands are shown the category is
// the server's own; from anywhere else it is worked out here for that
// weapon. Pointer: drag on the map; keyboard: arrows move the far end,
// Escape clears it (and the board drops the selection).
//
// A handler (../handler.js): enabled, it has the pointer on the map (the
// board disables panning, dragging and doors meanwhile) and starts from
// the selected token's square; disabled, it leaves no line and no listener.

import { svg, clear } from "../../lib/dom.js";
import { Handler } from "../handler.js";
import { adjacent, distanceFt, weaponCategory, lineOfSight } from "../grid.js";

const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
const CATEGORY_WORDS = {
  adjacent: "adjacent",
  near: "near",
  far: "far",
  out_of_range: "out of range",
};

export class Ruler extends Handler {
  constructor(board, layer) {
    super();
    this.board = board;
    this.layer = layer;
    this.from = null;
    this.to = null;
  }

  addHooks() {
    const svgEl = this.board.svg;
    svgEl.classList.add("ruler-mode");
    this.listen(svgEl, "pointerdown", (e) => this.down(e));
    this.listen(svgEl, "keydown", (e) => this.key(e));
    // New bands may change the category of the square measured to.
    this.listen(this.board.events, "bands", () => this.draw());
    const token = this.board.tokens.get(this.board.selected);
    this.from = token ? [token.x, token.y] : [0, 0];
    this.to = [...this.from];
    this.draw();
  }

  removeHooks() {
    this.board.svg.classList.remove("ruler-mode");
    this.clear();
  }

  clear() {
    clear(this.layer);
    this.from = this.to = null;
  }

  square(e) {
    const [x, y] = this.board.view.toGrid(e.clientX, e.clientY);
    return [Math.floor(x), Math.floor(y)];
  }

  down(e) {
    if (e.defaultPrevented) return;
    e.preventDefault();
    this.from = this.square(e);
    this.to = [...this.from];
    this.draw();
    const svgEl = this.board.svg;
    const move = (ev) => {
      this.to = this.square(ev);
      this.draw();
    };
    const up = () => {
      svgEl.removeEventListener("pointermove", move);
      svgEl.removeEventListener("pointerup", up);
    };
    this.listen(svgEl, "pointermove", move);
    this.listen(svgEl, "pointerup", up);
  }

  /** Keys on the focused map: arrows move the far end, Escape clears. */
  key(e) {
    if (e.target !== this.board.svg) return;
    if (e.key === "Escape") {
      this.clear(); // not handled: the board drops the selection too
      return;
    }
    const step = STEPS[e.key];
    if (!step || !this.to) return;
    e.preventDefault();
    this.to = [this.to[0] + step[0], this.to[1] + step[1]];
    this.draw();
  }

  measure() {
    const diagonal = this.board.options.diagonal;
    const served = this.board.bands.measureFrom(this.from, this.to);
    if (served) return { feet: distanceFt(served.nearest, this.to, diagonal), category: served.category };
    const feet = distanceFt(this.from, this.to, diagonal);
    const weapon = this.board.options.bandWeapon?.() ?? null;
    const scene = this.board.scene;
    let category = weaponCategory(feet, adjacent(this.from, this.to), weapon);
    if (weapon?.kind === "spell" && !lineOfSight(this.from, this.to, scene?.walls || [])) {
      category = "out_of_range";
    }
    return { feet, category };
  }

  draw() {
    clear(this.layer);
    if (!this.from || !this.to) return;
    const { feet, category } = this.measure();
    const [ax, ay] = [this.from[0] + 0.5, this.from[1] + 0.5];
    const [bx, by] = [this.to[0] + 0.5, this.to[1] + 0.5];
    const label = `${feet} ft · ${CATEGORY_WORDS[category]}`;
    this.layer.append(
      svg(
        "g",
        { class: "ruler" },
        svg("line", { x1: ax, y1: ay, x2: bx, y2: by }),
        svg("circle", { cx: ax, cy: ay, r: 0.12 }),
        svg("circle", { cx: bx, cy: by, r: 0.12 }),
        svg("text", { x: bx + 0.3, y: by - 0.3, text: label }),
      ),
    );
    this.board.options.status(`Ruler: ${label}.`);
  }
}
