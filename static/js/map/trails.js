// Movement trails: during an encounter, each token's moves this turn; outside
// one, its last FREE_STEPS moves. Kept from the room's token.moved events the
// way the server keeps them (vtt/combat/projection.py): a move adds a step
// (outside an encounter, dropping the oldest beyond the last few), an undone
// move takes its step off, a reset empties the token's trail, and a turn
// change or a GM's "clear trails" starts every trail afresh. A page that
// loads mid-turn reads them from GET /api/combat/scenes/<id>/trails/.

import { svg, clear } from "../lib/dom.js";

// As vtt/combat/projection.py FREE_STEPS.
export const FREE_STEPS = 5;

export class Trails {
  constructor(layer, board) {
    this.layer = layer;
    this.board = board;
    this.byToken = new Map(); // token id -> [{seq, from, to}]
    this.drawn = new Map(); // token id -> its trail's group
    this.inEncounter = false;
  }

  /** Whether an encounter runs on the scene (the turn's whole path is kept). */
  setEncounter(running) {
    this.inEncounter = running;
  }

  /** The server's trails: steps without their seq (an undo then asks again). */
  set(trails) {
    this.byToken.clear();
    for (const trail of trails || []) {
      const steps = [];
      let from = trail.start;
      for (const to of trail.path) {
        steps.push({ seq: null, from, to });
        from = to;
      }
      this.byToken.set(trail.token_id, steps);
    }
    this.draw();
  }

  clearAll() {
    this.byToken.clear();
    this.draw();
  }

  /** A token.moved event. Returns false when the page cannot follow it
   *  (an undo of a step it has no seq for) and should read the trails anew. */
  moved(seq, data) {
    const token = data.token;
    if (!token || !Array.isArray(data.from)) return true;
    const steps = this.byToken.get(token.id) || [];
    let followed = true;
    if (data.reset) {
      this.byToken.delete(token.id);
    } else if (data.undo_of !== undefined) {
      const at = steps.findIndex((s) => s.seq === data.undo_of);
      if (at >= 0) steps.splice(at, 1);
      else if (steps.some((s) => s.seq === null)) followed = false;
      else steps.push({ seq, from: data.from, to: [token.x, token.y] });
      this.byToken.set(token.id, steps);
    } else {
      steps.push({ seq, from: data.from, to: [token.x, token.y] });
      if (!this.inEncounter) steps.splice(0, Math.max(0, steps.length - FREE_STEPS));
      this.byToken.set(token.id, steps);
    }
    this.drawOne(token.id); // a move redraws its token's trail only
    return followed;
  }

  /** Where the token's trail starts, or null if it has not moved. */
  start(tokenId) {
    const steps = this.byToken.get(tokenId);
    return steps && steps.length ? steps[0].from : null;
  }

  draw() {
    clear(this.layer);
    this.drawn.clear();
    for (const tokenId of this.byToken.keys()) this.drawOne(tokenId);
  }

  drawOne(tokenId) {
    this.drawn.get(tokenId)?.remove();
    this.drawn.delete(tokenId);
    const steps = this.byToken.get(tokenId);
    const token = this.board.tokens.get(tokenId);
    if (!token || !steps?.length) return;
    const half = (token.size || 1) / 2;
    const points = [steps[0].from, ...steps.map((s) => s.to)].map(([x, y]) => `${x + half},${y + half}`);
    const [sx, sy] = steps[0].from;
    const trail = svg(
      "g",
      { class: "trail", "data-trail-for": tokenId, "data-steps": steps.length },
      svg("polyline", { points: points.join(" "), stroke: token.color || "#888888" }),
      svg("rect", { class: "trail-start", x: sx + 0.1, y: sy + 0.1, width: 2 * half - 0.2, height: 2 * half - 0.2, rx: 0.15 }),
    );
    this.drawn.set(tokenId, trail);
    this.layer.append(trail);
  }
}
