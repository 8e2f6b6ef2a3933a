// The fog of war over a replay's map (docs/replay.md), worked out in the
// browser: the log keeps which tokens came into and left each group's view,
// not the shapes, so each view is drawn again from what this replay holds
// with the room's own sight geometry (../map/sight.js, the twin of
// vtt/rules/sight.py), and the explored area is every view since the
// replay's first event. Nothing here is asked of the server: the walls and
// doors are the scene's (its events carry them), the eyes and lights are
// the tokens the viewer's events gave them.
//
// Whose eyes, as vtt/tabletop/vision.py's eyes_of: a GM sees everything (no
// fog); anyone else sees through their group's tokens, "party" (the tokens
// players control, shared) or, for a player when the table's own_vision is
// on, "u<id>" (their own). A group always sees its own eyes, so this
// viewer's replay holds every one of them. Lights are the tokens held that
// carry one (a light the group never saw is not held: docs/replay.md).

import { parseBarriers, sightSegments, toPath, visibilityPolygon } from "../map/sight.js";

const FEET_PER_SQUARE = 5;
const TORCH = "#ffb347"; // a token's light_ft, as the server colours it
const KEPT = 5000; // visibility polygons kept between steps (and seeks)

/** The sight group the viewer sees a fog scene through, of the two the
 * server serves (policy.sight_groups: the table's shared view and each
 * player's own); null for a GM (no fog). */
export function groupOf(sight, settings) {
  if (!sight) return null;
  return settings?.own_vision ? sight.own : sight.shared;
}

/**
 * The tokens a group sees through. "party": those with a controller (the
 * server counts players only; a replay does not know who is a GM, as a live
 * drag preview does not); "u<id>": that member's. Hidden ones see for nobody.
 */
export function eyesOf(tokens, group) {
  const shown = tokens.filter((t) => !t.hidden);
  if (group === "party") return shown.filter((t) => (t.controllers || []).length > 0);
  const member = /^u(\d+)$/.exec(group || "");
  if (!member) return [];
  return shown.filter((t) => (t.controllers || []).includes(Number(member[1])));
}

const centre = (t) => [t.x + (t.size || 1) / 2, t.y + (t.size || 1) / 2];

function blank() {
  // rings: the explored area's subpaths (one per eye place), deduplicated;
  // lit: a dark scene's lit places seen, {clip, light} each, deduplicated.
  return { rings: new Set(), explored: "", lit: new Set(), exploredLight: [] };
}

function copy(memory) {
  return {
    rings: new Set(memory.rings),
    explored: memory.explored,
    lit: new Set(memory.lit),
    exploredLight: [...memory.exploredLight],
  };
}

export class FogMemory {
  /** `sight`: the viewer's sight groups as the server serves them (groupOf). */
  constructor(sight, settings) {
    this.sight = sight;
    this.settings = settings || {};
    this.scenes = new Map(); // scene id -> what its group explored during the replay
    this.walls = { raw: undefined, id: 0, segments: null };
    this.wallIds = new Map(); // a list of walls (as JSON) -> a short number for keys
    this.rings = new Map(); // "walls|size|x,y,radius" -> one visibility polygon's path
    this.look = null; // the view last worked out, with its key
  }

  group() {
    return groupOf(this.sight, this.settings);
  }

  /** What a seek back starts from. */
  save() {
    const scenes = new Map([...this.scenes].map(([id, memory]) => [id, copy(memory)]));
    return { settings: this.settings, scenes };
  }

  restore(saved) {
    this.settings = saved.settings;
    this.scenes = new Map([...saved.scenes].map(([id, memory]) => [id, copy(memory)]));
  }

  /** One event folded into `room`: the view it leaves joins the explored area. */
  follow(room, event) {
    const d = event?.data || {};
    // The live room switches group after this event: so does the replay.
    if (event?.type === "campaign.updated" && d.campaign?.settings) this.settings = d.campaign.settings;
    const group = this.group();
    const look = group ? this.see(room, group) : null;
    if (!look) return;
    let memory = this.scenes.get(room.scene.id);
    // The GM forgot what was explored: down to the view now, as on the server.
    const forgot = event?.type === "fog.changed" && d.action === "reset" && (d.group ?? group) === group;
    if (!memory || forgot) {
      memory = blank();
      this.scenes.set(room.scene.id, memory);
    }
    for (const ring of look.rings) {
      if (memory.rings.has(ring)) continue;
      memory.rings.add(ring);
      memory.explored = memory.explored ? `${memory.explored} ${ring}` : ring;
    }
    if (look.light) {
      const key = `${look.light.light}|${look.light.clip}`;
      if (!memory.lit.has(key)) {
        memory.lit.add(key);
        memory.exploredLight.push(look.light);
      }
    }
  }

