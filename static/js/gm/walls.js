// The GM's walls page: the wall editor (../map/tools/wall_editor.js) on the
// scene's own picture, editing the text area line by line: that text is
// what the form posts, and it stays the keyboard's way in. Around the map:
// the tool radios, Undo, the hint or the selected segment's inspector
// (its kind, Delete), and the corner under the pointer.

import { svg } from "../lib/dom.js";
import { WallLines } from "../map/wall_lines.js";
import { WallEditor, hintFor, readoutFor } from "../map/tools/wall_editor.js";

const $ = (id) => document.getElementById(id);
const map = $("wall-editor");
const text = $("id_walls");

if (map && text) wallsPage(map, text);

/** The scene's picture and grid under the walls, in squares. */
function drawGround(map, width, height) {
  map.setAttribute("viewBox", `-0.5 -0.5 ${width + 1} ${height + 1}`);
  const ground = svg("g");
  if (map.dataset.background) {
    ground.append(svg("image", { href: map.dataset.background, x: 0, y: 0, width, height, preserveAspectRatio: "none" }));
  }
  for (let x = 1; x < width; x += 1) ground.append(svg("line", { class: "grid-line", x1: x, y1: 0, x2: x, y2: height }));
  for (let y = 1; y < height; y += 1) ground.append(svg("line", { class: "grid-line", x1: 0, y1: y, x2: width, y2: y }));
  ground.append(svg("rect", { class: "map-border", x: 0, y: 0, width, height }));
  return ground;
}

function wallsPage(map, text) {
  const width = Number(map.dataset.width);
  const height = Number(map.dataset.height);
  const hint = $("wall-hint");
  const inspector = $("wall-inspector");
  const kindSelect = $("wall-kind");
  const undoButton = $("wall-undo");
  $("wall-toolbar").hidden = false;
  const touch = window.matchMedia("(pointer: coarse)").matches;
  const segmentsLayer = svg("g");
  const draftLayer = svg("g", { class: "wall-drafts" });
  map.append(drawGround(map, width, height), segmentsLayer, draftLayer);

  const lines = new WallLines({
    read: () => text.value,
    write: (next) => {
      text.value = next;
    },
    onHistory: (canUndo) => {
      undoButton.disabled = !canUndo;
    },
  });

  // Point on screen to squares, through the map's own transform.
  const toPoint = (e) => {
    const p = map.createSVGPoint();
    p.x = e.clientX;
    p.y = e.clientY;
    const q = p.matrixTransform(map.getScreenCTM().inverse());
    return [q.x, q.y];
  };

  const editor = new WallEditor({
    surface: map,
    segmentsLayer,
    draftLayer,
    lines,
    size: () => ({ width, height }),
    toPoint,
    ownsEscape: (e) => e.target !== text,
    onDraw: (state) => {
      const radio = document.querySelector(`input[name='wall-tool'][value='${state.tool}']`);
      if (radio && !radio.checked) radio.checked = true;
      inspector.hidden = !state.current;
      hint.hidden = Boolean(state.current);
      if (state.current) {
        const [x1, y1, x2, y2] = state.current.ends;
        $("wall-selected").textContent = `Line ${state.selected + 1}: (${x1}, ${y1}) to (${x2}, ${y2})`;
        kindSelect.value = state.current.kind;
      }
      const said = hintFor(state, touch);
      if (hint.textContent !== said) hint.textContent = said; // said again, it would be read again
      $("wall-cursor").textContent = readoutFor(state);
    },
  });
  editor.tool = document.querySelector("input[name='wall-tool']:checked")?.value || "wall";
  editor.enable();

  // ---- the controls around the map

  for (const radio of document.querySelectorAll("input[name='wall-tool']")) {
    radio.addEventListener("change", () => editor.setTool(radio.value));
  }
  kindSelect.addEventListener("change", () => editor.setKind(kindSelect.value));
  $("wall-delete").addEventListener("click", () => {
    if (editor.selected < 0) return;
    editor.deleteSelected();
    map.focus({ preventScroll: true });
  });
  undoButton.addEventListener("click", () => editor.undo());

  // A stretch of typing is one change Undo can take back, like a drawn one.
  text.addEventListener("input", () => {
    lines.typed();
    editor.draw();
  });
  text.addEventListener("change", () => lines.settled());
  // The line the caret is on shows as selected on the map.
  const caretLine = () => text.value.slice(0, text.selectionStart).split("\n").length - 1;
  for (const kind of ["click", "keyup"]) {
    text.addEventListener(kind, () => {
      const line = caretLine();
      if (line !== editor.selected) editor.select(line);
    });
  }
}
