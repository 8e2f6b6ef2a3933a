// Using doors: a click, Enter or Space asks to open or close one
// (options.onUse), a shift-click or Shift+Enter to lock or unlock it
// (options.onLock), a right click, a long press or the context-menu key
// (Shift+F10) for its menu (options.onMenu). Who may do what is the
// caller's to decide (and the server's).
//
// Two handlers on the doors layer (one listener a kind, not one a door):
// DoorUse, the pointer's press and click, which a tool that has the
// pointer turns off (a press on a door then measures or draws), and
// DoorKeys, the keyboard and the menu, on under every tool.

import { Handler } from "../handler.js";

const LONG_PRESS_MS = 500;

function doorOf(board, target) {
  const node = target.closest?.(".door[data-wall]");
  return node ? board.doors.get(Number(node.dataset.wall)) : null;
}

export class DoorUse extends Handler {
  constructor(board, options) {
    super();
    this.board = board;
    this.options = options; // onUse(door), onLock(door), onMenu(door, point)
    this.pressed = false; // a long press opened the menu: its click is not a use
  }

  addHooks() {
    const layer = this.board.layers.doors;
    this.listen(layer, "pointerdown", (e) => this.down(e));
    this.listen(layer, "click", (e) => this.click(e));
  }

  down(e) {
    const door = doorOf(this.board, e.target);
    if (!door) return;
    // The map does not pan from a door (nor take the pointer from its menu).
    e.preventDefault();
    e.stopPropagation();
    this.pressed = false;
    if (e.pointerType === "mouse" || !this.options.onMenu) return;
    // A finger held on a door opens its menu, as on a token.
    const node = e.target.closest(".door");
    const timer = setTimeout(() => {
      this.pressed = true;
      this.options.onMenu(this.board.doors.get(door.index), { x: e.clientX, y: e.clientY });
    }, LONG_PRESS_MS);
    const cancel = () => {
      clearTimeout(timer);
      for (const type of ["pointerup", "pointercancel", "pointerleave"]) node.removeEventListener(type, cancel);
    };
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) this.listen(node, type, cancel);
  }

  click(e) {
    const door = doorOf(this.board, e.target);
    if (!door || this.pressed) return;
    e.stopPropagation();
    if (e.shiftKey) this.options.onLock?.(door);
    else this.options.onUse?.(door);
  }
}

export class DoorKeys extends Handler {
  constructor(board, options) {
    super();
    this.board = board;
    this.options = options;
  }

  addHooks() {
    const layer = this.board.layers.doors;
    this.listen(layer, "keydown", (e) => this.key(e));
    this.listen(layer, "contextmenu", (e) => {
      const door = doorOf(this.board, e.target);
      if (!door || !this.options.onMenu) return;
      e.preventDefault();
      e.stopPropagation();
      this.options.onMenu(door, { x: e.clientX, y: e.clientY });
    });
  }

  key(e) {
    const door = doorOf(this.board, e.target);
    if (!door) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      if (e.shiftKey) this.options.onLock?.(door);
      else this.options.onUse?.(door);
    } else if ((e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey)) && this.options.onMenu) {
      e.preventDefault();
      e.stopPropagation();
      this.options.onMenu(door, null);
    }
  }
}
