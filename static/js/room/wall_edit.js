// The walls of the room's scene under the wall editor
// (../map/tools/wall_editor.js), one of the GM's map-editing tools
// (./map_edit.js). The editor edits the walls as lines of text, one a
// segment in the scene's order; each change it makes is sent as the one
// edit it is (`wall.add`, `wall.change` with only the ends for a move, so a
// door keeps the state a player gave it, `wall.delete`), naming the segment
// by its index and the ends the GM saw there: the server refuses an edit of
// a list that changed meanwhile rather than land it on another segment.
// A change that is not one edit (an Undo across several) saves the whole
// list (PATCH /api/scenes/<id>/ with `walls`). Every page's map and the
// players' fog follow from the scene.updated each edit appends. Until the
// answer the editor shows its own lines; a refusal puts the scene's back
// and says why.

import { svg } from "../lib/dom.js";
import { patchJSON } from "../lib/api.js";
import { describeError } from "../lib/errors.js";
import { readLine, writeLine } from "../map/wall_text.js";
import { WallLines } from "../map/wall_lines.js";
import { WallEditor } from "../map/tools/wall_editor.js";
import { sameEnds } from "../map/wall_shapes.js";

/** A scene's walls as the editor's lines ("x1 y1 x2 y2 door open"). */
export function wallsText(walls) {
  const kindOf = (kind, state) => (!kind ? "wall" : kind === "door" && (state === "open" || state === "locked") ? `door ${state}` : kind);
  return (walls || []).map(([x1, y1, x2, y2, kind, state]) => writeLine({ ends: [x1, y1, x2, y2], kind: kindOf(kind, state) })).join("\n");
}

/** One editor line as a scene's wall. */
function wallOf(line) {
  const { ends, kind } = readLine(line);
  return [...ends, ...kind.split(" ").filter((word) => word !== "wall")];
}

/** The editor's lines as a scene's walls. */
export function wallsOf(text) {
  return text.split("\n").filter((line) => readLine(line)).map(wallOf);
}

/** The editor's text as its lines: none for no walls. */
function linesOf(text) {
  return text ? text.split("\n") : [];
}

/** The one edit that turns the lines `before` into `after` (an intent
 *  without its scene), or null when it takes more than one. */
export function editBetween(before, after) {
  const differ = (i) => before[i] !== after[i];
  if (after.length === before.length + 1) {
    // A line added (at the end, or put back by Undo where it was): the
    // scene takes it at the end, since the order of walls means nothing.
    const at = after.findIndex((line, i) => line !== before[i]);
    if (after.slice(0, at).concat(after.slice(at + 1)).every((line, i) => line === before[i])) {
      return { type: "wall.add", wall: wallOf(after[at]) };
    }
    return null;
  }
  if (after.length === before.length - 1) {
    const at = before.findIndex((line, i) => line !== after[i]);
    if (before.slice(0, at).concat(before.slice(at + 1)).every((line, i) => line === after[i])) {
      return { type: "wall.delete", index: at, was: readLine(before[at]).ends };
    }
    return null;
  }
  const changed = before.map((_, i) => i).filter(differ);
  if (after.length !== before.length || changed.length !== 1) return null;
  const [index] = changed;
  const was = readLine(before[index]);
  const now = readLine(after[index]);
  // A move sends the ends alone: the kind and a door's state stay the server's.
  const wall = was.kind === now.kind ? now.ends : wallOf(after[index]);
  return { type: "wall.change", index, was: was.ends, wall };
}

export class WallEdit {
  constructor({ board, socket, config, status, onDraw }) {
    this.board = board;
    this.socket = socket;
    this.config = config;
    this.status = status;
    this.text = "";
    this.sending = 0; // changes on their way to the server
    const segmentsLayer = svg("g", { class: "layer-wall-edit" });
    const draftLayer = svg("g", { class: "layer-wall-edit wall-drafts" });
    board.world.append(segmentsLayer, draftLayer);
    this.lines = new WallLines({
      read: () => this.text,
      write: (next) => {
        const before = this.text;
        this.text = next;
        this.save(before, next);
      },
    });
    this.editor = new WallEditor({
      surface: board.svg,
      segmentsLayer,
      draftLayer,
      lines: this.lines,
      size: () => board.scene || { width: 0, height: 0 },
      toPoint: (e) => board.view.toGrid(e.clientX, e.clientY),
      onDraw,
    });
  }

  /** The editor takes the pointer with this tool (wall, door, window, select). */
  start(tool) {
    const scene = this.board.scene;
    if (!scene) return;
    if (this.board.tool !== this.editor) {
      this.sceneId = scene.id;
      this.take(scene.walls);
      this.editor.tool = tool;
      this.board.use(this.editor);
    } else this.editor.setTool(tool);
  }

  /** The scene's walls become the editor's lines. The selection stays on
   *  its segment: the scene's order need not be the editor's (a wall put
   *  back by Undo goes last there), and a segment clicked while an answer
   *  was on its way would otherwise become whichever took its line. */
  take(walls) {
    const held = this.lines.segmentAt(this.editor.selected)?.ends;
    this.text = wallsText(walls);
    this.lines.settled();
    const same = held && this.lines.segments().find((s) => sameEnds(s.ends, held));
    this.editor.select(same ? same.line : -1);
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

  /** The selected segment as the scene has it, with its index: a door's
   *  state is the scene's (a player may have opened it). */
  selectedWall() {
    const index = this.editor.selected;
    const mine = this.lines.segmentAt(index);
    const wall = this.board.scene?.walls?.[index];
    if (!mine || !wall || !sameEnds(wall.slice(0, 4), mine.ends)) return null;
    return { index, wall };
  }

  async save(before, after) {
    const scene = this.board.scene;
    if (!scene) return;
    const edit = editBetween(linesOf(before), linesOf(after));
    this.sending += 1;
    let answer;
    if (edit) {
      answer = await this.socket.send({ ...edit, scene: scene.id }).then(
        (ack) => ({ ok: true, walls: ack.walls }),
        (error) => ({ ok: false, error }),
      );
    } else {
      try {
        const reply = await patchJSON(`${this.config.api.scene}${scene.id}/`, { walls: wallsOf(after) });
        answer = reply.ok ? { ok: true, walls: reply.data.walls } : { ok: false, error: reply.data?.error || reply.data };
      } catch {
        answer = { ok: false, error: { message: "offline: try again in a moment" } };
      }
    }
    this.sending -= 1;
    if (this.sending || this.board.tool !== this.editor) return;
    if (answer.ok) {
      this.take(answer.walls);
      return;
    }
    this.take(this.board.scene?.walls);
    this.status(`Walls not saved: ${describeError(answer.error)}`, true);
  }
}
