// Fog of war in the browser: the local preview of what a player's tokens
// see while one of them is dragged, mirroring vtt/rules/sight.py. The
// server's answer is the authority (who is seen, the fog it sends); this
// only draws the area the eyes see until that answer arrives.
//
// Units are grid units: square (x, y) covers [x, x+1] x [y, y+1]; a token's
// eye is its centre. A scene is {width, height, lit, lights: [{x, y, radius}]};
// an eye is {x, y, sight} (sight: how far it sees in the dark, or in a dim
// scene's gloom if that reaches further: the caller's to say).
//
// What the caller draws, in one <mask> over the fog (white = seen):
//   1. viewPath(eyes, barriers, scene), filled white (fill-rule nonzero):
//      in a lit scene everything the eyes see; in a dark scene what each eye
//      sees within its own sight radius.
//   2. In a dark scene with lights, also lightPath(eyes, barriers, scene).light
//      filled white inside a <clipPath> made of lightPath(...).clip: the lit
//      places the eyes have a line of sight to. previewLight adds the lit
//      areas the server sent (`areas`, fill-rule evenodd) under that clip.
// Every subpath winds the same way, so overlapping subpaths never cancel
// under nonzero; no polygon clipping is needed here.

export const WALL = "wall";
export const DOOR = "door";
export const WINDOW = "window";
export const OPEN = "open";
export const CLOSED = "closed";
export const LOCKED = "locked";
const KINDS = [WALL, DOOR, WINDOW];
const STATES = [OPEN, CLOSED, LOCKED];

const finite = (v) => typeof v === "number" && Number.isFinite(v);

/** A scene's walls from their stored form (parse_barriers in sight.py):
 *  [x1, y1, x2, y2], [.., "window"], [.., "door"] or [.., "door", state].
 *  Throws an Error naming the first item that is none of these. */
export function parseBarriers(raw) {
  if (!Array.isArray(raw)) throw new Error("walls must be a list");
  return raw.map((item, i) => {
    const bad = (why) => new Error(`walls[${i}]: ${why}`);
    if (!Array.isArray(item) || item.length < 4 || item.length > 6) {
      throw bad("must be [x1, y1, x2, y2] with an optional kind and door state");
    }
    const [x1, y1, x2, y2, kind = WALL, state = CLOSED] = item;
    ["x1", "y1", "x2", "y2"].forEach((name, j) => {
      if (!finite(item[j])) throw bad(`${name} must be a number, not ${JSON.stringify(item[j])}`);
    });
    if (x1 === x2 && y1 === y2) throw bad("a wall needs two different ends");
    const shown = JSON.stringify;
    if (!KINDS.includes(kind)) {
      throw bad(`the kind must be one of ${KINDS.join(", ")}, not ${shown(kind)}`);
    }
    if (kind !== DOOR && item.length === 6) {
      throw bad(`only a door has a state (${kind} has ${shown(state)})`);
    }
    if (!STATES.includes(state)) {
      throw bad(`a door's state is one of ${STATES.join(", ")}, not ${shown(state)}`);
    }
    return { x1, y1, x2, y2, kind, state };
  });
}

export const blocksSight = (b) => b.kind === WALL || (b.kind === DOOR && b.state !== OPEN);
export const blocksMovement = (b) => b.kind !== DOOR || b.state !== OPEN;

const segmentsOf = new WeakMap(); // barriers -> their segments, one list while they last

/** The segments that block sight, the same list for the same barriers (so
 *  what is kept by it, keptPolygons, stays kept). */
export function sightSegments(barriers) {
  let segments = segmentsOf.get(barriers);
  if (!segments) {
    segments = barriers.filter(blocksSight).map((b) => [b.x1, b.y1, b.x2, b.y2]);
    segmentsOf.set(barriers, segments);
  }
  return segments;
}

const onMap = (x, y, width, height) => x >= 0 && x <= width && y >= 0 && y <= height;

