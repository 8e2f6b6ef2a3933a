// The fog of war over the map, for a member whose view is limited: black
// where their group has never seen, the map dimmed (and no tokens: the
// server sends none) where it has been explored but is out of view now,
// clear where it sees. One rectangle of fog, cut by a mask made of the
// vision's two paths (grid units, fill-rule evenodd, "" for none); it lies
// over the background, grid and walls, so a wall never seen stays hidden,
// and under doors (hidden or dimmed by sees(): ./doors.js), trails and
// tokens. Nothing is drawn without a vision
// (a scene without fog, a GM who is not previewing a group).
//
// The paths change only when the vision does (a new frame, or a drag
// preview), never per token.

import { svg, clear } from "../lib/dom.js";

const DIM = 0.6; // how much fog is left over explored ground

let masks = 0; // mask ids unique on the page

export class Fog {
  constructor(layer) {
    this.layer = layer;
    this.maskId = `fog-mask-${++masks}`;
    this.scene = null;
    this.vision = null; // the server's
    this.previewView = null; // a drag's own view, until the server's next vision
    this.previewLight = null; // and its lit places: {clip, light} (a dark scene's lights)
    this.drawn = null; // [view, explored] as drawn
    this.paths = null;
  }

  get active() {
    return !!this.vision && !!this.scene;
  }

  /** The map to cover; the same map redrawn (a door opened) keeps its vision. */
  setScene(scene) {
    if (scene?.id !== this.scene?.id) {
      this.vision = null;
      this.previewView = null;
      this.previewLight = null;
    }
    this.scene = scene;
    this.build();
  }

  /** The server's vision (null: no fog). Drops any drag preview. */
  set(vision) {
    this.vision = vision && this.scene && vision.scene === this.scene.id ? vision : null;
    this.previewView = null;
    this.previewLight = null;
    this.draw();
  }

  /**
   * A view worked out here (a drag in progress: ./sight.js's viewPath, whose
   * rings overlap and so are filled nonzero), with a dark scene's lit places
   * (`light` seen where it falls inside `clip`), drawn until set() or
   * endPreview().
   */
  preview(view, light = null) {
    if (!this.active) return;
    this.previewView = view;
    this.previewLight = light;
    this.draw();
  }

  endPreview() {
    if (this.previewView === null) return;
    this.previewView = null;
    this.previewLight = null;
    this.draw();
  }

  build() {
    clear(this.layer);
    this.drawn = null;
    this.paths = null;
    if (!this.scene) return;
    const { width, height } = this.scene;
    const area = { x: 0, y: 0, width, height };
    const explored = svg("path", { class: "fog-explored", "fill-rule": "evenodd", fill: "#000", "fill-opacity": 1 - DIM });
    const view = svg("path", { class: "fog-view", "fill-rule": "evenodd", fill: "#000" });
    const clipId = `${this.maskId}-lit`;
    const lightClip = svg("path", {});
    const light = svg("path", { class: "fog-light", fill: "#000", "clip-path": `url(#${clipId})` });
    // The same two shapes, laid out (invisibly) for sees(): shapes inside a
    // mask have no geometry a point can be tested against.
    const probeExplored = svg("path", { class: "fog-probe", "fill-rule": "evenodd" });
    const probeView = svg("path", { class: "fog-probe", "fill-rule": "evenodd" });
    this.layer.append(
      svg(
        "defs",
        {},
        svg("clipPath", { id: clipId }, lightClip),
        svg(
          "mask",
          { id: this.maskId, maskUnits: "userSpaceOnUse", ...area },
          svg("rect", { ...area, fill: "#fff" }),
          explored,
          view,
          light,
        ),
      ),
      svg("rect", { class: "fog", ...area, mask: `url(#${this.maskId})` }),
      probeExplored,
      probeView,
    );
    this.paths = { explored, view, probeExplored, probeView, light, lightClip };
    this.draw();
  }

  draw() {
    if (!this.paths) return;
    this.layer.classList.toggle("fog-on", this.active);
    this.layer.classList.toggle("fog-preview", !!this.vision?.preview);
    const previewing = this.active && this.previewView !== null;
    const view = this.active ? (previewing ? this.previewView : this.vision.view) : "";
    const explored = this.active ? this.vision.explored : "";
    const light = previewing ? this.previewLight || {} : {};
    const key = [view, explored, light.light || "", light.clip || ""];
    if (this.drawn && key.every((part, i) => part === this.drawn[i])) return;
    this.drawn = key;
    // The server's rings are drawn evenodd; a preview's overlap, and nonzero fills them.
    const rule = previewing ? "nonzero" : "evenodd";
    this.paths.view.setAttribute("fill-rule", rule);
    this.paths.probeView.setAttribute("fill-rule", rule);
    for (const [node, d] of [
      [this.paths.view, view],
      [this.paths.probeView, view],
      [this.paths.explored, explored],
      [this.paths.probeExplored, explored],
      [this.paths.light, light.light],
      [this.paths.lightClip, light.clip],
    ]) {
      if (d) node.setAttribute("d", d);
      else node.removeAttribute("d");
    }
  }

  /**
   * What the group makes of the point (x, y), in grid units: "view",
   * "explored", "unexplored", or null when there is no fog.
   */
  sees(x, y) {
    if (!this.active) return null;
    const point = new DOMPoint(x, y);
    if (this.drawn[0] && this.paths.probeView.isPointInFill(point)) return "view";
    if (this.drawn[1] && this.paths.probeExplored.isPointInFill(point)) return "explored";
    return "unexplored";
  }
}
