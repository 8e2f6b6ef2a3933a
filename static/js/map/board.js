// The battle map: it composes the layers and registers the tools that act
// on them, each a handler (./handler.js, ./tools/). The plain map pans and
// zooms (./view.js), drags tokens and opens doors; a tool that takes the
// pointer (the ruler, a fog area, the wall editor) is switched on with
// use(), which turns those three off until it goes: no tool asks another.
// Choosing tokens, their menu and keys, the doors' keys, the wheel, the
// range bands and pings stay on under every tool. The board tells "select",
// "selectedchange" and "tool" on `events`.
//
// Tokens are drawn by ./token_layer.js; a move settles when the server
// confirms it and springs back, with the reason, when it refuses it
// (requestMove, ./moves.js). Doors and windows are ./doors.js's, the fog ./fog.js's; a
// GM who sees as a group shows only the tokens that group sees (showOnly).

import { svg } from "../lib/dom.js";
import { MapView } from "./view.js";
import { Trails } from "./trails.js";
import { clipDefs } from "./token_face.js";
import { Doors } from "./doors.js";
import { Fog } from "./fog.js";
import { Ghosts } from "./ghosts.js";
import { drawGround } from "./ground.js";
import { TokenLayer } from "./token_layer.js";
import { Ruler } from "./tools/ruler.js";
import { RangeBands } from "./tools/range_bands.js";
import { TokenDrag } from "./tools/token_drag.js";
import { TokenKeys } from "./tools/token_keys.js";
import { DoorKeys, DoorUse } from "./tools/doors.js";
import { PingTool } from "./tools/ping.js";
import { Drawings } from "./drawings.js";
import { requestMove } from "./moves.js";

// Touch discs sit under every token, so a finger on a token's own face
// takes that token and one beside it the nearest disc; and under the doors,
// which a disc reaching past its square would cover on a phone. The fog
// covers the map and its walls, not what moves on it; doors lie on it
// whole, hidden or dimmed by what was seen of them (./doors.js); drawings
// and area templates lie on the ground, under what moves.
const LAYERS = ["background", "bands", "grid", "walls", "lit", "fog", "hits", "doors", "lights", "drawings", "trails", "templates", "ghosts", "tokens", "ruler", "area", "pings"];

export class Board {
  constructor(svgEl, options) {
    this.svg = svgEl;
    // me, may (what the member may do: ../room/may.js; none on a replay), diagonal, api, onMove, onDrag, onPing(x, y, pull), onSelect, status, badge,
    // bandChoice, bandWeapon, toggleRuler, onDragAt(token, square|null) (the
    // square a drag is over; null: it ended without a move), onDoor(door,
    // "use"|"lock"), and for the GM onMenu(token, point), onEdit(token),
    // onDoorMenu(door, point)
    this.options = options;
    this.events = new EventTarget();
    this.scene = null;
    this.tokens = new Map();
    this.selected = null;
    this.onlyTokens = null; // a Set of the token ids shown, or null: all
    this.world = svg("g", { class: "world" });
    this.layers = {};
    for (const name of LAYERS) {
      this.layers[name] = svg("g", { class: `layer-${name}` });
      this.world.append(this.layers[name]);
    }
    svgEl.append(clipDefs(), this.world);
    this.pieces = new TokenLayer(this);
    this.nodes = this.pieces.nodes;
    this.view = new MapView(svgEl, () => this.pieces.zoomed());
    this.view.focus = () => this.focusPoint();
    this.ghosts = new Ghosts(this, this.layers.ghosts);
    this.trails = new Trails(this.layers.trails, this);
    this.fog = new Fog(this.layers.fog);
    this.doors = new Doors(this.layers.doors);
    this.drawings = new Drawings(this.layers.drawings); // filled by the room (room/drawing.js)
    const doorOptions = {
      onUse: (door) => options.onDoor?.(door, "use"),
      onLock: (door) => options.onDoor?.(door, "lock"),
      onMenu: options.onDoorMenu || null,
    };
    // The tools: the plain map's, given up while another takes the pointer.
    this.drag = new TokenDrag(this);
    this.doorUse = new DoorUse(this, doorOptions);
    this.plain = [this.view.panning, this.drag, this.doorUse];
    this.ruler = new Ruler(this, this.layers.ruler);
    this.bands = new RangeBands(this, this.layers.bands);
    this.ping = new PingTool(this, this.layers.pings); // pings and their pulses: ./tools/ping.js
    for (const tool of [...this.plain, this.bands, this.ping, new TokenKeys(this), new DoorKeys(this, doorOptions)]) tool.enable();
    this.tool = null; // the tool that has the pointer, or null: the plain map
    // On the map's box, so a tool's own keys on the map come first.
    this.view.box.addEventListener("keydown", (e) => this.mapKey(e));
  }

