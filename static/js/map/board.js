// The battle map: background, grid, walls, range bands, movement trails,
// tokens and the previews of tokens others are dragging. Tokens drag and snap to squares;
// a move settles when the server confirms it and springs back, with the
// reason, when the server refuses it. A token shows its picture or its
// initials (./token_face.js), its wound state as a ring and a plate, and
// its name below it when there is room (./labels.js). A right click, a
// long press (touch) or the context-menu key on a token asks for its menu
// (options.onMenu); a double click, or Enter on the selected token, asks to
// edit it (options.onEdit). A character dragged from the side panel shows
// where it would land (showDrop). Doors and windows are ./doors.js's, the
// fog of war over the map ./fog.js's; a GM who sees as a group shows only
// the tokens that group sees (showOnly).
//
// Big maps: the work of a move, a drop or a selection is the token's own
// (its node, and the names near it placed again once a frame), never a
// redraw of every token. A zoom, once the view rests (./view.js), changes
// two style rules (the names' size, the touch discs' radius: zoomRules)
// and redraws only the tokens with a picture or a wound plate. Below
// FAR_PX a square the map is "far": no names (but the selected, focused or
// hovered token's) and no initials, as they could not be read there.

import { svg, clear } from "../lib/dom.js";
import { MapView } from "./view.js";
import { Ruler } from "./ruler.js";
import { Bands } from "./bands.js";
import { Trails } from "./trails.js";
import { clipDefs, drawCondition, drawFace, makeFace, severity } from "./token_face.js";
import { shownLabels } from "./labels.js";
import { Doors } from "./doors.js";
import { Fog } from "./fog.js";

const DRAG_PREVIEW_MS = 60;
// Text on the map never gets smaller on screen than this many pixels
// (nor smaller than a share of a square when zoomed in).
const NAME_PX = 12;
const HIT_PX = 44; // the smallest touch target, in CSS px (WCAG 2.5.5)
const STATE_PX = 11;
const FAR_PX = 16;
// Names change size in steps of this factor of the zoom, not at every
// frame of a zoom: each change lays out every name again.
const NAME_STEP = 1.25;
const HIT_STEP = 1.1;
const LONG_PRESS_MS = 500;
const PRESS_SLOP_PX = 8; // a finger that wanders further is dragging, not pressing

/** The two style rules a zoom changes: the touch discs' radius and the
 *  names' size. Rules of their own, not properties inherited from the map,
 *  so a zoom restyles the discs and the names, not every element of the
 *  map (27,000 at 3,000 tokens); each in a sheet of its own, as a change
 *  to a sheet restyles what any of its rules matches. */
function zoomRules() {
  const rule = (selector) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(`${selector} {}`);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return sheet.cssRules[0].style;
  };
  return { hits: rule("svg.map .layer-hits circle.hit"), names: rule("svg.map .token text.label") };
}

export class Board {
  constructor(svgEl, options) {
    this.svg = svgEl;
    // me, isGm, diagonal, api, onMove, onDrag, onSelect, status, badge,
    // bandChoice, bandWeapon, onDragAt(token, square|null) (the square a drag
    // is over; null: it ended without a move), onDoor(door, "use"|"lock"),
    // and for the GM onMenu(token, point), onEdit(token), onDoorMenu(door, point)
    this.options = options;
    this.scene = null;
    this.tokens = new Map();
    this.nodes = new Map();
    this.hits = new Map(); // token id -> its touch disc in the hits layer
    this.drawnAt = new Map(); // token id -> the square it is drawn on (a drag's, while dragging)
    this.ghosts = new Map();
    this.selected = null;
    this.onlyTokens = null; // a Set of the token ids shown, or null: all
    this.world = svg("g", { class: "world" });
    this.layers = {};
    // Touch discs sit under every token, so a finger on a token's own face
    // always takes that token, and one beside it takes the nearest disc.
    // The fog covers the map and its walls, not what moves on it; doors lie
    // on it whole, hidden or dimmed by what was seen of them (./doors.js).
    const layers = ["background", "bands", "grid", "walls", "fog", "doors", "trails", "ghosts", "hits", "tokens", "ruler", "area"];
    for (const name of layers) {
      this.layers[name] = svg("g", { class: `layer-${name}` });
      this.world.append(this.layers[name]);
    }
    svgEl.append(clipDefs(), this.world);
    this.text = this.textSizes(40);
    this.widths = new Map(); // a name -> its width at a font size of 1
    this.zoomRules = zoomRules();
    this.view = new MapView(svgEl, () => this.zoomed());
    this.view.focus = () => this.focusPoint();
    this.ruler = new Ruler(this, this.layers.ruler);
    this.bands = new Bands(this.layers.bands, options.api, (error) =>
      options.status(`No range bands: ${error.message || error.code || "refused"}.`, true),
    );
    this.trails = new Trails(this.layers.trails, this);
    this.fog = new Fog(this.layers.fog);
    this.doors = new Doors(this.layers.doors, {
      busy: () => this.busy(),
      onUse: (door) => options.onDoor?.(door, "use"),
      onLock: (door) => options.onDoor?.(door, "lock"),
      onMenu: options.onDoorMenu || null,
    });
    this.tool = null; // a map mode that takes the pointer (the GM's fog areas)
    this.view.ignore = () => this.busy();
    svgEl.addEventListener("keydown", (e) => this.mapKey(e));
    svgEl.addEventListener("pointerdown", (e) => this.ruler.down(e));
  }

