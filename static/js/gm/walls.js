// The GM's wall editor: drag along the grid to draw a wall (ends snap to
// grid corners), click a wall to select it, Delete removes it. It writes the
// same "x1 y1 x2 y2" lines as the text area, which is what the form posts,
// so keyboard users can type walls directly.

import { svg } from "../lib/dom.js";

const editor = document.getElementById("wall-editor");
const text = document.getElementById("id_walls");

if (editor && text) {
  const width = Number(editor.dataset.width);
  const height = Number(editor.dataset.height);
  editor.setAttribute("viewBox", `-0.5 -0.5 ${width + 1} ${height + 1}`);
  const layer = svg("g");
  const wallsLayer = svg("g");
  let selected = -1;
  let draft = null;

  const parse = () =>
    text.value
      .split("\n")
      .map((line) => line.trim().split(/[\s,]+/).map(Number))
      .filter((w) => w.length === 4 && w.every(Number.isFinite));

  const write = (walls) => {
    text.value = walls.map((w) => w.join(" ")).join("\n");
  };

  if (editor.dataset.background) {
    layer.append(svg("image", { href: editor.dataset.background, x: 0, y: 0, width, height, preserveAspectRatio: "none" }));
  }
  layer.append(svg("rect", { class: "map-border", x: 0, y: 0, width, height }));
  for (let x = 1; x < width; x += 1) layer.append(svg("line", { class: "grid-line", x1: x, y1: 0, x2: x, y2: height }));
  for (let y = 1; y < height; y += 1) layer.append(svg("line", { class: "grid-line", x1: 0, y1: y, x2: width, y2: y }));
  editor.append(layer, wallsLayer);

  const draw = () => {
    wallsLayer.replaceChildren();
    parse().forEach(([x1, y1, x2, y2], i) => {
      const line = svg("line", { class: "wall", x1, y1, x2, y2, "data-index": i });
      if (i === selected) line.style.stroke = "var(--accent)";
      wallsLayer.append(line);
    });
    if (draft) wallsLayer.append(svg("line", { class: "wall wall-draft", x1: draft[0], y1: draft[1], x2: draft[2], y2: draft[3] }));
  };

  const corner = (e) => {
    const point = editor.createSVGPoint();
    point.x = e.clientX;
    point.y = e.clientY;
    const p = point.matrixTransform(editor.getScreenCTM().inverse());
    return [Math.max(0, Math.min(width, Math.round(p.x))), Math.max(0, Math.min(height, Math.round(p.y)))];
  };

  editor.addEventListener("pointerdown", (e) => {
    const index = e.target.dataset?.index;
    if (index !== undefined) {
      selected = Number(index);
      draw();
      return;
    }
    selected = -1;
    const [x, y] = corner(e);
    draft = [x, y, x, y];
    editor.setPointerCapture(e.pointerId);
    draw();
  });
  editor.addEventListener("pointermove", (e) => {
    if (!draft) return;
    const [x, y] = corner(e);
    draft[2] = x;
    draft[3] = y;
    draw();
  });
  editor.addEventListener("pointerup", () => {
    if (draft && (draft[0] !== draft[2] || draft[1] !== draft[3])) write([...parse(), draft]);
    draft = null;
    draw();
  });
  editor.addEventListener("keydown", (e) => {
    if ((e.key === "Delete" || e.key === "Backspace") && selected >= 0) {
      const walls = parse();
      walls.splice(selected, 1);
      write(walls);
      selected = -1;
      draw();
      e.preventDefault();
    }
  });
  text.addEventListener("input", draw);
  draw();
}
