// The GM's editing mode on the room's map ("Edit map"): a bar of map tools,
// each a handler the board gives the pointer to (board.use): the wall
// editor drawing walls, doors or windows, or selecting a segment to move
// its ends, delete it or open its door (./wall_edit.js), the Light tool
// placing, moving, changing and removing lights (./light_edit.js), and the fog's
// Reveal and Cover area (../map/tools/area.js, through ./fog_panel.js). The
// mode is on while one of its tools has the pointer; another tool (the
// ruler) or Done ends it. A new tool is one more entry in TOOLS and one
// more option in the bar's "Tool" choice (templates/web/room.html).
//
// What the players see follows from the server: each edit is an intent
// whose event redraws every page's map and the players' fog.

import { hintFor } from "../map/tools/wall_editor.js";

const $ = (id) => document.getElementById(id);

// Said plainly, because it is what the server's fog does (docs/vision.md).
const COVER_NOTE =
  "Cover hides explored ground again. It cannot hide what a token sees now: that stays in view until the token looks away (close a door, or move the token).";
const REVEAL_NOTE = "Reveal adds the area to what the players remember, dimmed where no token sees it.";
const LIGHT_NOTE = "Click the map to place a light (Enter places one mid-view); drag a sun to move it, or Tab to it and use the arrows.";
const NOTES = { cover: COVER_NOTE, reveal: REVEAL_NOTE, light: LIGHT_NOTE };
const DOOR_ACTION = { closed: ["Open door", "open"], open: ["Close door", "closed"], locked: ["Unlock door", "closed"] };

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

export class MapEdit {
  constructor({ board, walls, fog, doors, lights, status }) {
    this.board = board;
    this.lights = lights;
    this.walls = walls;
    this.fog = fog;
    this.doors = doors;
    this.status = status;
    this.button = $("tool-walls");
    this.bar = $("map-edit");
    this.choice = $("edit-tool");
    this.note = $("edit-note");
    this.deleteButton = $("edit-delete");
    this.doorButton = $("edit-door");
    this.undoButton = $("edit-undo");
    // Each tool: whether it has the pointer, and how it takes it.
    const wallTool = (name) => ({ owns: (tool) => tool === walls.editor && walls.editor.tool === name, start: () => walls.start(name) });
    const areaTool = (mode) => ({ owns: (tool) => tool === fog.area && fog.area.mode === mode, start: () => this.startArea(mode) });
    this.tools = {
      wall: wallTool("wall"),
      door: wallTool("door"),
      window: wallTool("window"),
      select: wallTool("select"),
      reveal: areaTool("reveal"),
      cover: areaTool("cover"),
      light: { owns: (tool) => tool === lights.tool, start: () => lights.start() },
    };
    this.button.addEventListener("click", () => this.toggle());
    $("edit-done").addEventListener("click", () => this.stop());
    this.choice.addEventListener("change", () => this.tools[this.choice.value]?.start());
    this.deleteButton.addEventListener("click", () => (this.current() === "light" ? lights.deleteSelected() : walls.editor.deleteSelected()));
    this.undoButton.addEventListener("click", () => walls.editor.undo());
    this.doorButton.addEventListener("click", () => this.useDoor());
    board.events.addEventListener("tool", () => this.follow());
  }

  /** Which of the mode's tools has the pointer, or null. */
  current() {
    const tool = this.board.tool;
    if (!tool) return null;
    return Object.keys(this.tools).find((name) => this.tools[name].owns(tool)) || null;
  }

  toggle() {
    if (this.current()) {
      this.stop();
      return;
    }
    if (!this.board.scene) return;
    const chosen = this.choice.value;
    (this.choice.selectedOptions[0]?.disabled ? this.tools.wall : this.tools[chosen]).start();
    this.board.svg.focus({ preventScroll: true });
  }

  stop() {
    if (this.current()) this.board.use(null);
    this.status("");
  }

  startArea(mode) {
    if (this.fog.area.mode !== mode) this.fog.toggleTool(mode);
  }

  /** The board's tool changed: the bar, the button and the choice follow. */
  follow() {
    const name = this.current();
    const on = !!name;
    this.button.setAttribute("aria-pressed", String(on));
    this.bar.hidden = !on;
    this.board.svg.classList.toggle("walls-mode", this.board.tool === this.walls.editor);
    if (name) this.choice.value = name;
    const walls = this.board.tool === this.walls.editor;
    // Undo is the wall editor's, Delete its and the Light tool's: hidden
    // while an area is marked.
    this.undoButton.hidden = !walls;
    this.deleteButton.hidden = !walls && name !== "light";
    this.note.textContent = NOTES[name] || "";
    if (!walls) this.showSelection(null);
    this.lights.draw();
    if (!on) this.said = null;
  }

  /** The wall editor drew (./wall_edit.js's onDraw): its state in words,
   *  and what may be done to the selected segment. */
  drawn(state) {
    if (this.choice.value !== state.tool && this.board.tool === this.walls.editor) this.choice.value = state.tool;
    this.showSelection(state.current ? this.walls.selectedWall() : null);
    const said = state.current
      ? `${capital(state.current.kind)} selected: drag an end to move it (or E and Shift+arrows); Delete takes it away, Ctrl+Z undoes.`
      : hintFor(state);
    // Said once: the status line is read out at each change, and a
    // refusal stays until the hint changes.
    if (said !== this.said) this.status(said);
    this.said = said;
  }

  showSelection(selected) {
    if (this.current() === "light") {
      this.deleteButton.disabled = this.lights.selected === null;
      this.doorButton.hidden = true;
      return;
    }
    this.deleteButton.disabled = !selected && this.walls.editor.selected < 0;
    const door = selected && selected.wall[4] === "door" ? selected : null;
    this.doorButton.hidden = !door;
    if (!door) return;
    const [label] = DOOR_ACTION[door.wall[5] || "closed"];
    this.doorButton.textContent = label;
  }

  /** Open, close or unlock the selected door, as a click on it does
   *  outside the mode (./door_control.js). */
  useDoor() {
    const door = this.walls.selectedWall();
    if (!door || door.wall[4] !== "door") return;
    const state = door.wall[5] || "closed";
    this.doors.set({ index: door.index, kind: "door", state }, DOOR_ACTION[state][1]);
  }

  /** The room's scene changed: the editor follows it, and the fog's tools
   *  are offered only where there is fog. */
  sceneChanged(scene) {
    this.walls.sceneChanged(scene);
    const fog = !!scene?.fog;
    for (const option of this.choice.querySelectorAll("optgroup.fog-tools option")) {
      option.disabled = !fog;
    }
    this.choice.querySelector("optgroup.fog-tools").label = fog ? "Fog" : "Fog (off on this scene)";
    if (this.current()) this.follow();
  }
}
