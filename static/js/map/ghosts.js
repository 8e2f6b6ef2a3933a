// What is not a token but shows where one would be: the dashed ghost of a
// token someone else is dragging (from their `token.drag` previews), and
// the mark of the square a character dragged from the side panel would
// land on.

import { svg, clear } from "../lib/dom.js";

export class Ghosts {
  constructor(board, layer) {
    this.board = board;
    this.layer = layer;
    this.ghosts = new Map(); // token id -> its ghost
    this.dropMark = null;
  }

  clear() {
    clear(this.layer);
    this.ghosts.clear();
    this.dropMark = null;
  }

  remove(id) {
    this.ghosts.get(id)?.remove();
    this.ghosts.delete(id);
  }

  /** Someone else is dragging: show a ghost where the token would land. */
  showDrag(frame) {
    const token = this.board.tokens.get(frame.token);
    if (!token || frame.by === this.board.options.me.id) return;
    if (frame.version !== undefined && frame.version < token.version) return;
    let ghost = this.ghosts.get(frame.token);
    const s = token.size || 1;
    if (!ghost) {
      ghost = svg(
        "g",
        { class: "ghost", "data-ghost-for": token.id },
        svg("circle", { cx: s / 2, cy: s / 2, r: s * 0.4 }),
        svg("text", { x: s / 2, y: s + 0.25, text: token.name }),
      );
      this.ghosts.set(frame.token, ghost);
      this.layer.append(ghost);
    }
    ghost.setAttribute("transform", `translate(${frame.x} ${frame.y})`);
  }

  /** Mark the square a dragged character would land on (null: none). */
  showDrop(square, size = 1) {
    if (!square) {
      this.dropMark?.remove();
      this.dropMark = null;
      return;
    }
    if (!this.dropMark) {
      this.dropMark = svg("rect", { class: "drop-target" });
      this.layer.append(this.dropMark);
    }
    const [x, y] = this.board.clampSquare({ size }, square[0], square[1]);
    for (const [k, v] of Object.entries({ x, y, width: size, height: size })) this.dropMark.setAttribute(k, v);
  }
}