  /** The vision ../map/fog.js draws for `room` now; null: no fog (a GM, a scene without it). */
  vision(room) {
    const group = this.group();
    const look = group ? this.see(room, group) : null;
    if (!look) return null;
    const memory = this.scenes.get(room.scene.id) || blank();
    return {
      scene: room.scene.id,
      group,
      view: look.view,
      light: look.light || {},
      lit: look.areas, // drawn inside light.clip (../map/lit_layer.js)
      explored: memory.explored,
      exploredLight: memory.exploredLight,
      tokens: [],
      rule: "nonzero",
    };
  }

  /** The segments that block sight on the scene, read again only when its walls change. */
  segments(scene) {
    if (scene.walls !== this.walls.raw) {
      const text = JSON.stringify(scene.walls || []);
      if (!this.wallIds.has(text)) this.wallIds.set(text, this.wallIds.size + 1);
      let segments = null;
      try {
        segments = sightSegments(parseBarriers(scene.walls || []));
      } catch {
        // Walls this geometry cannot read: no fog rather than a wrong one.
      }
      this.walls = { raw: scene.walls, id: this.wallIds.get(text), segments };
    }
    return this.walls.segments;
  }

  /** One visibility polygon as a path, kept: a seek back finds it again. */
  ring(scene, segments, x, y, radius) {
    const key = `${this.walls.id}|${scene.width}x${scene.height}|${x},${y},${radius}`;
    let ring = this.rings.get(key);
    if (ring === undefined) {
      if (this.rings.size >= KEPT) this.rings.clear();
      ring = toPath([visibilityPolygon([x, y], segments, scene.width, scene.height, radius)]);
      this.rings.set(key, ring);
    }
    return ring;
  }

  /**
   * What the group sees of the room's scene: {rings, view, light}, as
   * sight.js's viewPath and lightPath draw it; null without fog. Worked out
   * again only when an eye, a light, the walls or the lighting changed.
   */
  see(room, group) {
    const scene = room.scene;
    if (!scene?.fog) return null;
    const segments = this.segments(scene);
    if (!segments) return null;
    const tokens = Object.values(room.tokens).filter((t) => t.scene_id === undefined || t.scene_id === scene.id);
    const eyes = eyesOf(tokens, group).map((t) => [...centre(t), (t.sight_ft || 0) / FEET_PER_SQUARE]);
    const lit = scene.lit !== false;
    const lights = lit
      ? []
      : tokens.filter((t) => !t.hidden && t.light_ft > 0).map((t) => [...centre(t), t.light_ft / FEET_PER_SQUARE]);
    const key = JSON.stringify([scene.id, scene.width, scene.height, this.walls.id, lit, eyes, lights]);
    if (this.look?.key === key) return this.look;
    const ring = (x, y, radius) => this.ring(scene, segments, x, y, radius);
    // Lit: each eye sees to the map's edge; dark: within its own sight, and
    // the lit places it has a line of sight to.
    const rings = (lit ? eyes.map(([x, y]) => ring(x, y, null)) : eyes.filter((e) => e[2] > 0).map(([x, y, r]) => ring(x, y, r)))
      .filter(Boolean);
    let light = null;
    let areas = [];
    if (!lit && lights.length && eyes.length) {
      const clip = eyes.map(([x, y]) => ring(x, y, null)).filter(Boolean);
      const shone = lights.map(([x, y, r]) => ring(x, y, r)).filter(Boolean);
      if (clip.length && shone.length) {
        light = { clip: clip.join(" "), light: shone.join(" ") };
        // Drawn tinted as the room draws a carried light (a torch: bright
        // to its reach, vtt/fog/lit_areas.py), inside the clip: where the
        // eyes see it, as the server cuts a group's areas to its view.
        areas = shone.map((d) => ({ color: TORCH, bright: d, dim: d }));
      }
    }
    this.look = { key, rings, view: rings.join(" "), light, areas };
    return this.look;
  }
}
