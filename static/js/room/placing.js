// Placing characters on the map, from the Sheet tab: the characters this
// viewer may place (the GM: every one; a player: their own, while the
// campaign lets players place), each dragged onto the map (mouse, pen or
// finger, with a ghost under the pointer and the landing square marked) or
// put on the free square nearest the middle of the map by its button.
// Either sends `token.create` for the room's scene; the server decides
// (vtt.tabletop.services.tokens.token_create) and its refusal shows here.

import { el } from "../lib/dom.js";
import { describeError } from "../lib/errors.js";
import { nearestFree } from "../map/free_square.js";

const DRAG_START_PX = 6; // a press that moves less is a click, not a drag

function initials(name) {
  const words = String(name).trim().split(/\s+/).filter(Boolean);
  if (words.length > 1) return (words[0][0] + words[1][0]).toUpperCase();
  return (words[0] || "?").slice(0, 2);
}

export class Placing {
  constructor(root, { may, roster, board, socket, status }) {
    this.root = root;
    this.list = root.querySelector("#place-list");
    this.error = root.querySelector("#place-error");
    this.count = root.querySelector("#place-count");
    this.may = may; // what this member may do (./may.js), settings followed there
    this.roster = roster;
    this.board = board;
    this.socket = socket;
    this.status = status;
    this.drag = null;
  }

  /** The campaign's settings changed (campaign.updated, which may.js follows). */
  setSettings() {
    this.draw();
  }

  mayPlace(character) {
    return this.may.placesCharacter(character);
  }

  /** The character's tokens on the map this page shows. */
  tokensOf(character) {
    return [...this.board.tokens.values()].filter((t) => t.character_id === character.id);
  }

  draw() {
    // Not under a pointer that is dragging a chip: it would lose the drag.
    if (this.drag) {
      this.stale = true;
      return;
    }
    const characters = [...this.roster.byId.values()].filter((c) => c.name && c.sheet !== undefined && this.mayPlace(c));
    characters.sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === "npc" ? 1 : -1));
    // Every token event comes here: the list is rebuilt only when it changed.
    const key = JSON.stringify([!!this.board.scene, characters.map((c) => [c.id, c.name, this.tokensOf(c).length])]);
    if (key === this.drawn) return;
    this.drawn = key;
    this.root.hidden = characters.length === 0;
    this.count.textContent = String(characters.length);
    this.list.replaceChildren(...characters.map((c) => this.item(c)));
  }

  item(character) {
    const onMap = this.tokensOf(character).length;
    // A player places a character once a map; the GM as often as it takes.
    const placed = onMap > 0 && !this.may.runsTable;
    const chip = el(
      "span",
      {
        class: "place-chip",
        "data-character-id": character.id,
        title: placed ? `${character.name} is on the map` : `Drag ${character.name} onto the map`,
      },
      el("span", { class: "place-face", "aria-hidden": "true", text: initials(character.name) }),
      el("span", { class: "place-name", text: character.name }),
      onMap ? el("span", { class: "place-on", text: onMap > 1 ? `on the map ×${onMap}` : "on the map" }) : null,
    );
    if (!placed) chip.addEventListener("pointerdown", (e) => this.grab(e, character));
    else chip.classList.add("placed");
    return el(
      "li",
      { class: "place-item", "data-character-id": character.id },
      chip,
      el("button", {
        type: "button",
        class: "place-button",
        text: "Place",
        "aria-label": `Place ${character.name} on the map`,
        disabled: placed || !this.board.scene,
        onclick: () => this.placeNearMiddle(character),
      }),
    );
  }

  // ---- dragging a character onto the map

  grab(e, character) {
    if (e.button !== 0 || !this.board.scene) return;
    e.preventDefault(); // no text selection, no scrolling the list under a finger
    const source = e.currentTarget;
    source.setPointerCapture?.(e.pointerId);
    const drag = { character, start: [e.clientX, e.clientY], ghost: null, square: null };
    this.drag = drag;
    const move = (ev) => {
      if (!drag.ghost) {
        if (Math.hypot(ev.clientX - drag.start[0], ev.clientY - drag.start[1]) < DRAG_START_PX) return;
        drag.ghost = el("div", { class: "place-ghost", "aria-hidden": "true" }, el("span", { class: "place-face", text: initials(character.name) }), el("span", { text: character.name }));
        document.body.append(drag.ghost);
        this.status(`Drop ${character.name} on a square of the map.`);
      }
      drag.ghost.style.transform = `translate(${ev.clientX}px, ${ev.clientY}px)`;
      drag.square = this.board.squareAt(ev.clientX, ev.clientY);
      drag.ghost.classList.toggle("over-map", !!drag.square);
      this.board.ghosts.showDrop(drag.square);
    };
    const end = (ev) => {
      source.removeEventListener("pointermove", move);
      source.removeEventListener("pointerup", end);
      source.removeEventListener("pointercancel", end);
      drag.ghost?.remove();
      this.board.ghosts.showDrop(null);
      this.drag = null;
      if (this.stale) {
        this.stale = false;
        this.draw();
      }
      if (!drag.ghost) return; // a click: the button is the keyboard's and the finger's way
      const square = ev.type === "pointerup" ? this.board.squareAt(ev.clientX, ev.clientY) : null;
      if (square) this.place(character, square);
      else this.status(`${character.name} was not placed: drop it on the map.`);
    };
    source.addEventListener("pointermove", move);
    source.addEventListener("pointerup", end);
    source.addEventListener("pointercancel", end);
  }

  // ---- placing

  placeNearMiddle(character) {
    const middle = this.board.middleSquare();
    const square = middle && nearestFree(this.board.scene, this.board.tokens.values(), middle[0], middle[1]);
    if (!square) {
      this.error.textContent = this.board.scene ? "The map has no free square left." : "No scene is on the table.";
      return;
    }
    this.place(character, square);
  }

  place(character, [x, y]) {
    this.error.textContent = "";
    const intent = { type: "token.create", name: character.name, x, y, character_id: character.id };
    // A character keeps the colour its tokens already have.
    const colour = this.tokensOf(character)[0]?.color;
    if (colour) intent.color = colour;
    return this.socket
      .send(intent)
      .then((ack) => {
        if (ack?.token) this.board.upsert(ack.token);
        this.status(`${character.name} placed at column ${x}, row ${y}.`);
        this.draw();
      })
      .catch((error) => {
        const why = describeError(error);
        this.error.textContent = `${character.name} was not placed: ${why}`;
        this.status(`${character.name} was not placed: ${why}`, true);
      });
  }
}
