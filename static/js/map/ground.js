// The ground of a scene: its background picture, the grid (one SVG unit a
// 5-ft square) and its walls. Doors and windows are ./doors.js's.

import { svg, clear } from "../lib/dom.js";

export function drawGround(layers, scene) {
  for (const name of ["background", "grid", "walls"]) clear(layers[name]);
  if (!scene) return;
  const { width, height } = scene;
  if (scene.background) {
    layers.background.append(svg("image", { href: scene.background, x: 0, y: 0, width, height, preserveAspectRatio: "none" }));
  }
  layers.grid.append(svg("rect", { class: "map-border", x: 0, y: 0, width, height }));
  for (let x = 1; x < width; x += 1) layers.grid.append(svg("line", { class: "grid-line", x1: x, y1: 0, x2: x, y2: height }));
  for (let y = 1; y < height; y += 1) layers.grid.append(svg("line", { class: "grid-line", x1: 0, y1: y, x2: width, y2: y }));
  for (const [x1, y1, x2, y2, kind] of scene.walls || []) {
    if (kind) continue; // a door or a window: ./doors.js draws it
    layers.walls.append(svg("line", { class: "wall", x1, y1, x2, y2 }));
  }
}
