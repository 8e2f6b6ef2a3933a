// The GM's wall editor. Walls, doors and windows are drawn click to click:
// each click lands on the nearest grid corner and adds a segment from the
// last one, so a room is traced corner by corner without holding a button;
// a double-click, Escape or the same corner again ends the chain (closing it
// on its first corner does too), and a drag draws one segment. A door is one
// segment, so its chain ends by itself. The Select tool picks a segment to
// change its kind or delete it.
//
// The editor only ever edits the text area, line by line (wall_text.js):
// that text is what the form posts, and it stays the keyboard's way in.

import { svg } from "../lib/dom.js";
import { kindClasses, readLine, writeLine } from "./wall_text.js";

const editor = document.getElementById("wall-editor");
const text = document.getElementById("id_walls");

// The hints say what a mouse does, or on a touch screen what a finger does.
const HINTS = {
  select: "Click a segment to select it, or step through them with the arrow keys.",
  wall: "Click a grid corner, then the next, and the next. Double-click or Escape ends the chain; a drag draws one wall.",
  window: "Click corner to corner along the window. Double-click or Escape ends it.",
  door: "Click the two ends of the door, or drag from one to the other.",
  chain: "click the next corner. Double-click, Escape or the same corner again ends it.",
};
const TOUCH_HINTS = {
  select: "Tap a segment to select it.",
  wall: "Tap a grid corner, then the next, and the next; the last corner again ends the chain. Two fingers zoom.",
  window: "Tap corner to corner along the window; the last corner again ends it.",
  door: "Tap the two ends of the door.",
  chain: "tap the next corner, or the same one again to end.",
};
const DRAWING = { wall: "walls", window: "a window", door: "a door" };
const HIT = 0.4; // squares from a segment that still select it
const DRAG_PX = 6; // a press that moves less than this is a click
const UNDO_STEPS = 200;

if (editor && text) wallEditor(editor, text);