  /** The ruler or another tool has the pointer: no panning, no doors. */
  busy() {
    return this.ruler.active || !!this.tool?.active;
  }

  setScene(scene) {
    // The same map changed (a door opened, walls redrawn): the trails, the
    // fog and the zoom stay.
    const before = this.scene;
    const sameMap = !!scene && before?.id === scene.id;
    this.scene = scene;
    for (const name of ["background", "grid", "walls", "ghosts"]) clear(this.layers[name]);
    this.bands.clear();
    if (!sameMap) this.trails.clearAll();
    this.ruler.clear();
    this.doors.setScene(scene);
    this.fog.setScene(scene);
    if (!scene) {
      this.setTokens([]);
      return;
    }
    const { width, height } = scene;
    if (scene.background) {
      this.layers.background.append(
        svg("image", { href: scene.background, x: 0, y: 0, width, height, preserveAspectRatio: "none" }),
      );
    }
    this.layers.grid.append(svg("rect", { class: "map-border", x: 0, y: 0, width, height }));
    for (let x = 1; x < width; x += 1) {
      this.layers.grid.append(svg("line", { class: "grid-line", x1: x, y1: 0, x2: x, y2: height }));
    }
    for (let y = 1; y < height; y += 1) {
      this.layers.grid.append(svg("line", { class: "grid-line", x1: 0, y1: y, x2: width, y2: y }));
    }
    for (const [x1, y1, x2, y2, kind] of scene.walls || []) {
      if (kind) continue; // a door or a window: ./doors.js draws it
      this.layers.walls.append(svg("line", { class: "wall", x1, y1, x2, y2 }));
    }
    if (!sameMap || before.width !== width || before.height !== height) this.view.fit(width, height);
    else this.refreshBands();
  }

  setTokens(list) {
    this.tokens.clear();
    clear(this.layers.tokens);
    clear(this.layers.hits);
    this.hits.clear();
    this.nodes.clear();
    this.drawnAt.clear();
    for (const token of list) this.upsert(token);
    if (this.selected && !this.tokens.has(this.selected)) this.select(null);
    if (this.scene && this.view.fitted) this.view.fit(); // a phone's fit centres on the player's token
  }

  /** The square a phone's fitted view centres on: the selected token, or
   *  else a player's own token; null (the map's middle) for the GM. */
  focusPoint() {
    const mine = (t) => !this.options.isGm && (t.controllers || []).includes(this.options.me?.id);
    const token = this.tokens.get(this.selected) || [...this.tokens.values()].find(mine);
    if (!token) return null;
    const s = token.size || 1;
    return [token.x + s / 2, token.y + s / 2];
  }

  canMove(token) {
    const { me, isGm } = this.options;
    return isGm || (token.controllers || []).includes(me.id);
  }

  upsert(token) {
    if (this.scene && token.scene_id !== undefined && token.scene_id !== this.scene.id) return;
    const known = this.tokens.get(token.id);
    if (known && known.version > token.version) return; // an older state arriving late
    this.tokens.set(token.id, token);
    this.ghosts.get(token.id)?.remove();
    this.ghosts.delete(token.id);
    let node = this.nodes.get(token.id);
    if (!node) {
      node = this.makeToken(token);
      this.nodes.set(token.id, node);
      this.layers.tokens.append(node);
    }
    this.drawToken(node, token);
    if (known && (known.size !== token.size || known.color !== token.color)) this.trails.drawOne(token.id);
    if (this.selected === token.id) {
      this.refreshBands();
      this.options.onSelectedChange?.(token);
    }
  }