/** Where two segments cross inside both, or null. */
function crossing(a, b) {
  const rx = a[2] - a[0];
  const ry = a[3] - a[1];
  const sx = b[2] - b[0];
  const sy = b[3] - b[1];
  const den = rx * sy - ry * sx;
  if (den === 0) return null;
  const t = ((b[0] - a[0]) * sy - (b[1] - a[1]) * sx) / den;
  const u = ((b[0] - a[0]) * ry - (b[1] - a[1]) * rx) / den;
  if (t <= 0 || t >= 1 || u <= 0 || u >= 1) return null;
  return [a[0] + t * rx, a[1] + t * ry];
}

function reach(x, y, s) {
  const dx = s[2] - s[0];
  const dy = s[3] - s[1];
  const len = dx * dx + dy * dy;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((x - s[0]) * dx + (y - s[1]) * dy) / len));
  return Math.hypot(s[0] + t * dx - x, s[1] + t * dy - y);
}

/**
 * The map cut into square cells, each listing the segments whose box (a
 * hair larger) meets it. A wall crossing a ray, or ending on it, does so
 * inside its own box, so at a cell the ray passes through: a ray can walk
 * the cells outward and stop once the walls found end it before the next
 * cell begins. Two walls cross inside both boxes, so only walls sharing a
 * cell need testing against each other. On a dungeon of thousands of
 * walls a ray meets a few cells, not every wall.
 */
class Grid {
  constructor(segs, width, height) {
    this.segs = segs;
    this.size = Math.max(1, Math.sqrt((width * height) / Math.max(1, segs.length)));
    this.cols = Math.max(1, Math.ceil(width / this.size));
    this.rows = Math.max(1, Math.ceil(height / this.size));
    this.cells = new Array(this.cols * this.rows);
    this.seen = new Uint32Array(segs.length); // the walk that last met each wall
    this.walk = 0;
    const hair = 1e-6 * (Math.max(width, height) + 1);
    segs.forEach((s, i) => {
      const [c0, c1] = [this.col(Math.min(s[0], s[2]) - hair), this.col(Math.max(s[0], s[2]) + hair)];
      const [r0, r1] = [this.row(Math.min(s[1], s[3]) - hair), this.row(Math.max(s[1], s[3]) + hair)];
      for (let r = r0; r <= r1; r += 1) {
        for (let c = c0; c <= c1; c += 1) (this.cells[r * this.cols + c] ||= []).push(i);
      }
    });
  }

  col(x) {
    return Math.min(this.cols - 1, Math.max(0, Math.floor(x / this.size)));
  }

  row(y) {
    return Math.min(this.rows - 1, Math.max(0, Math.floor(y / this.size)));
  }

  /** Every two walls that share a cell, once. */
  eachPair(visit) {
    const done = new Set();
    const n = this.segs.length;
    for (const cell of this.cells) {
      if (!cell) continue;
      for (let a = 0; a < cell.length; a += 1) {
        for (let b = a + 1; b < cell.length; b += 1) {
          const [i, j] = cell[a] < cell[b] ? [cell[a], cell[b]] : [cell[b], cell[a]];
          const key = i * n + j;
          if (done.has(key)) continue;
          done.add(key);
          visit(this.segs[i], this.segs[j]);
        }
      }
    }
  }

  /**
   * The walls in the cells the ray from (x, y) along (dx, dy) passes
   * through, nearest cell first, each once, given to `meet`; up to `limit`
   * (in lengths of (dx, dy)), or until `reached()` is no further than where
   * the next cell begins.
   */
  along(x, y, dx, dy, limit, reached, meet) {
    this.walk += 1;
    const { size } = this;
    let c = this.col(x);
    let r = this.row(y);
    const stepC = Math.sign(dx);
    const stepR = Math.sign(dy);
    let nextC = dx > 0 ? ((c + 1) * size - x) / dx : dx < 0 ? (c * size - x) / dx : Infinity;
    let nextR = dy > 0 ? ((r + 1) * size - y) / dy : dy < 0 ? (r * size - y) / dy : Infinity;
    const acrossC = dx !== 0 ? size / Math.abs(dx) : Infinity;
    const acrossR = dy !== 0 ? size / Math.abs(dy) : Infinity;
    for (;;) {
      for (const i of this.cells[r * this.cols + c] || []) {
        if (this.seen[i] === this.walk) continue;
        this.seen[i] = this.walk;
        meet(this.segs[i]);
      }
      const next = Math.min(nextC, nextR);
      if (next > limit || reached() <= next) return;
      if (nextC < nextR) {
        c += stepC;
        nextC += acrossC;
      } else {
        r += stepR;
        nextR += acrossR;
      }
      if (c < 0 || r < 0 || c >= this.cols || r >= this.rows) return;
    }
  }
}

