// Fog of war in the browser: the local preview of what a player's tokens
// see while one of them is dragged, mirroring vtt/rules/sight.py. The
// server's answer is the authority (who is seen, the fog it sends); this
// only draws the area the eyes see until that answer arrives.
//
// Units are grid units: square (x, y) covers [x, x+1] x [y, y+1]; a token's
// eye is its centre. A scene is {width, height, lit, lights: [{x, y, radius}]};
// an eye is {x, y, sight} (sight: how far it sees in the dark).
//
// What the caller draws, in one <mask> over the fog (white = seen):
//   1. viewPath(eyes, barriers, scene), filled white (fill-rule nonzero):
//      in a lit scene everything the eyes see; in a dark scene what each eye
//      sees within its own sight radius.
//   2. In a dark scene with lights, also lightPath(eyes, barriers, scene).light
//      filled white inside a <clipPath> made of lightPath(...).clip: the lit
//      places the eyes have a line of sight to.
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

export function sightSegments(barriers) {
  return barriers.filter(blocksSight).map((b) => [b.x1, b.y1, b.x2, b.y2]);
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
  const lines = segs.concat(edges);
  for (let i = 0; i < lines.length; i += 1) {
    for (let j = i + 1; j < lines.length; j += 1) {
      const p = crossing(lines[i], lines[j]);
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
    for (const s of segs) {
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
        continue;
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
    }
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
 *  in a lit scene, within each eye's own sight in a dark one. */
export function viewPath(eyes, barriers, scene) {
  const segs = sightSegments(barriers);
  const { width, height } = scene;
  const polygons = eyes
    .filter((e) => scene.lit || e.sight > 0)
    .map((e) => visibilityPolygon([e.x, e.y], segs, width, height, scene.lit ? null : e.sight));
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
