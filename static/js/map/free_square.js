// Where a new token goes when nobody pointed at a square: the free square
// nearest a wish (the map's middle for "Place on the map", the original's
// own square for a duplicate). Free means the new token's whole footprint
// is on the map and overlaps no token's footprint.

function overlaps(a, b) {
  return a.x < b.x + b.size && b.x < a.x + a.size && a.y < b.y + b.size && b.y < a.y + a.size;
}

/**
 * The free square nearest (x, y) for a token `size` squares a side, ring by
 * ring outwards (the nearest by steps, then by straight-line distance, then
 * row and column, so the answer is the same every time), or null when the
 * map is full. `tokens` are {x, y, size}.
 */
export function nearestFree(scene, tokens, x, y, size = 1) {
  if (!scene) return null;
  const taken = [...tokens].map((t) => ({ x: t.x, y: t.y, size: t.size || 1 }));
  const free = (cx, cy) =>
    cx >= 0 && cy >= 0 && cx <= scene.width - size && cy <= scene.height - size && !taken.some((t) => overlaps(t, { x: cx, y: cy, size }));
  const reach = Math.max(scene.width, scene.height);
  for (let ring = 0; ring <= reach; ring += 1) {
    const candidates = [];
    for (let dy = -ring; dy <= ring; dy += 1) {
      for (let dx = -ring; dx <= ring; dx += 1) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== ring) continue;
        if (free(x + dx, y + dy)) candidates.push([x + dx, y + dy, dx * dx + dy * dy]);
      }
    }
    if (candidates.length) {
      candidates.sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0]);
      return [candidates[0][0], candidates[0][1]];
    }
  }
  return null;
}
