// The GM's changes to a token, one set of actions behind every way in: the
// map toolbar's buttons (for the selected token), the token's menu (right
// click, long press, context-menu key) and a double click or Enter on the
// selected token (the dialog). Each is an intent; the room's events redraw.

import { describeError } from "../lib/errors.js";
import { nearestFree } from "../map/free_square.js";
import { TokenMenu } from "../map/token_menu.js";

export class TokenTools {
  constructor({ board, socket, status, dialog, menuHost }) {
    this.board = board;
    this.socket = socket;
    this.status = status;
    this.dialog = dialog;
    this.menu = new TokenMenu(menuHost);
  }

  edit(token) {
    this.dialog.open(token);
  }

  /** A copy on the free square nearest the original: same name, look,
   * character, controllers and secrecy (its own picture stays with the original). */
  duplicate(token) {
    const size = token.size || 1;
    const others = [...this.board.tokens.values()];
    const square = nearestFree(this.board.scene, others, token.x, token.y, size);
    if (!square) {
      this.status(`No free square left for a copy of ${token.name}.`, true);
      return Promise.resolve(null);
    }
    const intent = {
      type: "token.create",
      scene: token.scene_id,
      name: token.name,
      x: square[0],
      y: square[1],
      size,
      color: token.color,
      hidden: !!token.hidden,
      controllers: token.controllers || [],
    };
    if (token.character_id) intent.character_id = token.character_id;
    return this.socket
      .send(intent)
      .then((ack) => {
        if (ack?.token) this.board.upsert(ack.token);
        this.status(`${token.name} copied to column ${square[0]}, row ${square[1]}.`);
        return ack?.token;
      })
      .catch((e) => this.status(`Not copied: ${describeError(e)}`, true));
  }

  toggleHidden(token) {
    return this.socket
      .send({ type: "token.hide", token: token.id, hidden: !token.hidden })
      .then(() => this.status(`${token.name} is ${token.hidden ? "shown to the players" : "hidden from the players"}.`))
      .catch((e) => this.status(`Not changed: ${describeError(e)}`, true));
  }

  remove(token) {
    if (!window.confirm(`Remove ${token.name} from the map?`)) return Promise.resolve();
    return this.socket
      .send({ type: "token.delete", token: token.id })
      .then(() => {
        this.status(`${token.name} removed.`);
        this.board.svg.focus();
      })
      .catch((e) => this.status(`Not removed: ${describeError(e)}`, true));
  }

  /** The token's menu, at a point on screen or beside the token. */
  openMenu(token, point) {
    const anchor = this.board.nodes.get(token.id);
    this.menu.open(
      token,
      [
        { label: "Edit…", run: (t) => this.edit(this.board.tokens.get(t.id) || t) },
        { label: "Duplicate", run: (t) => this.duplicate(this.board.tokens.get(t.id) || t) },
        { label: token.hidden ? "Reveal to players" : "Hide from players", run: (t) => this.toggleHidden(this.board.tokens.get(t.id) || t) },
        { label: "Remove", danger: true, run: (t) => this.remove(this.board.tokens.get(t.id) || t) },
      ],
      { point, anchor },
    );
  }
}
