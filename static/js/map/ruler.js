// The ruler: from one square to another, in feet (measured here, with the
// campaign's diagonal rule) and as a range category for the weapon chosen
// in "Range bands". From the token whose bands are shown the category is
// the server's own; from anywhere else it is worked out here for that
// weapon. Pointer: drag on the map; keyboard: arrows move the far end.

import { svg, clear } from "../lib/dom.js";
import { adjacent, distanceFt, weaponCategory, lineOfSight } from "./grid.js";

const CATEGORY_WORDS = {
  adjacent: "adjacent",
  near: "near",
  far: "far",
  out_of_range: "out of range",
};

export class Ruler {
  constructor(board, layer) {
    this.board = board;
    this.layer = layer;
    this.active = false;
    this.from = null;
    this.to = null;
  }

  setActive(on) {
    this.active = on;
    this.board.svg.classList.toggle("ruler-mode", on);
    if (!on) this.clear();
    else {
      const token = this.board.tokens.get(this.board.selected);
      this.from = token ? [token.x, token.y] : [0, 0];
      this.to = [...this.from];
      this.draw();
    }
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
    if (!this.active || e.defaultPrevented) return;
    e.preventDefault();
    this.from = this.square(e);
    this.to = [...this.from];
    this.draw();
    const move = (ev) => {
      this.to = this.square(ev);
      this.draw();
    };
    const up = () => {
      this.board.svg.removeEventListener("pointermove", move);
      this.board.svg.removeEventListener("pointerup", up);
    };
    this.board.svg.addEventListener("pointermove", move);
    this.board.svg.addEventListener("pointerup", up);
  }

  key(e) {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (!steps[e.key] || !this.to) return false;
    this.to = [this.to[0] + steps[e.key][0], this.to[1] + steps[e.key][1]];
    this.draw();
    return true;
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
