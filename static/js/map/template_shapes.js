// Which squares an area template covers, and which tokens it holds: the
// browser's twin of vtt/areas/geometry.py, line for line, so what the
// placer sees highlighted is what the server attacks (its module doc has
// the rules: a template stands on a grid intersection, a square is covered
// when its centre is inside, a token when any of its squares is).

export const SHAPES = ["circle", "cone", "line", "square"];
export const TURNING = ["cone", "line"];
export const FEET_PER_SQUARE = 5;
export const MIN_SIZE = 1;
export const MAX_SIZE = 100;
const CONE_COS = 2 / Math.sqrt(5);
const EDGE = 1e-9;

export const feet = (size) => size * FEET_PER_SQUARE;

/** Whether the point (px, py), in squares, is inside the template. */
export function covers({ shape, x, y, size, angle }, px, py) {
  const dx = px - x;
  const dy = py - y;
  if (shape === "square") return -EDGE <= dx && dx <= size + EDGE && -EDGE <= dy && dy <= size + EDGE;
  if (shape === "circle") return dx * dx + dy * dy <= size * size + EDGE;
  const turn = (angle * Math.PI) / 180;
  const ux = Math.cos(turn);
  const uy = Math.sin(turn);
  const along = dx * ux + dy * uy;
  if (shape === "line") {
    const across = -dx * uy + dy * ux;
    return -EDGE <= along && along <= size + EDGE && Math.abs(across) <= 0.5 + EDGE;
  }
  if (shape === "cone") {
    const reach = Math.sqrt(dx * dx + dy * dy);
    return reach <= size + EDGE && along >= reach * CONE_COS - EDGE;
  }
  throw new Error(`${shape} is not a template shape`);
}

/** The squares of a width x height map the template covers, as "x,y" keys. */
export function squares(template, width, height) {
  const { shape, x, y, size } = template;
  const [x0, y0, x1, y1] = shape === "square" ? [x, y, x + size - 1, y + size - 1] : [x - size, y - size, x + size - 1, y + size - 1];
  const covered = new Set();
  for (let j = Math.max(0, y0); j <= Math.min(height - 1, y1); j += 1) {
    for (let i = Math.max(0, x0); i <= Math.min(width - 1, x1); i += 1) {
      if (covers(template, i + 0.5, j + 0.5)) covered.add(`${i},${j}`);
    }
  }
  return covered;
}

/** Whether a token has a square in `covered`. */
export function holds(covered, token) {
  const size = token.size || 1;
  for (let i = 0; i < size; i += 1) {
    for (let j = 0; j < size; j += 1) if (covered.has(`${token.x + i},${token.y + j}`)) return true;
  }
  return false;
}

/** "15-ft cone": a burst's size is its radius, a square's its side, a cone's or line's its length. */
export function templateWords(template) {
  const name = { circle: "burst", cone: "cone", line: "line", square: "square" }[template.shape] || "area";
  return `${feet(template.size)}-ft ${name}${template.label ? ` (${template.label})` : ""}`;
}