const COMPASS = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
const ARC_RAYS = 128; // rays round a radius: the drawn edge stays within 0.03% of it

/** The area seen from `origin` ([x, y]) past `segments` ([x1, y1, x2, y2]),
 *  inside the map, within `radius` unless it is null: its vertices
 *  counter-clockwise, as [[x, y], ...]. The same sweep as sight.py's
 *  _visibility: one ray per wall end or crossing; along a ray the region on
 *  each side ends at the first wall across it or the first wall end on it
 *  whose wall leaves to that side. Within a radius the edge between rays is
 *  drawn straight (a chord), close to the circle with ARC_RAYS rays. */
export function visibilityPolygon(origin, segments, width, height, radius = null) {
  const [x, y] = origin;
  if (!onMap(x, y, width, height) || (radius !== null && radius <= 0)) return [];
  let segs = segments.filter((s) => s[0] !== s[2] || s[1] !== s[3]);
  if (radius !== null) segs = segs.filter((s) => reach(x, y, s) <= radius);
  const edges = [
    [0, 0, width, 0],
    [width, 0, width, height],
    [width, height, 0, height],
    [0, height, 0, 0],
  ];
  const points = [[0, 0], [width, 0], [width, height], [0, height]];
  for (const s of segs) points.push([s[0], s[1]], [s[2], s[3]]);
  const grid = new Grid(segs, width, height);
  grid.eachPair((a, b) => {
    const p = crossing(a, b);
    if (p) points.push(p);
  });
  for (const s of segs) {
    for (const e of edges) {
      const p = crossing(s, e);
      if (p) points.push(p);
    }
  }
  const rays = [];
  for (const [px, py] of points) {
    if (!onMap(px, py, width, height) || (px === x && py === y)) continue;
    if (radius !== null && Math.hypot(px - x, py - y) > radius) continue;
    rays.push({ dx: px - x, dy: py - y, critical: true });
  }
  for (const [dx, dy] of COMPASS) rays.push({ dx, dy, critical: false });
  if (radius !== null) {
    for (let k = 0; k < ARC_RAYS; k += 1) {
      const a = (2 * Math.PI * k) / ARC_RAYS;
      rays.push({ dx: Math.cos(a), dy: Math.sin(a), critical: false });
    }
  }
  const scale = Math.max(width, height) + 1;
  const kept = [];
  for (const ray of rays) {
    const { dx, dy } = ray;
    const length = Math.hypot(dx, dy);
    const tx = dx > 0 ? (width - x) / dx : dx < 0 ? -x / dx : Infinity;
    const ty = dy > 0 ? (height - y) / dy : dy < 0 ? -y / dy : Infinity;
    let limit = Math.max(0, Math.min(tx, ty));
    if (radius !== null) limit = Math.min(limit, radius / length);
    let cw = limit;
    let ccw = limit;
    const near = 1e-10 * scale * length;
    const least = (1e-9 * scale) / length;
    const dd = length * length;
    // Wall by wall along the ray, the nearest cells first, until no wall
    // further on can end either side sooner (Grid.along).
    grid.along(x, y, dx, dy, limit, () => Math.max(cw, ccw), (s) => {
      const ux = s[0] - x;
      const uy = s[1] - y;
      const vx = s[2] - x;
      const vy = s[3] - y;
      const c1 = dx * uy - dy * ux;
      const c2 = dx * vy - dy * vx;
      const s1 = Math.abs(c1) <= near ? 0 : Math.sign(c1);
      const s2 = Math.abs(c2) <= near ? 0 : Math.sign(c2);
      if (s1 * s2 < 0) {
        const sx = vx - ux;
        const sy = vy - uy;
        const t = (ux * sy - uy * sx) / (dx * sy - dy * sx);
        if (t > least) {
          cw = Math.min(cw, t);
          ccw = Math.min(ccw, t);
        }
        return;
      }
      for (const [on, other, ex, ey] of [
        [s1, s2, ux, uy],
        [s2, s1, vx, vy],
      ]) {
        if (on !== 0 || other === 0) continue;
        const t = (ex * dx + ey * dy) / dd;
        if (t <= least) continue;
        if (other > 0) ccw = Math.min(ccw, t);
        else cw = Math.min(cw, t);
      }
    });
    if (ray.critical && Math.max(cw, ccw) < 1 - 1e-9) continue; // its point is hidden
    kept.push({ angle: Math.atan2(dy, dx), dx, dy, cw, ccw, critical: ray.critical });
  }
  kept.sort((a, b) => a.angle - b.angle);
  // Rays in one direction give the same points, and two would fold the ring
  // back: keep one, a critical one (an arc ray's angle is only nearly its).
  const sweep = [];
  for (const r of kept) {
    const prev = sweep[sweep.length - 1];
    if (prev && r.angle - prev.angle <= 1e-12) {
      if (r.critical && !prev.critical) sweep[sweep.length - 1] = r;
      continue;
    }
    sweep.push(r);
  }
  const out = [];
  for (const r of sweep) {
    for (const t of [r.cw, r.ccw]) {
      const p = [x + t * r.dx, y + t * r.dy];
      const prev = out[out.length - 1];
      if (!prev || Math.abs(prev[0] - p[0]) > 1e-9 || Math.abs(prev[1] - p[1]) > 1e-9) out.push(p);
    }
  }
  while (out.length > 1) {
    const [a, b] = [out[0], out[out.length - 1]];
    if (Math.abs(a[0] - b[0]) > 1e-9 || Math.abs(a[1] - b[1]) > 1e-9) break;
    out.pop();
  }
  return out.length >= 3 ? out : [];
}

