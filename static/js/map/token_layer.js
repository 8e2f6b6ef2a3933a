// The tokens drawn on the map: each a node in the tokens layer (ring,
// face, wound plate, name) and an invisible touch disc in the hits layer.
// A token shows its picture or its initials (./token_face.js), its wound
// state as a ring and a plate, and its name below it when there is room
// (./labels.js). What a press, a key or a drag does to a token is the
// tools' (./tools/token_drag.js, ./tools/token_keys.js); this only draws.
//
// Big maps: the work of a move, a drop or a selection is the token's own
// (its node, and the names near it placed again once a frame), never a
// redraw of every token. A zoom, once the view rests (./view.js), changes
// two style rules (the names' size, the touch discs' radius: zoomRules)
// and redraws only the tokens with a picture or a wound plate. Below
// FAR_PX a square the map is "far": no names (but the selected, focused or
// hovered token's) and no initials, as they could not be read there.

import { svg, clear } from "../lib/dom.js";
import { drawCondition, drawFace, makeFace, makePrint, severity } from "./token_face.js";
import { shownLabels } from "./labels.js";
import { drawMarkers } from "./marker_badges.js";

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

export class TokenLayer {
  constructor(board) {
    this.board = board;
    this.nodes = new Map();
    this.hits = new Map(); // token id -> its touch disc in the hits layer
    this.prints = new Map(); // token id -> its initials and plate words, just after its node
    this.drawnAt = new Map(); // token id -> the square it is drawn on (a drag's, while dragging)
    this.text = this.textSizes(40);
    this.widths = new Map(); // a name -> its width at a font size of 1
    this.zoomRules = zoomRules();
  }

  clear() {
    clear(this.board.layers.tokens);
    clear(this.board.layers.hits);
    this.hits.clear();
    this.prints.clear();
    this.nodes.clear();
    this.drawnAt.clear();
  }

  /** A token's node, made the first time it is asked for. */
  node(token) {
    let node = this.nodes.get(token.id);
    if (!node) {
      node = this.makeToken(token);
      this.nodes.set(token.id, node);
      this.board.layers.tokens.append(node, this.prints.get(token.id));
    }
    return node;
  }

  remove(id) {
    this.nodes.get(id)?.remove();
    this.nodes.delete(id);
    this.hits.get(id)?.remove();
    this.hits.delete(id);
    this.prints.get(id)?.remove();
    this.prints.delete(id);
    this.drawnAt.delete(id);
    this.placeLabelsSoon();
  }

  makeToken(token) {
    const node = svg("g", { class: "token", tabindex: 0, role: "button", "data-token-id": token.id });
    node.append(
      svg("circle", { class: "ring" }),
      makeFace(),
      svg("g", { class: "badge-wrap" }),
      svg("text", { class: "label" }),
      svg("g", { class: "markers" }), // status markers (./marker_badges.js)
    );
    node.classList.add("label-crowded", "plate-crowded"); // until the names and plates are placed
    // The initials and the plate's words: out of the button, whose only
    // text is its name (token_face.js); tokens.css styles them by the
    // token's classes, as the print always follows its token.
    const print = makePrint(token.id);
    this.prints.set(token.id, print);
    // An invisible disc at least 44 CSS px across, so a finger can take a
    // token drawn smaller than that at the fitted zoom (sized in sizeHit()).
    const hit = svg("circle", { class: "hit", "data-hit-for": token.id });
    this.hits.set(token.id, hit);
    this.board.layers.hits.append(hit);
    node.querySelector("image.art").addEventListener("error", (e) => {
      // A picture that will not load shows the initials instead.
      e.target.parentNode.classList.add("art-failed");
      print.classList.add("art-failed");
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
    const scale = this.board.view.scale;
    if (scale === this.drawnScale) return; // a pan: the world moved, nothing in it changed
    this.drawnScale = scale;
    // The discs' reach changes in steps too (each change restyles them all,
    // and a refit after a panel or the toolbar changes size moves the zoom
    // a little): at the step below the zoom, so never under HIT_PX on screen.
    const hitScale = HIT_STEP ** Math.floor(Math.log(scale) / Math.log(HIT_STEP));
    const reach = `max(var(--half, 0.5px), ${HIT_PX / 2 / hitScale}px)`;
    if (this.hitReach !== reach) this.zoomRules.hits.setProperty("r", reach);
    this.hitReach = reach;
    this.board.svg.classList.toggle("far", scale < FAR_PX);
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
      for (const token of this.board.tokens.values()) {
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
    const outOfView = !!this.board.onlyTokens && !this.board.onlyTokens.has(token.id);
    node.classList.toggle("out-of-view", outOfView);
    this.hits.get(token.id)?.classList.toggle("out-of-view", outOfView);
    node.classList.toggle("selected", this.board.selected === token.id);
    node.classList.toggle("movable", this.board.canMove(token));
    const [ring, face, badgeWrap, label, markerWrap] = node.children;
    const print = this.prints.get(token.id);
    ring.setAttribute("cx", x + s / 2);
    ring.setAttribute("cy", y + s / 2);
    ring.setAttribute("r", s * 0.5);
    drawFace(face, print, token, s, s * 0.8 * this.board.view.scale, x, y);
    this.sizeHit(token, at);
    const labelY = String(y + s + 0.05);
    if (moved || label.getAttribute("y") !== labelY || label.textContent !== token.name) {
      label.textContent = token.name;
      label.setAttribute("x", x + s / 2); // placeLabels() moves a name at the map's edge
      label.setAttribute("y", labelY);
    }
    // The mark is text, or {text, fallen} for a character out of the fight.
    const given = this.board.options.badge?.(token);
    const mark = typeof given === "string" ? { text: given, fallen: null } : given || null;
    const level = severity(mark);
    node.classList.toggle("fallen", !!mark?.fallen);
    node.classList.toggle("dead", mark?.fallen === "dead");
    node.dataset.woundLevel = level || "none";
    drawCondition(badgeWrap, print, mark, s, this.text.state, x, y);
    // [{marker, words}] from the room (the markers this member sees).
    const markers = this.board.options.markers?.(token) || [];
    drawMarkers(markerWrap, markers, s, x, y);
    const marked = markers.length ? `marked ${markers.map((m) => m.words).join(", ")}` : "";
    const state = [mark?.text || "", marked, token.hidden ? "hidden from players" : ""].filter(Boolean);
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
      const token = this.board.tokens.get(id);
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
      const mapWidth = this.board.scene?.width ?? Infinity;
      const middle = width >= mapWidth ? mapWidth / 2 : Math.min(Math.max(x + s / 2, width / 2), mapWidth - width / 2);
      const at = String(middle);
      if (label.getAttribute("x") !== at) label.setAttribute("x", at);
      items.push({ id, box: { x: middle - width / 2, y: y + s, w: width, h: height }, disc, plate });
    }
    const plates = new Set();
    const shown = shownLabels(items, this.board.selected, plates);
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

  redrawAll() {
    for (const token of this.board.tokens.values()) this.drawToken(this.nodes.get(token.id), token);
  }

  /** The classes that follow the selection and the GM's "see as". */
  restyle(id) {
    const node = this.nodes.get(id);
    if (!node) return;
    const outOfView = !!this.board.onlyTokens && !this.board.onlyTokens.has(id);
    node.classList.toggle("out-of-view", outOfView);
    this.hits.get(id)?.classList.toggle("out-of-view", outOfView);
    node.classList.toggle("selected", this.board.selected === id);
  }
}
