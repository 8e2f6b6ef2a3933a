// What fog of war does to the room's map: the member's vision (./state.js
// holds it) drawn as fog, doors never seen hidden, and, for a GM who sees
// as a group, only the tokens that group sees. While a token of the group
// is dragged, the view is worked out here (../map/sight.js) as if it stood
// on the square under the pointer; the server's next vision replaces it.
//
// Whose eyes count: the tokens of the group the vision is for, among the
// tokens this page holds. "party" (players share one view): every token with
// a controller; "u<id>" (each player sees through their own): the tokens
// that member controls. The server's answer is the truth; this is only the
// preview, so a GM's token handed to nobody never counts.

import { LitAreas } from "../map/lit_layer.js";

const SIGHT_MODULE = "../map/sight.js";
const FEET_PER_SQUARE = 5;
const DIM_SIGHT_FT = 60;

export class Vision {
  /** `previews`: the page may look through a group's eyes (the GM's, as
   *  the server serves it), so a vision shows that group's tokens alone. */
  constructor({ board, previews }) {
    this.board = board;
    this.previews = previews;
    this.vision = null;
    this.sight = null; // the geometry module, once loaded
    this.loading = null;
    this.barriers = null; // [walls, barriers] of the scene last read
    this.polygons = null; // visibility polygons kept while the walls are the same (sight.js)
    this.warming = null; // the idle round working them out (warm)
    this.lit = new LitAreas(board.layers.lit);
    this.whole = []; // the GM's: every light's whole area (./light_edit.js)
  }

  /** The GM's lit areas, whole: drawn while no group's vision is. */
  setWhole(list) {
    this.whole = list || [];
    this.drawLit();
  }

  /** A vision's lit areas (cut to its view by the server, or by its
   *  `light.clip`: a replay's, ../replay/fog.js), or the GM's;
   *  for the GM without fog the unlit ground is shaded here (under fog
   *  the fog says; a player's page has no whole areas to cut it from). */
  drawLit() {
    const { fog, scene } = this.board;
    // Entries logged before `lighting` say only whether the scene was lit.
    const lighting = scene?.lighting ?? (scene?.lit === false ? "dark" : "lit");
    if (!scene || lighting === "lit") {
      this.lit.show([]);
      return;
    }
    const size = { width: scene.width, height: scene.height };
    if (fog.active) this.lit.show(this.vision.lit || [], { size, clip: this.vision.light?.clip || null });
    else this.lit.show(this.whole, { size, shade: this.previews ? lighting : null });
  }

  /** The room's vision changed (null: no fog). */
  set(vision) {
    this.vision = vision;
    const board = this.board;
    board.fog.set(vision);
    // A GM seeing as a group sees that group's tokens alone; a player's page
    // holds only what its group sees already.
    board.showOnly(this.previews && vision ? vision.tokens : null);
    board.doors.showOnly(board.fog.active ? (door) => this.seen(door) : null);
    if (board.fog.active) this.load();
    this.drawLit();
    if (board.fog.active && this.sight) this.warm();
  }

  /** The map changed under the same vision (a door opened): doors again. */
  sceneChanged() {
    this.set(this.vision && this.vision.scene === this.board.scene?.id ? this.vision : null);
  }

  /** A door or window is as seen as the better seen of its two sides. */
  seen(door) {
    const fog = this.board.fog;
    const [mx, my] = [(door.x1 + door.x2) / 2, (door.y1 + door.y2) / 2];
    const length = Math.hypot(door.x2 - door.x1, door.y2 - door.y1) || 1;
    // A quarter of a square off the middle, square to the opening.
    const [nx, ny] = [(-(door.y2 - door.y1) / length) * 0.25, ((door.x2 - door.x1) / length) * 0.25];
    const sides = [fog.sees(mx + nx, my + ny), fog.sees(mx - nx, my - ny)];
    return ["view", "explored"].find((what) => sides.includes(what)) || "unexplored";
  }

  load() {
    if (this.sight || this.loading) return;
    this.loading = import(SIGHT_MODULE)
      .then((module) => {
        this.sight = module;
        this.warm();
      })
      .catch(() => {
        // No geometry to hand: drags simply wait for the server's view.
      });
  }

