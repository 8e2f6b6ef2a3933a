// Choosing a token and asking about it, on every map and under every tool:
// Enter or Space selects it (for the GM, Enter on the selected token asks
// to edit it: options.onEdit, as a double click does), Escape drops the
// selection, a right click or the context-menu key (Shift+F10) asks for its
// menu (options.onMenu), and its focus is told (options.onFocus). Moving
// it is ./token_drag.js's.

import { Handler } from "../handler.js";
import { tokenIdOf } from "./token_drag.js";

export class TokenKeys extends Handler {
  constructor(board) {
    super();
    this.board = board;
  }

  addHooks() {
    const { tokens, hits } = this.board.layers;
    for (const layer of [tokens, hits]) this.listen(layer, "contextmenu", (e) => this.menu(e));
    this.listen(tokens, "dblclick", (e) => {
      const id = tokenIdOf(e.target);
      if (id === null) return;
      e.preventDefault();
      this.board.edit(id);
    });
    this.listen(tokens, "keydown", (e) => this.key(e));
    // On the map itself, not its tokens layer: Chromium lets an SVG element
    // with a focus listener take the focus, and Tab would stop on the layer.
    this.listen(this.board.svg, "focusin", (e) => {
      const id = tokenIdOf(e.target);
      if (id !== null) this.board.options.onFocus?.(this.board.tokens.get(id));
    });
  }

  menu(e) {
    const id = tokenIdOf(e.target);
    if (id === null || !this.board.options.onMenu) return;
    e.preventDefault();
    e.stopPropagation();
    this.board.openMenu(id, { x: e.clientX, y: e.clientY });
  }

  key(e) {
    const board = this.board;
    const id = tokenIdOf(e.target);
    if (!board.tokens.has(id)) return;
    const handled = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    if (e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey)) {
      if (!board.options.onMenu) return;
      handled();
      board.openMenu(id);
    } else if (e.key === "Enter" && board.selected === id && board.options.onEdit) {
      handled();
      board.edit(id);
    } else if (e.key === "Enter" || e.key === " ") {
      handled();
      board.select(board.selected === id ? null : id);
    } else if (e.key === "Escape") {
      board.select(null);
    }
  }
}
