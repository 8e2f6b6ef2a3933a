// The GM's "Edit walls" on the room's map: the wall editor
// (../map/tools/wall_editor.js) on the board, taking the pointer as the
// ruler does (board.use), drawing what the "Draw" choice says. Each change
// saves the scene's walls (PATCH /api/scenes/<id>/ with `walls`; the
// server checks that a GM asks) and comes back to every page as
// scene.updated, which redraws the map and the players' fog as a change on
// the walls page does. Until its answer the editor shows its own lines; a
// refusal puts the scene's back and says why.

import { svg } from "../lib/dom.js";
import { patchJSON } from "../lib/api.js";
import { describeError } from "../lib/errors.js";
import { readLine, writeLine } from "../map/wall_text.js";
import { WallLines } from "../map/wall_lines.js";
import { WallEditor, hintFor } from "../map/tools/wall_editor.js";

const $ = (id) => document.getElementById(id);

/** A scene's walls as the editor's lines ("x1 y1 x2 y2 door open"). */
export function wallsText(walls) {
  const kindOf = (kind, state) => (!kind ? "wall" : kind === "door" && (state === "open" || state === "locked") ? `door ${state}` : kind);
  return (walls || []).map(([x1, y1, x2, y2, kind, state]) => writeLine({ ends: [x1, y1, x2, y2], kind: kindOf(kind, state) })).join("\n");
}

/** The editor's lines as a scene's walls. */
export function wallsOf(text) {
  return text
    .split("\n")
    .map(readLine)
    .filter(Boolean)
    .map(({ ends, kind }) => [...ends, ...kind.split(" ").filter((word) => word !== "wall")]);
}

export class WallEdit {
  constructor({ board, config, status }) {
    this.board = board;
    this.config = config;
    this.status = status;
    this.button = $("tool-walls");
    this.draw = $("wall-draw");
    this.text = "";
    this.sending = 0; // changes on their way to the server
    const segmentsLayer = svg("g", { class: "layer-wall-edit" });
    const draftLayer = svg("g", { class: "layer-wall-edit wall-drafts" });
    board.world.append(segmentsLayer, draftLayer);
    this.lines = new WallLines({
      read: () => this.text,
      write: (next) => {
        this.text = next;
        this.save();
      },
    });
    this.editor = new WallEditor({
      surface: board.svg,
      segmentsLayer,
      draftLayer,
      lines: this.lines,
      size: () => board.scene || { width: 0, height: 0 },
      toPoint: (e) => board.view.toGrid(e.clientX, e.clientY),
      onDraw: (state) => {
        if (this.draw.value !== state.tool) this.draw.value = state.tool;
        const said = state.current
          ? `Line ${state.selected + 1}, ${state.current.kind}: Delete takes it away, Ctrl+Z undoes.`
          : hintFor(state);
        // Said once: the status line is read out at each change, and a
        // refusal stays until the hint changes.
        if (said !== this.said) status(said);
        this.said = said;
      },
    });
    this.button.addEventListener("click", () => this.toggle());
    this.draw.addEventListener("change", () => this.editor.setTool(this.draw.value));
    board.events.addEventListener("tool", () => {
      const on = board.tool === this.editor;
      this.button.setAttribute("aria-pressed", String(on));
      this.draw.hidden = !on;
      board.svg.classList.toggle("walls-mode", on);
      if (!on) this.said = null;
    });
  }

  toggle() {
    if (this.board.tool === this.editor) {
      this.board.use(null);
      this.status("");
      return;
    }
    if (!this.board.scene) return;
    this.sceneId = this.board.scene.id;
    this.take(this.board.scene.walls);
    this.editor.tool = this.draw.value;
    this.board.use(this.editor);
    this.board.svg.focus({ preventScroll: true });
  }

  /** The scene's walls become the editor's lines. */
  take(walls) {
    this.text = wallsText(walls);
    this.lines.settled();
    this.editor.draw();
  }

  /** The room's scene changed: another map ends the editing; this one's
   *  walls are taken unless a change of ours is still on its way. */
  sceneChanged(scene) {
    if (this.board.tool !== this.editor) return;
    if (!scene || scene.id !== this.sceneId) {
      this.board.use(null);
      return;
    }
    if (!this.sending) this.take(scene.walls);
  }

  async save() {
    const scene = this.board.scene;
    if (!scene) return;
    this.sending += 1;
    let answer;
    try {
      answer = await patchJSON(`${this.config.api.scene}${scene.id}/`, { walls: wallsOf(this.text) });
    } catch {
      answer = { ok: false, data: { error: { message: "offline: try again in a moment" } } };
    }
    this.sending -= 1;
    if (this.sending || this.board.tool !== this.editor) return;
    if (answer.ok) {
      this.take(answer.data.walls);
      return;
    }
    this.take(this.board.scene?.walls);
    this.status(`Walls not saved: ${describeError(answer.data?.error || answer.data)}`, true);
  }
}
