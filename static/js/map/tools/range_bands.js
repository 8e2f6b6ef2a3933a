// Range bands around the selected token, for the choice in "Range bands"
// (options.bandChoice: null is off). Enabled, it follows the board's
// selection and the selected token's changes and asks the server again
// (../bands.js); the board also asks it to refresh() when the choice or the
// scene changes. Each answer is told on the board's events as "bands" (the
// ruler measures by them). Disabled, no bands.

import { Handler } from "../handler.js";
import { Bands } from "../bands.js";

export class RangeBands extends Handler {
  constructor(board, layer) {
    super();
    this.board = board;
    this.shown = new Bands(layer, board.options.api, (error) =>
      board.options.status(`No range bands: ${error.message || error.code || "refused"}.`, true),
    );
  }

  addHooks() {
    this.listen(this.board.events, "select", () => this.refresh());
    this.listen(this.board.events, "selectedchange", () => this.refresh());
    this.refresh();
  }

  removeHooks() {
    this.clear();
  }

  clear() {
    this.shown.clear();
  }

  refresh() {
    const board = this.board;
    const token = board.tokens.get(board.selected);
    const choice = board.options.bandChoice?.();
    if (!this.enabled || !token || !board.scene || !choice) {
      this.clear();
      return;
    }
    this.shown.show(token, choice).then(() => this.told());
  }

  /** The server's band of square `to` measured from `from` (../bands.js). */
  measureFrom(from, to) {
    return this.shown.measureFrom(from, to);
  }

  told() {
    this.board.events.dispatchEvent(new Event("bands"));
  }
}