  remove(id) {
    this.tokens.delete(id);
    this.nodes.get(id)?.remove();
    this.nodes.delete(id);
    this.hits.get(id)?.remove();
    this.hits.delete(id);
    this.drawnAt.delete(id);
    this.ghosts.get(id)?.remove();
    this.ghosts.delete(id);
    this.trails.drawOne(id);
    this.placeLabelsSoon();
    if (this.selected === id) this.select(null);
  }

  makeToken(token) {
    const node = svg("g", { class: "token", tabindex: 0, role: "button", "data-token-id": token.id });
    node.append(
      svg("circle", { class: "ring" }),
      makeFace(),
      svg("g", { class: "badge-wrap" }),
      svg("text", { class: "label" }),
    );
    node.classList.add("label-crowded", "plate-crowded"); // until the names and plates are placed
    // An invisible disc at least 44 CSS px across, so a finger can take a
    // token drawn smaller than that at the fitted zoom (sized in sizeHit()).
    const hit = svg("circle", { class: "hit", "data-hit-for": token.id });
    this.hits.set(token.id, hit);
    this.layers.hits.append(hit);
    const menu = (e) => {
      if (!this.options.onMenu) return;
      e.preventDefault();
      e.stopPropagation();
      this.openMenu(token.id, { x: e.clientX, y: e.clientY });
    };
    for (const target of [node, hit]) {
      target.addEventListener("pointerdown", (e) => this.grab(e, token.id));
      target.addEventListener("contextmenu", menu);
    }
    node.addEventListener("dblclick", (e) => {
      e.preventDefault();
      this.edit(token.id);
    });
    node.addEventListener("keydown", (e) => this.tokenKey(e, token.id));
    node.addEventListener("focus", () => this.options.onFocus?.(this.tokens.get(token.id)));
    node.querySelector("image.art").addEventListener("error", (e) => {
      // A picture that will not load shows the initials instead.
      e.target.parentNode.classList.add("art-failed");
    });
    return node;
  }

  /** Font sizes in squares for a zoom of `scale` pixels a square (names
   *  in steps, at least NAME_PX and at most NAME_STEP times that on screen). */
  textSizes(scale) {
    const stepped = NAME_STEP ** Math.floor(Math.log(scale) / Math.log(NAME_STEP) + 1e-9);
    return { name: Math.max(0.3, NAME_PX / stepped), state: Math.max(0.24, STATE_PX / scale) };
  }

  /** The zoom changed: text keeps its size on screen and touch discs their
   *  reach, through the map's style; the names are placed anew, and the
   *  tokens whose drawing depends on the zoom (a picture's thumbnail, a
   *  wound plate's text) are drawn again, once a frame. */
  zoomed() {
    const scale = this.view.scale;
    if (scale === this.drawnScale) return; // a pan: the world moved, nothing in it changed
    this.drawnScale = scale;
    // The discs' reach changes in steps too (each change restyles them all,
    // and a refit after a panel or the toolbar changes size moves the zoom
    // a little): at the step below the zoom, so never under HIT_PX on screen.
    const hitScale = HIT_STEP ** Math.floor(Math.log(scale) / Math.log(HIT_STEP));
    const reach = `max(var(--half, 0.5px), ${HIT_PX / 2 / hitScale}px)`;
    if (this.hitReach !== reach) this.zoomRules.hits.setProperty("r", reach);
    this.hitReach = reach;
    this.svg.classList.toggle("far", scale < FAR_PX);
    const sizes = this.textSizes(scale);
    if (sizes.name !== this.text.name) {
      this.zoomRules.names.setProperty("font-size", `${sizes.name}px`);
      this.placeLabelsSoon();
    }
    if (this.far !== scale < FAR_PX) this.placeLabelsSoon();
    this.far = scale < FAR_PX;
    // Pictures pick their thumbnail by size on screen: look again at each doubling.
    const octave = Math.floor(Math.log2(scale));
    if (sizes.state === this.text.state && octave === this.octave) {
      this.text = sizes;
      return;
    }
    this.text = sizes;
    this.octave = octave;
    if (this.zoomFrame) return;
    this.zoomFrame = requestAnimationFrame(() => {
      this.zoomFrame = null;
      for (const token of this.tokens.values()) {
        const node = this.nodes.get(token.id);
        if (token.art || node.dataset.woundLevel !== "none") this.drawToken(node, token, this.drawnAt.get(token.id));
      }
    });
  }

