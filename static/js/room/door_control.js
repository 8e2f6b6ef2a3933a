// Opening, closing, locking and unlocking doors from the map: each is a
// `door.set` intent (the wall's index and the state wanted) and the
// `scene.updated` that follows redraws the door. The GM may do all of it; a
// player may open and close a door (never a locked one) while the campaign's
// `players_open_doors` is on, and the server decides whether one of their
// tokens stands next to it. A refusal is said on the map, as the room's
// other refusals are.

import { describeError } from "../lib/errors.js";

const DONE = { open: "opened", closed: "closed", locked: "locked" };

export class DoorControl {
  constructor({ board, socket, status, may, menu }) {
    this.board = board;
    this.socket = socket;
    this.status = status;
    this.may = may; // what this member may do (./may.js), settings followed there
    this.menu = may.runsTable ? menu : null; // the map's menu (../map/token_menu.js)
  }

  /** A click or Enter: open a closed door, close an open one. */
  use(door) {
    if (!door || door.kind !== "door") return;
    if (door.state === "locked") {
      this.status(this.may.runsTable ? "The door is locked: shift-click it, or use its menu, to unlock it." : "The door is locked.", true);
      return;
    }
    if (!this.may.opensDoors) {
      this.status("Only the GM opens doors at this table.", true);
      return;
    }
    this.set(door, door.state === "open" ? "closed" : "open");
  }

  /** Shift-click or Shift+Enter (GM): lock a door, or unlock a locked one. */
  lock(door) {
    if (!door || door.kind !== "door") return;
    if (!this.may.runsTable) {
      this.use(door);
      return;
    }
    this.set(door, door.state === "locked" ? "closed" : "locked");
  }

  /** The GM's menu for a door: what may be done to it now. */
  openMenu(door, point) {
    if (!this.menu || !door || door.kind !== "door") return;
    const items = {
      closed: [["Open", "open"], ["Lock", "locked"]],
      open: [["Close", "closed"], ["Close and lock", "locked"]],
      locked: [["Unlock", "closed"], ["Unlock and open", "open"]],
    }[door.state];
    this.menu.open(
      { id: `door-${door.index}`, name: "Door" },
      items.map(([label, state]) => ({ label, run: () => this.set(this.board.doors.get(door.index) || door, state) })),
      { point, anchor: this.board.doors.nodes.get(door.index), label: "Door: actions" },
    );
  }

  set(door, state) {
    const scene = this.board.scene;
    if (!scene) return Promise.resolve();
    this.board.doors.pending(door.index, true);
    return this.socket
      .send({ type: "door.set", scene: scene.id, wall: door.index, state })
      .then(() => this.status(`Door ${DONE[state]}.`))
      .catch((e) => {
        this.board.doors.pending(door.index, false);
        this.status(`The door stays ${door.state}: ${describeError(e)}`, true);
      });
  }
}