  /** Give the pointer to one tool (null: back to the plain map). The one
   *  before is disabled first, so it can say it ended. */
  use(tool) {
    if (this.tool === tool) return;
    const before = this.tool;
    this.tool = tool;
    before?.disable();
    for (const plain of this.plain) (tool ? plain.disable() : plain.enable());
    tool?.enable();
    this.events.dispatchEvent(new CustomEvent("tool", { detail: tool }));
  }

  setScene(scene) {
    // The same map changed (a door opened, walls redrawn): the trails, the
    // fog and the zoom stay.
    const before = this.scene;
    const sameMap = !!scene && before?.id === scene.id;
    this.scene = scene;
    drawGround(this.layers, scene);
    this.ghosts.clear();
    this.bands.clear();
    if (!sameMap) {
      this.trails.clearAll();
      this.drawings.clear();
    }
    this.ruler.clear();
    this.doors.setScene(scene);
    this.fog.setScene(scene);
    if (!scene) {
      this.setTokens([]);
      return;
    }
    const { width, height } = scene;
    if (!sameMap || before.width !== width || before.height !== height) this.view.fit(width, height);
    else this.bands.refresh();
  }

  setTokens(list) {
    this.tokens.clear();
    this.pieces.clear();
    for (const token of list) this.upsert(token);
    if (this.selected && !this.tokens.has(this.selected)) this.select(null);
    if (this.scene && this.view.fitted) this.view.fit(); // a phone's fit centres on the player's token
  }

  /** The square a phone's fitted view centres on: the selected token, or
   *  else a player's own token; null (the map's middle) for the GM. */
  focusPoint() {
    const mine = (t) => !!this.options.may?.ownToken(t);
    const token = this.tokens.get(this.selected) || [...this.tokens.values()].find(mine);
    if (!token) return null;
    const s = token.size || 1;
    return [token.x + s / 2, token.y + s / 2];
  }

  canMove(token) {
    return !!this.options.may?.movesToken(token);
  }

  upsert(token) {
    if (this.scene && token.scene_id !== undefined && token.scene_id !== this.scene.id) return;
    const known = this.tokens.get(token.id);
    if (known && known.version > token.version) return; // an older state arriving late
    this.tokens.set(token.id, token);
    this.ghosts.remove(token.id);
    this.pieces.drawToken(this.pieces.node(token), token);
    if (known && (known.size !== token.size || known.color !== token.color)) this.trails.drawOne(token.id);
    if (this.selected === token.id) {
      this.events.dispatchEvent(new Event("selectedchange"));
      this.options.onSelectedChange?.(token);
    }
  }

  remove(id) {
    this.tokens.delete(id);
    this.pieces.remove(id);
    this.ghosts.remove(id);
    this.trails.drawOne(id);
    if (this.selected === id) this.select(null);
  }

  /** Show only these tokens (a GM seeing as a group), or all (null). */
  showOnly(ids) {
    this.onlyTokens = ids ? new Set(ids) : null;
    for (const id of this.nodes.keys()) this.pieces.restyle(id);
  }

  redrawAll() {
    this.pieces.redrawAll();
  }

  select(id) {
    const before = this.selected;
    this.selected = id;
    this.pieces.restyle(before);
    this.pieces.restyle(id);
    this.pieces.placeLabelsSoon(); // the selected token's name is placed first
    this.events.dispatchEvent(new Event("select"));
    this.options.onSelect?.(id === null ? null : this.tokens.get(id));
  }

  /** The token's menu, at a point on screen (null: beside the token). */
  openMenu(id, point = null) {
    const token = this.tokens.get(id);
    if (!token || !this.options.onMenu) return;
    if (this.selected !== id) this.select(id);
    this.options.onMenu(token, point);
  }

  edit(id) {
    const token = this.tokens.get(id);
    if (!token || !this.options.onEdit) return;
    if (this.selected !== id) this.select(id);
    this.options.onEdit(token);
  }

  /** The square under a point on screen, or null off the map. */
  squareAt(clientX, clientY) {
    return this.scene ? this.view.squareAt(clientX, clientY) : null;
  }

  /** The square in the middle of what the map shows. */
  middleSquare() {
    return this.scene ? this.view.middleSquare() : null;
  }

  clampSquare(token, x, y) {
    const s = token.size || 1;
    const w = this.scene ? this.scene.width - s : x;
    const h = this.scene ? this.scene.height - s : y;
    return [Math.max(0, Math.min(w, x)), Math.max(0, Math.min(h, y))];
  }

  /** Ask the server to move a token (./moves.js). */
  requestMove(id, x, y) {
    requestMove(this, id, x, y);
  }

  /** Keys on the focused map that no tool took: R the ruler, Escape drops
   *  the selection, the rest pan and zoom (./view.js). */
  mapKey(e) {
    if (e.target !== this.svg || e.defaultPrevented) return;
    if (e.key === "r" || e.key === "R") {
      this.options.toggleRuler?.();
      e.preventDefault();
    } else if (e.key === "Escape") this.select(null);
    else if (this.view.key(e)) e.preventDefault();
  }
}