  drawToken(node, token, at = [token.x, token.y]) {
    const s = token.size || 1;
    const [x, y] = at;
    // Each part is placed at the square itself: a transform per token would
    // make each token a paint chunk of its own, 3,000 of them for Chromium
    // to walk at every frame that changes the map.
    const was = this.drawnAt.get(token.id);
    const moved = !was || was[0] !== x || was[1] !== y;
    this.drawnAt.set(token.id, at);
    node.classList.toggle("hidden-token", !!token.hidden);
    const outOfView = !!this.onlyTokens && !this.onlyTokens.has(token.id);
    node.classList.toggle("out-of-view", outOfView);
    this.hits.get(token.id)?.classList.toggle("out-of-view", outOfView);
    node.classList.toggle("selected", this.selected === token.id);
    node.classList.toggle("movable", this.canMove(token));
    const [ring, face, badgeWrap, label] = node.children;
    ring.setAttribute("cx", x + s / 2);
    ring.setAttribute("cy", y + s / 2);
    ring.setAttribute("r", s * 0.5);
    drawFace(face, token, s, s * 0.8 * this.view.scale, x, y);
    this.sizeHit(token, at);
    const labelY = String(y + s + 0.05);
    if (moved || label.getAttribute("y") !== labelY || label.textContent !== token.name) {
      label.textContent = token.name;
      label.setAttribute("x", x + s / 2); // placeLabels() moves a name at the map's edge
      label.setAttribute("y", labelY);
    }
    // The mark is text, or {text, fallen} for a character out of the fight.
    const given = this.options.badge?.(token);
    const mark = typeof given === "string" ? { text: given, fallen: null } : given || null;
    const level = severity(mark);
    node.classList.toggle("fallen", !!mark?.fallen);
    node.classList.toggle("dead", mark?.fallen === "dead");
    node.dataset.woundLevel = level || "none";
    drawCondition(badgeWrap, mark, s, this.text.state, x, y);
    const state = [mark?.text || "", token.hidden ? "hidden from players" : ""].filter(Boolean);
    node.setAttribute("aria-label", [token.name, ...state, `at column ${x}, row ${y}`].join(", "));
    this.placeLabelsSoon();
  }

  /** The touch disc: the token's own circle, or 44 CSS px across if
   *  that is larger (the radius is zoomRules' hits rule, set by zoomed()). */
  sizeHit(token, at = this.drawnAt.get(token.id) || [token.x, token.y]) {
    const hit = this.hits.get(token.id);
    if (!hit) return;
    const s = token.size || 1;
    hit.setAttribute("cx", at[0] + s / 2);
    hit.setAttribute("cy", at[1] + s / 2);
    hit.setAttribute("r", s * 0.5);
    hit.style.setProperty("--half", `${s * 0.5}px`);
  }

  /** Names are placed once per frame, however many tokens changed. */
  placeLabelsSoon() {
    if (this.labelFrame) return;
    this.labelFrame = requestAnimationFrame(() => {
      this.labelFrame = null;
      this.placeLabels();
    });
  }

  placeLabels() {
    // At a far zoom no names are placed: each is "crowded", shown only on
    // its token's hover, focus or selection. Wound plates are placed at any zoom.
    const far = this.far;
    const items = [];
    const size = this.text.name;
    for (const [id, node] of this.nodes) {
      const token = this.tokens.get(id);
      if (!token) continue;
      const label = node.children[3];
      const [x, y] = this.drawnAt.get(id) || [token.x, token.y];
      const s = token.size || 1;
      const disc = { x: x + s * 0.1, y: y + s * 0.1, w: s * 0.8, h: s * 0.8 };
      const plate = this.plateBox(node.children[2]);
      if (far) {
        items.push({ id, box: null, disc, plate });
        continue;
      }
      const width = this.nameWidth(token.name, label) * size;
      const height = size * 1.2;
      // A name stays on the map: one at its edge slides inwards, off-centre.
      const mapWidth = this.scene?.width ?? Infinity;
      const middle = width >= mapWidth ? mapWidth / 2 : Math.min(Math.max(x + s / 2, width / 2), mapWidth - width / 2);
      const at = String(middle);
      if (label.getAttribute("x") !== at) label.setAttribute("x", at);
      items.push({ id, box: { x: middle - width / 2, y: y + s, w: width, h: height }, disc, plate });
    }
    const plates = new Set();
    const shown = shownLabels(items, this.selected, plates);
    // (toggle, not add: add writes the attribute even when the class is there)
    for (const [id, node] of this.nodes) {
      node.classList.toggle("label-crowded", !shown.has(id));
      node.classList.toggle("plate-crowded", !plates.has(id));
    }
  }