function number(v, digits) {
  const text = v.toFixed(digits).replace(/\.?0+$/, "");
  return text === "-0" || text === "" ? "0" : text;
}

/** Polygons ([[x, y], ...] each) as one SVG path: "M x y L x y ... Z ...". */
export function toPath(polygons, digits = 2) {
  return polygons
    .filter((p) => p.length >= 3)
    .map((p) => "M " + p.map(([px, py]) => `${number(px, digits)} ${number(py, digits)}`).join(" L ") + " Z")
    .join(" ");
}

/** What the eyes see, as an SVG path of subpaths (one per eye): unlimited
 *  in a lit scene, within each eye's own sight in a dark one. `polygon`:
 *  visibilityPolygon or a kept one (keptPolygons). */
export function viewPath(eyes, barriers, scene, polygon = visibilityPolygon) {
  const segs = sightSegments(barriers);
  const { width, height } = scene;
  const polygons = eyes
    .filter((e) => scene.lit || e.sight > 0)
    .map((e) => polygon([e.x, e.y], segs, width, height, scene.lit ? null : e.sight));
  return toPath(polygons);
}

/** A dark scene's lit places for the eyes: `light` (each light's area within
 *  its radius) to be drawn clipped by `clip` (what the eyes would see if all
 *  were lit). Both "" in a lit scene or without lights. */
export function lightPath(eyes, barriers, scene) {
  const lights = scene.lights || [];
  if (scene.lit || lights.length === 0) return { clip: "", light: "" };
  const segs = sightSegments(barriers);
  const { width, height } = scene;
  const clip = eyes.map((e) => visibilityPolygon([e.x, e.y], segs, width, height, null));
  const light = lights.map((l) => visibilityPolygon([l.x, l.y], segs, width, height, l.radius));
  return { clip: toPath(clip), light: toPath(light) };
}

/** The box [x0, y0, x1, y1] round an SVG path's points (the server's
 *  "M x y L x y ... Z": every number a coordinate), or null when it has none. */
