// Range bands around a token for a weapon's listed range: adjacent, near and
// far squares shaded; out of range left clear.

import { svg } from "../lib/dom.js";
import { rangeBands } from "./grid.js";

export function drawBands(layer, token, rangeFt, scene, diagonal) {
  const origin = [token.x, token.y];
  const bands = rangeBands(origin, rangeFt, scene.width, scene.height, scene.walls, diagonal);
  bands.forEach((row, y) => {
    row.forEach((category, x) => {
      if (category === "out_of_range") return;
      layer.append(svg("rect", { class: `band-${category}`, x, y, width: 1, height: 1 }));
    });
  });
}
