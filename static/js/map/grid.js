// Geometry of the 1" = 5' grid, mirroring vtt/rules/grid.py so the map can
// draw range bands and the ruler without a round trip. The adjudicator's
// `range` action stays the authority; tests check the two agree.

export const SQUARE_FT = 5;
export const NO_LISTED_RANGE_FT = 30;
export const NO_LISTED_FAR_LIMIT_FT = 100;
export const LINE_OF_SIGHT = "line_of_sight";

export function distanceFt(a, b, diagonal = "uniform") {
  const dx = Math.abs(a[0] - b[0]);
  const dy = Math.abs(a[1] - b[1]);
  const far = Math.max(dx, dy);
  const near = Math.min(dx, dy);
  if (diagonal === "alternating") return SQUARE_FT * (far + Math.floor(near / 2));
  return SQUARE_FT * far;
}

export function adjacent(a, b) {
  return Math.abs(a[0] - b[0]) <= 1 && Math.abs(a[1] - b[1]) <= 1;
}

export function rangeCategory(distance, rangeFt, isAdjacent, visible = true) {
  if (rangeFt === LINE_OF_SIGHT) {
    if (!visible) return "out_of_range";
    return isAdjacent ? "adjacent" : "near";
  }
  if (isAdjacent) return "adjacent";
  if (rangeFt === null || rangeFt === undefined) {
    if (distance <= NO_LISTED_RANGE_FT) return "near";
    return distance < NO_LISTED_FAR_LIMIT_FT ? "far" : "out_of_range";
  }
  if (distance <= rangeFt) return "near";
  return distance <= 2 * rangeFt ? "far" : "out_of_range";
}

// Line of sight works in doubled units so square centres are whole numbers;
// walls on the grid then stay exact.
function orient(ax, ay, bx, by, px, py) {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

const sign = (v) => (v > 0) - (v < 0);

export function prepareWalls(walls) {
  const out = [];
  for (const [x1, y1, x2, y2] of walls || []) {
    const w = [2 * x1, 2 * y1, 2 * x2, 2 * y2];
    if (w[0] !== w[2] || w[1] !== w[3]) out.push(w);
  }
  return out;
}

function inside(ax, ay, bx, by, px, py) {
  if (ax !== bx) return Math.min(ax, bx) < px && px < Math.max(ax, bx);
  return Math.min(ay, by) < py && py < Math.max(ay, by);
}

export function lineOfSight(a, b, walls, prepared = false) {
  const ax = 2 * a[0] + 1;
  const ay = 2 * a[1] + 1;
  const bx = 2 * b[0] + 1;
  const by = 2 * b[1] + 1;
  if (ax === bx && ay === by) return true;
  const loX = Math.min(ax, bx);
  const hiX = Math.max(ax, bx);
  const loY = Math.min(ay, by);
  const hiY = Math.max(ay, by);
  const touches = new Map();
  for (const [px, py, qx, qy] of prepared ? walls : prepareWalls(walls)) {
    if (Math.max(px, qx) < loX || Math.min(px, qx) > hiX) continue;
    if (Math.max(py, qy) < loY || Math.min(py, qy) > hiY) continue;
    const op = orient(ax, ay, bx, by, px, py);
    const oq = orient(ax, ay, bx, by, qx, qy);
    if (op * oq < 0) {
      const oa = orient(px, py, qx, qy, ax, ay);
      const ob = orient(px, py, qx, qy, bx, by);
      if (oa * ob < 0) return false;
      continue;
    }
    for (const [o, ex, ey, other] of [
      [op, px, py, oq],
      [oq, qx, qy, op],
    ]) {
      if (o === 0 && other !== 0 && inside(ax, ay, bx, by, ex, ey)) {
        const key = `${ex},${ey}`;
        const sides = touches.get(key) || new Set();
        sides.add(sign(other));
        touches.set(key, sides);
        if (sides.size === 2) return false;
      }
    }
  }
  return true;
}

/** bands[y][x]: the category of every square seen from `origin`. */
export function rangeBands(origin, rangeFt, width, height, walls = [], diagonal = "uniform") {
  const sight = rangeFt === LINE_OF_SIGHT;
  const prepared = sight ? prepareWalls(walls) : [];
  const bands = [];
  for (let y = 0; y < height; y += 1) {
    const row = [];
    for (let x = 0; x < width; x += 1) {
      const sq = [x, y];
      const visible = sight ? lineOfSight(origin, sq, prepared, true) : true;
      row.push(rangeCategory(distanceFt(origin, sq, diagonal), rangeFt, adjacent(origin, sq), visible));
    }
    bands.push(row);
  }
  return bands;
}

/** A weapon's category for a target square, sight aside, as the attack
 *  measures it (vtt/combat/geometry.py weapon_category): a melee weapon
 *  reaches the adjacent squares, or with a listed reach anything within it,
 *  and has no Far band; missiles and spells use the rules' categories. */
export function weaponCategory(distance, isAdjacent, weapon) {
  const rangeFt = weapon?.range_ft ?? null;
  if (weapon?.kind === "melee") {
    if (isAdjacent) return "adjacent";
    return typeof rangeFt === "number" && distance <= rangeFt ? "near" : "out_of_range";
  }
  return rangeCategory(distance, rangeFt, isAdjacent, true);
}