export function pathBox(d) {
  const numbers = (d || "").match(/[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g) || [];
  if (numbers.length < 2) return null;
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 1 < numbers.length; i += 2) {
    const [x, y] = [Number(numbers[i]), Number(numbers[i + 1])];
    box[0] = Math.min(box[0], x);
    box[1] = Math.min(box[1], y);
    box[2] = Math.max(box[2], x);
    box[3] = Math.max(box[3], y);
  }
  return box;
}

const grow = (box, x0, y0, x1, y1) =>
  box ? [Math.min(box[0], x0), Math.min(box[1], y0), Math.max(box[2], x1), Math.max(box[3], y1)] : [x0, y0, x1, y1];

const meetingKept = new WeakMap(); // segments -> box -> those meeting it

/** The segments whose own box meets `box`: every wall that can stand
 *  between two points inside it (a box is convex, so the line between
 *  them stays in it). The same list for the same box. */
function meeting(segments, box) {
  let kept = meetingKept.get(segments);
  if (!kept || kept.size > 100) {
    kept = new Map();
    meetingKept.set(segments, kept);
  }
  const key = box.join(",");
  let found = kept.get(key);
  if (!found) {
    found = segments.filter(
      (s) =>
        Math.max(s[0], s[2]) >= box[0] &&
        Math.min(s[0], s[2]) <= box[2] &&
        Math.max(s[1], s[3]) >= box[1] &&
        Math.min(s[1], s[3]) <= box[3],
    );
    kept.set(key, found);
  }
  return found;
}

/**
 * Visibility polygons kept by where they are cast from, for a drag: the
 * eyes that do not move, and a square passed over again, are not cast again.
 * The same arguments as visibilityPolygon; `segments` is kept by identity,
 * so pass the same list while the walls are the same.
 */
export function keptPolygons(size = 500) {
  let kept = new WeakMap(); // segments -> "x,y,radius,size" -> polygon
  let count = 0;
  return (origin, segments, width, height, radius = null) => {
    let mine = kept.get(segments);
    if (!mine) {
      mine = new Map();
      kept.set(segments, mine);
    }
    const key = `${origin[0]},${origin[1]},${radius},${width}x${height}`;
    let polygon = mine.get(key);
    if (polygon === undefined) {
      if (count >= size) {
        kept = new WeakMap([[segments, (mine = new Map())]]);
        count = 0;
      }
      polygon = visibilityPolygon(origin, segments, width, height, radius);
      mine.set(key, polygon);
      count += 1;
    }
    return polygon;
  };
}

/**
 * A dim or dark scene's lit places for a drag preview, from what the page
 * knows: `areas`, the lit areas the server sent (SVG paths filled evenodd,
 * cut to the group's view now), and `scene.lights`, the lights worked out
 * here (a token's own light). {clip, light, areas}: `light` (nonzero) and
 * `areas` (evenodd) are seen where they fall inside `clip`, what the eyes
 * would see if all were lit; all "" in a lit scene or with nothing lit.
 *
 * The clip is used only where light falls, so each eye's is cast past the
 * walls that meet the box round the eye and the lit places: exact inside
 * it, and on a big map a few hundred walls instead of thousands.
 */
export function previewLight(eyes, barriers, scene, areas = [], polygon = visibilityPolygon) {
  const lights = scene.lights || [];
  const drawn = (areas || []).filter(Boolean);
  const none = { clip: "", light: "", areas: "" };
  if (scene.lit || eyes.length === 0 || (lights.length === 0 && drawn.length === 0)) return none;
  const segs = sightSegments(barriers);
  const { width, height } = scene;
  let box = null; // round the lit places
  for (const d of drawn) {
    const b = pathBox(d);
    if (b) box = grow(box, ...b);
  }
  for (const l of lights) box = grow(box, l.x - l.radius, l.y - l.radius, l.x + l.radius, l.y + l.radius);
  if (!box) return none;
  // Each eye's box is the lit places' and the eye: an eye that did not move
  // finds its walls and its clip kept.
  const clip = eyes.map((e) => polygon([e.x, e.y], meeting(segs, grow(box, e.x, e.y, e.x, e.y)), width, height, null));
  const light = lights.map((l) => polygon([l.x, l.y], segs, width, height, l.radius));
  return { clip: toPath(clip), light: toPath(light), areas: drawn.join(" ") };
}