  /** A wound plate's box in squares, from the attributes drawCondition()
   *  gave it (no layout), or null for a token without one. */
  plateBox(wrap) {
    const plate = wrap.querySelector("rect.badge-bg");
    if (!plate) return null;
    const [x, y, w, h] = ["x", "y", "width", "height"].map((name) => Number(plate.getAttribute(name)));
    return { x, y, w, h };
  }

  /** A name's width at a font size of 1 (measured once a name: the width
   *  follows the font size, and measuring lays the page out). */
  nameWidth(name, label) {
    let width = this.widths.get(name);
    if (width === undefined) {
      const measured = label.getComputedTextLength?.();
      const size = parseFloat(getComputedStyle(label).fontSize);
      width = measured && size ? measured / size : name.length * 0.55;
      if (measured) this.widths.set(name, width);
    }
    return width;
  }

  /** Show only these tokens (a GM seeing as a group), or all (null). */
  showOnly(ids) {
    this.onlyTokens = ids ? new Set(ids) : null;
    for (const id of this.nodes.keys()) this.restyle(id);
  }

  redrawAll() {
    for (const token of this.tokens.values()) this.drawToken(this.nodes.get(token.id), token);
  }

  /** The classes that follow the selection and the GM's "see as". */
  restyle(id) {
    const node = this.nodes.get(id);
    if (!node) return;
    const outOfView = !!this.onlyTokens && !this.onlyTokens.has(id);
    node.classList.toggle("out-of-view", outOfView);
    this.hits.get(id)?.classList.toggle("out-of-view", outOfView);
    node.classList.toggle("selected", this.selected === id);
  }

  select(id) {
    const before = this.selected;
    this.selected = id;
    this.restyle(before);
    this.restyle(id);
    this.placeLabelsSoon(); // the selected token's name is placed first
    this.refreshBands();
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
    if (!this.scene) return null;
    const box = this.view.screenBox();
    if (clientX < box.left || clientX > box.right || clientY < box.top || clientY > box.bottom) return null;
    const [gx, gy] = this.view.toGrid(clientX, clientY);
    const [x, y] = [Math.floor(gx), Math.floor(gy)];
    if (x < 0 || y < 0 || x >= this.scene.width || y >= this.scene.height) return null;
    return [x, y];
  }