  /** The tokens the group sees through, as this page holds them. */
  eyes() {
    const group = this.vision?.group;
    const tokens = [...this.board.tokens.values()];
    if (group === "party") return tokens.filter((t) => (t.controllers || []).length > 0);
    const member = /^u(\d+)$/.exec(group || "");
    if (!member) return [];
    return tokens.filter((t) => (t.controllers || []).includes(Number(member[1])));
  }

  /**
   * What sight.js works a preview out from, with `token` (if any) standing
   * on `square`: {eyes, world, barriers, areas}; null when there is nothing
   * to work out (no fog, no geometry yet, walls it cannot read, a token the
   * group does not see through).
   */
  inputs(token = null, square = null) {
    if (!this.board.fog.active || !this.sight) return null;
    const tokens = this.eyes();
    if (token && !tokens.some((t) => t.id === token.id)) return null;
    const at = (t) => (token && t.id === token.id ? { ...t, x: square[0], y: square[1] } : t);
    const scene = this.board.scene;
    if (this.barriers?.[0] !== scene.walls) {
      try {
        this.barriers = [scene.walls, this.sight.parseBarriers(scene.walls)];
        this.polygons = this.sight.keptPolygons();
      } catch {
        return null; // walls the geometry cannot read: the server's view will do
      }
    }
    // sight.js's units: grid squares from a token's centre (5 ft a square).
    const centre = (t) => [t.x + (t.size || 1) / 2, t.y + (t.size || 1) / 2];
    // A dim scene's gloom: every eye sees that far without light (the server's
    // vtt/fog/lights.py, DIM_SIGHT_FT).
    const gloom = scene.lighting === "dim" ? DIM_SIGHT_FT / FEET_PER_SQUARE : 0;
    const eyes = tokens.map(at).map((t) => {
      const [x, y] = centre(t);
      return { x, y, sight: Math.max((t.sight_ft || 0) / FEET_PER_SQUARE, gloom) };
    });
    const lights = [...this.board.tokens.values()]
      .filter((t) => t.light_ft > 0)
      .map(at)
      .map((t) => {
        const [x, y] = centre(t);
        return { x, y, radius: t.light_ft / FEET_PER_SQUARE };
      });
    const world = { width: scene.width, height: scene.height, lit: scene.lit !== false, lights };
    // The map's lights as the server lit them for this group (their areas
    // cut to its view): where they fall still in sight from the eyes. A light
    // this page never got (one in a room the group cannot see into yet, one
    // the dragged token carries, lit where it stood) waits for the server.
    const areas = (this.vision?.lit || []).map((area) => area.dim);
    return { eyes, world, barriers: this.barriers[1], areas };
  }

  /** A token is being dragged over `square` (null: the drag ended without a move). */
  dragAt(token, square) {
    const fog = this.board.fog;
    if (!square) {
      fog.endPreview();
      return;
    }
    const inputs = this.inputs(token, square);
    if (!inputs) return;
    const { eyes, world, barriers, areas } = inputs;
    fog.preview(
      this.sight.viewPath(eyes, barriers, world, this.polygons),
      this.sight.previewLight(eyes, barriers, world, areas, this.polygons),
    );
  }

  /**
   * On a dim or dark scene, work out each eye's part of a preview's lit
   * places while the page is idle, one eye at a time, so a drag's first
   * step casts only the dragged eye's (on a big map each is milliseconds).
   */
  warm() {
    const ask = window.requestIdleCallback || ((work) => setTimeout(work, 50));
    const token = (this.warming = {}); // a newer vision drops this round
    const step = (i) => {
      if (this.warming !== token) return;
      const inputs = this.inputs();
      if (!inputs || inputs.world.lit || i >= inputs.eyes.length) return;
      const { eyes, world, barriers, areas } = inputs;
      this.sight.previewLight([eyes[i]], barriers, world, areas, this.polygons);
      ask(() => step(i + 1));
    };
    ask(() => step(0));
  }
}