function wallEditor(editor, text) {
  const width = Number(editor.dataset.width);
  const height = Number(editor.dataset.height);
  const $ = (id) => document.getElementById(id);
  const hint = $("wall-hint");
  const inspector = $("wall-inspector");
  const kindSelect = $("wall-kind");
  const readout = $("wall-cursor");
  const undoButton = $("wall-undo");
  $("wall-toolbar").hidden = false;
  const hints = window.matchMedia("(pointer: coarse)").matches ? TOUCH_HINTS : HINTS;

  let tool = document.querySelector("input[name='wall-tool']:checked")?.value || "wall";
  let chain = null; // {start, anchor} while a chain is being drawn
  let press = null; // {at, x, y} of the button held down
  let hover = null; // the corner under the pointer
  let selected = -1; // the line of the selected segment
  const history = []; // the text before each change, for Undo
  let written = text.value; // the text as the editor last left it
  let typing = false; // the GM has typed in the text area since

  editor.setAttribute("viewBox", `-0.5 -0.5 ${width + 1} ${height + 1}`);
  const ground = svg("g");
  const segmentsLayer = svg("g");
  const draftLayer = svg("g", { class: "wall-drafts" });
  if (editor.dataset.background) {
    ground.append(svg("image", { href: editor.dataset.background, x: 0, y: 0, width, height, preserveAspectRatio: "none" }));
  }
  for (let x = 1; x < width; x += 1) ground.append(svg("line", { class: "grid-line", x1: x, y1: 0, x2: x, y2: height }));
  for (let y = 1; y < height; y += 1) ground.append(svg("line", { class: "grid-line", x1: 0, y1: y, x2: width, y2: y }));
  ground.append(svg("rect", { class: "map-border", x: 0, y: 0, width, height }));
  editor.append(ground, segmentsLayer, draftLayer);

  // ---- the text, line by line

  const lines = () => text.value.split("\n");
  const segments = () => lines().map((line, i) => ({ line: i, ...readLine(line) })).filter((s) => s.ends);
  const segmentAt = (i) => (i >= 0 ? readLine(lines()[i] ?? "") : null);

  function remember(before) {
    history.push(before);
    if (history.length > UNDO_STEPS) history.shift();
    undoButton.disabled = false;
  }

  function change(next) {
    if (next === text.value) return;
    remember(text.value);
    text.value = written = next;
    typing = false;
    draw();
  }

  function add(a, b, kind) {
    if (same(a, b)) return;
    const ends = [...a, ...b];
    const twice = segments().some((s) => s.kind === kind && (sameEnds(s.ends, ends) || sameEnds(s.ends, [...b, ...a])));
    if (twice) return;
    const kept = text.value.trimEnd();
    change(`${kept}${kept ? "\n" : ""}${writeLine({ ends, kind })}`);
  }

  function setLine(i, line) {
    const all = lines();
    if (line === null) all.splice(i, 1);
    else all[i] = line;
    change(all.join("\n"));
  }

  function undo() {
    if (!history.length) return;
    text.value = written = history.pop();
    typing = false;
    undoButton.disabled = !history.length;
    endChain();
    select(-1);
  }

  // ---- drawing

  const kindOfTool = () => (tool === "select" ? "wall" : tool);

  function segmentNode({ ends: [x1, y1, x2, y2], kind }, extra = "") {
    const node = svg("g", { class: `${kindClasses(kind)} ${extra}`.trim() });
    const part = (name) => svg("line", { class: name, x1, y1, x2, y2 });
    if (kind === "wall") node.append(part("wall"));
    else if (kind === "window") node.append(part("pane"), part("glazing"));
    else node.append(part("edge"), part("leaf"));
    if (kind === "door locked") node.append(lockMark((x1 + x2) / 2, (y1 + y2) / 2));
    return node;
  }

  let drawn = null; // the text the segments layer was drawn from

  function draw() {
    const current = segmentAt(selected);
    if (!current) selected = -1;
    if (drawn !== text.value) {
      segmentsLayer.replaceChildren(...segments().map((s) => segmentNode(s)));
      drawn = text.value;
    }
    draftLayer.replaceChildren();
    if (current) {
      const [x1, y1, x2, y2] = current.ends;
      draftLayer.append(
        svg("line", { class: "wall-halo", x1, y1, x2, y2 }),
        segmentNode(current, "chosen"),
        svg("circle", { class: "wall-end", cx: x1, cy: y1, r: 0.14 }),
        svg("circle", { class: "wall-end", cx: x2, cy: y2, r: 0.14 }),
      );
    }
    if (chain) {
      if (hover && !same(hover, chain.anchor)) {
        draftLayer.append(segmentNode({ ends: [...chain.anchor, ...hover], kind: kindOfTool() }, "wall-draft"));
      }
      draftLayer.append(svg("circle", { class: "wall-anchor", cx: chain.anchor[0], cy: chain.anchor[1], r: 0.16 }));
    }
    if (hover && tool !== "select") draftLayer.append(svg("circle", { class: "wall-corner", cx: hover[0], cy: hover[1], r: 0.22 }));
    drawInspector(current);
    drawHint();
  }

  function drawInspector(current) {
    inspector.hidden = !current;
    hint.hidden = Boolean(current);
    if (!current) return;
    const [x1, y1, x2, y2] = current.ends;
    $("wall-selected").textContent = `Line ${selected + 1}: (${x1}, ${y1}) to (${x2}, ${y2})`;
    kindSelect.value = current.kind;
  }

  function drawHint() {
    const [x, y] = chain ? chain.anchor : [];
    const said = chain ? `Drawing ${DRAWING[kindOfTool()]} from (${x}, ${y}): ${hints.chain}` : hints[tool];
    if (hint.textContent !== said) hint.textContent = said; // said again, it would be read again
    if (!hover) readout.textContent = "";
    else if (chain && !same(hover, chain.anchor)) {
      const length = Math.hypot(hover[0] - chain.anchor[0], hover[1] - chain.anchor[1]);
      readout.textContent = `(${hover.join(", ")}) · ${Number(length.toFixed(1))} sq`;
    } else readout.textContent = `(${hover.join(", ")})`;
  }

  // ---- chains, clicks and drags

  function endChain() {
    chain = null;
    draw();
  }

  function clickAt(at) {
    if (!chain) {
      chain = { start: at, anchor: at };
    } else if (same(at, chain.anchor)) {
      chain = null; // the same corner twice (or a double-click): done
    } else {
      add(chain.anchor, at, kindOfTool());
      const closed = same(at, chain.start);
      chain = tool === "door" || closed ? null : { ...chain, anchor: at };
    }
    draw();
  }

  function select(i) {
    selected = segmentAt(i) ? i : -1;
    draw();
  }

  function setTool(next) {
    tool = next;
    const radio = document.querySelector(`input[name='wall-tool'][value='${next}']`);
    if (radio) radio.checked = true;
    editor.classList.toggle("selecting", next === "select");
    endChain();
  }

  const point = (e) => {
    const p = editor.createSVGPoint();
    p.x = e.clientX;
    p.y = e.clientY;
    return p.matrixTransform(editor.getScreenCTM().inverse());
  };
  const corner = (e) => {
    const p = point(e);
    return [clamp(Math.round(p.x), 0, width), clamp(Math.round(p.y), 0, height)];
  };

  function nearest(e) {
    const p = point(e);
    let best = -1;
    let bestDistance = HIT;
    for (const s of segments()) {
      const d = distanceToSegment(p.x, p.y, s.ends);
      if (d <= bestDistance) [best, bestDistance] = [s.line, d];
    }
    return best;
  }

  editor.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    // The press also focuses the map (its tabindex), for Delete and the arrows.
    if (tool === "select") {
      select(nearest(e));
      return;
    }
    selected = -1;
    const at = corner(e);
    press = { at, x: e.clientX, y: e.clientY };
    editor.setPointerCapture(e.pointerId);
    hover = at;
    clickAt(at);
  });

  editor.addEventListener("pointermove", (e) => {
    const at = corner(e);
    if (!hover || !same(at, hover)) {
      hover = at;
      draw();
    }
  });

  editor.addEventListener("pointerup", (e) => {
    if (!press) return;
    const at = corner(e);
    const dragged = Math.hypot(e.clientX - press.x, e.clientY - press.y) > DRAG_PX;
    if (dragged && !same(at, press.at)) {
      add(press.at, at, kindOfTool());
      endChain();
    }
    press = null;
  });

  editor.addEventListener("pointercancel", () => {
    press = null;
  });

  editor.addEventListener("pointerleave", (e) => {
    if (e.pointerType !== "mouse" || press) return;
    hover = null;
    draw();
  });

  editor.addEventListener("dblclick", (e) => {
    e.preventDefault();
    if (chain) endChain();
  });

  editor.addEventListener("contextmenu", (e) => {
    if (!chain) return;
    e.preventDefault(); // a right click ends the chain, as Escape does
    endChain();
  });

  editor.addEventListener("keydown", (e) => {
    const all = segments().map((s) => s.line);
    if ((e.key === "Delete" || e.key === "Backspace") && selected >= 0) {
      setLine(selected, null);
      select(-1);
    } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") {
      undo();
    } else if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"].includes(e.key) && all.length) {
      const step = e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : -1;
      const at = all.indexOf(selected);
      if (tool !== "select") setTool("select");
      select(all[at < 0 ? (step > 0 ? 0 : all.length - 1) : (at + step + all.length) % all.length]);
    } else return;
    e.preventDefault();
  });

  // Escape ends a chain (or drops the selection) wherever the focus is.
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || e.target === text) return;
    if (chain) endChain();
    else if (selected >= 0) select(-1);
    else return;
    e.preventDefault();
  });

  // ---- the controls around the map

  for (const radio of document.querySelectorAll("input[name='wall-tool']")) {
    radio.addEventListener("change", () => setTool(radio.value));
  }
  kindSelect.addEventListener("change", () => {
    const current = segmentAt(selected);
    if (current) setLine(selected, writeLine({ ...current, kind: kindSelect.value }));
  });
  $("wall-delete").addEventListener("click", () => {
    if (selected < 0) return;
    setLine(selected, null);
    select(-1);
    editor.focus({ preventScroll: true });
  });
  undoButton.addEventListener("click", undo);

  // A stretch of typing is one change Undo can take back, like a drawn one.
  text.addEventListener("input", () => {
    if (!typing) {
      remember(written);
      typing = true;
    }
    draw();
  });
  text.addEventListener("change", () => {
    written = text.value;
    typing = false;
  });
  // The line the caret is on shows as selected on the map.
  const caretLine = () => text.value.slice(0, text.selectionStart).split("\n").length - 1;
  for (const kind of ["click", "keyup"]) {
    text.addEventListener(kind, () => {
      const line = caretLine();
      if (line !== selected) select(line);
    });
  }

  setTool(tool);
}

function lockMark(x, y) {
  // A small padlock on the door's middle: shackle and body.
  return svg(
    "g",
    { class: "padlock", transform: `translate(${x} ${y})` },
    svg("path", { class: "shackle", d: "M -0.09 -0.02 V -0.1 A 0.09 0.09 0 0 1 0.09 -0.1 V -0.02" }),
    svg("rect", { class: "lock-body", x: -0.14, y: -0.04, width: 0.28, height: 0.2, rx: 0.03 }),
  );
}

function same(a, b) {
  return a[0] === b[0] && a[1] === b[1];
}

function sameEnds(a, b) {
  return a.every((v, i) => v === b[i]);
}

function clamp(v, lo, hi) {
  return Math.max(lo, Math.min(hi, v));
}

function distanceToSegment(px, py, [x1, y1, x2, y2]) {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const length = dx * dx + dy * dy;
  const t = length ? clamp(((px - x1) * dx + (py - y1) * dy) / length, 0, 1) : 0;
  return Math.hypot(px - (x1 + t * dx), py - (y1 + t * dy));
}