  /** The square in the middle of what the map shows. */
  middleSquare() {
    if (!this.scene) return null;
    const box = this.view.screenBox();
    const [gx, gy] = this.view.toGrid(box.left + box.width / 2, box.top + box.height / 2);
    const clamp = (v, side) => Math.max(0, Math.min(side - 1, Math.floor(v)));
    return [clamp(gx, this.scene.width), clamp(gy, this.scene.height)];
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
      this.layers.ghosts.append(this.dropMark);
    }
    const [x, y] = this.clampSquare({ size }, square[0], square[1]);
    for (const [k, v] of Object.entries({ x, y, width: size, height: size })) this.dropMark.setAttribute(k, v);
  }

  refreshBands() {
    const token = this.tokens.get(this.selected);
    const choice = this.options.bandChoice?.();
    if (!token || !this.scene || !choice) {
      this.bands.clear();
      return;
    }
    this.bands.show(token, choice).then(() => {
      if (this.ruler.active) this.ruler.draw();
    });
  }

  // ---- dragging

  clampSquare(token, x, y) {
    const s = token.size || 1;
    const w = this.scene ? this.scene.width - s : x;
    const h = this.scene ? this.scene.height - s : y;
    return [Math.max(0, Math.min(w, x)), Math.max(0, Math.min(h, y))];
  }

  grab(e, id) {
    const token = this.tokens.get(id);
    if (!token || this.busy()) return;
    e.preventDefault(); // the map does not pan under a token
    e.stopPropagation();
    if (e.button !== 0) return; // a right click is the menu's (contextmenu)
    if (!this.canMove(token)) {
      this.select(id);
      return;
    }
    const node = this.nodes.get(id);
    const [gx, gy] = this.view.toGrid(e.clientX, e.clientY);
    const drag = { id, dx: gx - token.x, dy: gy - token.y, at: [token.x, token.y], moved: false, sent: 0 };
    node.setPointerCapture?.(e.pointerId);
    node.classList.add("dragging");
    // A finger held still on a token opens its menu instead of dragging it.
    const pressAt = [e.clientX, e.clientY];
    let pressTimer = null;
    if (this.options.onMenu && e.pointerType !== "mouse") {
      pressTimer = setTimeout(() => {
        pressTimer = null;
        stop();
        node.releasePointerCapture?.(e.pointerId);
        this.drawToken(node, this.tokens.get(id) || token); // back where the server has it
        this.options.onDragAt?.(token, null);
        this.openMenu(id, { x: pressAt[0], y: pressAt[1] });
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
      const [px, py] = this.view.toGrid(ev.clientX, ev.clientY);
      const square = this.clampSquare(token, Math.round(px - drag.dx), Math.round(py - drag.dy));
      if (square[0] === drag.at[0] && square[1] === drag.at[1]) return;
      drag.at = square;
      drag.moved = true;
      this.drawToken(node, token, square);
      this.options.onDragAt?.(token, square);
      const now = performance.now();
      if (now - drag.sent >= DRAG_PREVIEW_MS) {
        drag.sent = now;
        this.options.onDrag?.(token, square[0], square[1]);
      }
    };
    const up = () => {
      stop();
      if (!drag.moved || (drag.at[0] === token.x && drag.at[1] === token.y)) {
        if (drag.moved) this.options.onDragAt?.(token, null);
        this.drawToken(node, this.tokens.get(id));
        this.select(this.selected === id && !drag.moved ? null : id);
        return;
      }
      this.select(id);
      this.requestMove(id, drag.at[0], drag.at[1]);
    };
    node.addEventListener("pointermove", move);
    node.addEventListener("pointerup", up);
    node.addEventListener("pointercancel", up);
  }

  requestMove(id, x, y) {
    const token = this.tokens.get(id);
    const node = this.nodes.get(id);
    if (!token || !node) return;
    [x, y] = this.clampSquare(token, x, y);
    node.classList.add("pending");
    this.drawToken(node, token, [x, y]);
    this.options
      .onMove(token, x, y)
      .then((ack) => {
        node.classList.remove("pending");
        if (ack?.token) this.upsert(ack.token);
        this.options.status(`${token.name} moved to column ${x}, row ${y}.`);
      })
      .catch((error) => {
        node.classList.remove("pending");
        if (error?.token) this.upsert(error.token);
        const now = this.tokens.get(id);
        if (now) this.drawToken(node, now); // spring back to where the server has it
        this.options.onDragAt?.(token, null);
        this.options.status(`${token.name} did not move: ${error?.message || "refused"}.`, true);
      });
  }

  /** Someone else is dragging: show a ghost where the token would land. */
  showDrag(frame) {
    const token = this.tokens.get(frame.token);
    if (!token || frame.by === this.options.me.id) return;
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
      this.layers.ghosts.append(ghost);
    }
    ghost.setAttribute("transform", `translate(${frame.x} ${frame.y})`);
  }

  // ---- keyboard

  tokenKey(e, id) {
    const token = this.tokens.get(id);
    if (!token) return;
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (steps[e.key] && this.canMove(token) && !this.busy()) {
      e.preventDefault();
      e.stopPropagation();
      const [dx, dy] = steps[e.key];
      this.select(id);
      this.requestMove(id, token.x + dx, token.y + dy);
    } else if (e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey)) {
      if (!this.options.onMenu) return;
      e.preventDefault();
      e.stopPropagation();
      this.openMenu(id);
    } else if (e.key === "Enter" && this.selected === id && this.options.onEdit) {
      e.preventDefault();
      e.stopPropagation();
      this.edit(id);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      this.select(this.selected === id ? null : id);
    } else if (e.key === "Escape") {
      this.select(null);
    }
  }

  mapKey(e) {
    if (e.target !== this.svg) return;
    if (e.key === "r" || e.key === "R") {
      this.options.toggleRuler?.();
      e.preventDefault();
      return;
    }
    if (this.ruler.active && this.ruler.key(e)) {
      e.preventDefault();
      return;
    }
    if (this.tool?.active && this.tool.key(e)) {
      e.preventDefault();
      return;
    }
    if (e.key === "Escape") {
      this.select(null);
      this.ruler.clear();
      return;
    }
    if (this.view.key(e)) e.preventDefault();
  }
}
