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
//
// A vision may also be worked out in the browser (a session's replay,
// ../replay/fog.js): its paths are then rings that overlap, filled nonzero
// (`rule: "nonzero"`), its view may hold a dark scene's lit places (`light`:
// {clip, light}, as a preview's) and its explored area lit places seen
// before (`exploredLight`: a list of {clip, light} that only grows). The
// explored shapes are drawn opaque inside one translucent group, so where
// they overlap the map is dimmed once. A drag preview's lit places may also
// hold `areas`, the server's lit areas (evenodd), under the same clip.
//
// sees() is asked of every door after each vision: a point outside a
// shape's bounding box (kept until the shape changes) skips the browser's
// fill test.

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
    this.previewLight = null; // and its lit places: {clip, light, areas} (a dark scene's lights)
    this.drawn = null; // [view, explored] as drawn
    this.paths = null;
    this.pieces = { list: null, count: 0 }; // the explored lit places drawn
    this.boxes = new Map(); // probe -> its bounding box, until the next draw
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
   * (`light`, nonzero, and `areas`, the server's lit areas, evenodd: each
   * seen where it falls inside `clip`; ./sight.js's previewLight), drawn
   * until set() or endPreview().
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
    const explored = svg("path", { class: "fog-explored", "fill-rule": "evenodd", fill: "#000" });
    const exploredLit = svg("g", { class: "fog-explored-lit", fill: "#000" });
    const view = svg("path", { class: "fog-view", "fill-rule": "evenodd", fill: "#000" });
    const clipId = `${this.maskId}-lit`;
    const lightClip = svg("path", {});
    const light = svg("path", { class: "fog-light", fill: "#000", "clip-path": `url(#${clipId})` });
    const litAreas = svg("path", { class: "fog-light", fill: "#000", "fill-rule": "evenodd", "clip-path": `url(#${clipId})` });
    const clips = svg("g", {}); // the explored lit places' clips
    // The same shapes, laid out (invisibly) for sees(): shapes inside a
    // mask have no geometry a point can be tested against.
    const probeExplored = svg("path", { class: "fog-probe", "fill-rule": "evenodd" });
    const probeView = svg("path", { class: "fog-probe", "fill-rule": "evenodd" });
    const probeLight = svg("path", { class: "fog-probe" });
    const probeLightClip = svg("path", { class: "fog-probe" });
    const probeLitAreas = svg("path", { class: "fog-probe", "fill-rule": "evenodd" });
    const probes = svg("g", {}); // the explored lit places', two paths each
    this.layer.append(
      svg(
        "defs",
        {},
        svg("clipPath", { id: clipId }, lightClip),
        clips,
        svg(
          "mask",
          { id: this.maskId, maskUnits: "userSpaceOnUse", ...area },
          svg("rect", { ...area, fill: "#fff" }),
          svg("g", { class: "fog-memory", opacity: 1 - DIM }, explored, exploredLit),
          view,
          light,
          litAreas,
        ),
      ),
      svg("rect", { class: "fog", ...area, mask: `url(#${this.maskId})` }),
      probeExplored,
      probeView,
      probeLight,
      probeLightClip,
      probeLitAreas,
      probes,
    );
    this.paths = {
      explored,
      view,
      probeExplored,
      probeView,
      light,
      lightClip,
      probeLight,
      probeLightClip,
      litAreas,
      probeLitAreas,
      exploredLit,
      clips,
      probes,
    };
    this.pieces = { list: null, count: 0 };
    this.draw();
  }

  draw() {
    if (!this.paths) return;
    this.layer.classList.toggle("fog-on", this.active);
    this.layer.classList.toggle("fog-preview", !!this.vision?.preview);
    const previewing = this.active && this.previewView !== null;
    const view = this.active ? (previewing ? this.previewView : this.vision.view) : "";
    const explored = this.active ? this.vision.explored : "";
    const light = previewing ? this.previewLight || {} : (this.active && this.vision.light) || {};
    this.drawPieces(this.active ? this.vision.exploredLight || [] : []);
    const key = [view, explored, light.light || "", light.clip || "", light.areas || "", previewing];
    if (this.drawn && key.every((part, i) => part === this.drawn[i])) return;
    this.drawn = key;
    this.boxes.clear();
    // The server's rings are drawn evenodd; a preview's and the browser's
    // own overlap, and nonzero fills them.
    const worked = this.active && this.vision.rule === "nonzero";
    const rule = previewing || worked ? "nonzero" : "evenodd";
    this.paths.view.setAttribute("fill-rule", rule);
    this.paths.probeView.setAttribute("fill-rule", rule);
    this.paths.explored.setAttribute("fill-rule", worked ? "nonzero" : "evenodd");
    this.paths.probeExplored.setAttribute("fill-rule", worked ? "nonzero" : "evenodd");
    for (const [node, d] of [
      [this.paths.view, view],
      [this.paths.probeView, view],
      [this.paths.explored, explored],
      [this.paths.probeExplored, explored],
      [this.paths.light, light.light],
      [this.paths.lightClip, light.clip],
      [this.paths.probeLight, light.light],
      [this.paths.probeLightClip, light.clip],
      [this.paths.litAreas, light.areas],
      [this.paths.probeLitAreas, light.areas],
    ]) {
      if (d) node.setAttribute("d", d);
      else node.removeAttribute("d");
    }
  }

  /**
   * The explored lit places: the list only grows, so the ones drawn stay
   * and the new ones are added; another list is drawn afresh.
   */
  drawPieces(list) {
    const { exploredLit, clips, probes } = this.paths;
    if (list !== this.pieces.list || list.length < this.pieces.count) {
      for (const layer of [exploredLit, clips, probes]) clear(layer);
      this.pieces = { list, count: 0 };
    }
    if (list.length !== this.pieces.count) this.boxes.clear();
    for (let i = this.pieces.count; i < list.length; i += 1) {
      const { clip, light } = list[i];
      const id = `${this.maskId}-seen-${i}`;
      clips.append(svg("clipPath", { id }, svg("path", { d: clip })));
      exploredLit.append(svg("path", { d: light, "clip-path": `url(#${id})` }));
      probes.append(svg("path", { class: "fog-probe", d: light }), svg("path", { class: "fog-probe", d: clip }));
    }
    this.pieces.count = list.length;
  }

  /**
   * What the group makes of the point (x, y), in grid units: "view",
   * "explored", "unexplored", or null when there is no fog.
   */
  sees(x, y) {
    if (!this.active) return null;
    let point = null;
    // A point outside a shape's box is outside the shape: most of a big
    // map's doors are asked about after every move, and the box, kept until
    // the shape changes, spares them the browser's fill test.
    const inside = (node) => {
      if (!node.hasAttribute("d")) return false;
      let box = this.boxes.get(node);
      if (box === undefined) {
        box = node.getBBox();
        this.boxes.set(node, box);
      }
      if (x < box.x || y < box.y || x > box.x + box.width || y > box.y + box.height) return false;
      point ??= new DOMPoint(x, y);
      return node.isPointInFill(point);
    };
    const { probeView, probeLight, probeLitAreas, probeLightClip, probeExplored, probes } = this.paths;
    const lit = inside(probeLight) || inside(probeLitAreas);
    if (inside(probeView) || (lit && inside(probeLightClip))) return "view";
    if (inside(probeExplored)) return "explored";
    const pieces = probes.children;
    for (let i = 0; i + 1 < pieces.length; i += 2) {
      if (inside(pieces[i]) && inside(pieces[i + 1])) return "explored";
    }
    return "unexplored";
  }
}
