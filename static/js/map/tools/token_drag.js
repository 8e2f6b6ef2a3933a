// Moving tokens: a token the viewer may move (the GM, or one of its
// controllers) drags with a mouse, a pen or a finger and snaps to squares,
// or steps a square with the arrow keys when focused. While dragging,
// previews go out at most every DRAG_PREVIEW_MS (options.onDrag) and the
// square under it is told (options.onDragAt: the fog's preview); the drop
// asks the board to move it (Board.requestMove). A finger held still on a
// token opens its menu instead. A press on a token the viewer may not move
// selects it. The map never pans from under a token: the press stops here.
//
// Listens on the tokens and touch-disc layers (one listener each, not one
// per token). Off while a tool has the pointer (Board.use): a press on a
// token then goes to that tool.

import { Handler } from "../handler.js";

const DRAG_PREVIEW_MS = 60;
const LONG_PRESS_MS = 500;
const PRESS_SLOP_PX = 8; // a finger that wanders further is dragging, not pressing
const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The token id a press or a key is on (its node or its touch disc), or null. */
export function tokenIdOf(target) {
  const hit = target.closest?.("[data-hit-for]");
  if (hit) return Number(hit.dataset.hitFor);
  const node = target.closest?.("[data-token-id]");
  return node ? Number(node.dataset.tokenId) : null;
}

export class TokenDrag extends Handler {
  constructor(board) {
    super();
    this.board = board;
  }

  addHooks() {
    const { tokens, hits } = this.board.layers;
    for (const layer of [tokens, hits]) this.listen(layer, "pointerdown", (e) => this.grab(e));
    this.listen(tokens, "keydown", (e) => this.step(e));
  }

  step(e) {
    const id = tokenIdOf(e.target);
    const token = this.board.tokens.get(id);
    if (!STEPS[e.key] || !token || !this.board.canMove(token)) return;
    e.preventDefault();
    e.stopPropagation();
    const [dx, dy] = STEPS[e.key];
    this.board.select(id);
    this.board.requestMove(id, token.x + dx, token.y + dy);
  }

  grab(e) {
    const board = this.board;
    const id = tokenIdOf(e.target);
    const token = board.tokens.get(id);
    if (!token) return;
    e.preventDefault(); // the map does not pan under a token
    e.stopPropagation();
    if (e.button !== 0) return; // a right click is the menu's (contextmenu)
    if (!board.canMove(token)) {
      board.select(id);
      return;
    }
    const node = board.nodes.get(id);
    const [gx, gy] = board.view.toGrid(e.clientX, e.clientY);
    const drag = { dx: gx - token.x, dy: gy - token.y, at: [token.x, token.y], moved: false, sent: 0 };
    node.setPointerCapture?.(e.pointerId);
    node.classList.add("dragging");
    // A finger held still on a token opens its menu instead of dragging it.
    const pressAt = [e.clientX, e.clientY];
    let pressTimer = null;
    if (board.options.onMenu && e.pointerType !== "mouse") {
      pressTimer = setTimeout(() => {
        pressTimer = null;
        stop();
        node.releasePointerCapture?.(e.pointerId);
        board.pieces.drawToken(node, board.tokens.get(id) || token); // back where the server has it
        board.options.onDragAt?.(token, null);
        board.openMenu(id, { x: pressAt[0], y: pressAt[1] });
      }, LONG_PRESS_MS);
    }
    const stop = () => {
      clearTimeout(pressTimer);
      node.removeEventListener("pointermove", move);
      node.removeEventListener("pointerup", up);
      node.removeEventListener("pointercancel", up);
      node.classList.remove("dragging");
    };
    const move = (ev) => {
      if (pressTimer && Math.hypot(ev.clientX - pressAt[0], ev.clientY - pressAt[1]) > PRESS_SLOP_PX) {
        clearTimeout(pressTimer);
        pressTimer = null;
      }
      const [px, py] = board.view.toGrid(ev.clientX, ev.clientY);
      const square = board.clampSquare(token, Math.round(px - drag.dx), Math.round(py - drag.dy));
      if (square[0] === drag.at[0] && square[1] === drag.at[1]) return;
      drag.at = square;
      drag.moved = true;
      board.pieces.drawToken(node, token, square);
      board.options.onDragAt?.(token, square);
      const now = performance.now();
      if (now - drag.sent >= DRAG_PREVIEW_MS) {
        drag.sent = now;
        board.options.onDrag?.(token, square[0], square[1]);
      }
    };
    const up = () => {
      stop();
      if (!drag.moved || (drag.at[0] === token.x && drag.at[1] === token.y)) {
        if (drag.moved) board.options.onDragAt?.(token, null);
        board.pieces.drawToken(node, board.tokens.get(id));
        board.select(board.selected === id && !drag.moved ? null : id);
        return;
      }
      board.select(id);
      board.requestMove(id, drag.at[0], drag.at[1]);
    };
    this.listen(node, "pointermove", move);
    this.listen(node, "pointerup", up);
    this.listen(node, "pointercancel", up);
  }

  removeHooks() {
    // A drag cut short (a tool took the pointer): the token back where the server has it.
    for (const node of this.board.nodes.values()) {
      if (!node.classList.contains("dragging")) continue;
      node.classList.remove("dragging");
      const token = this.board.tokens.get(Number(node.dataset.tokenId));
      if (token) this.board.pieces.drawToken(node, token);
    }
  }
}
