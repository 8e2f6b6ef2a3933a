// The turn order of the active scene's encounter: who acts in which order,
// whose turn it is, the round counter and the game clock (a round is 20
// seconds of game time, a turn 10). Everyone sees it (players without the
// combatants whose tokens are hidden or, under fog, out of their view: the
// server leaves them out, and on such a one's turn says only that it is a
// turn out of sight; a token coming into view has the order read again); the GM
// starts and ends the encounter, adds combatants, rolls or sets initiative
// and passes the turn, and a player rolls for their own tokens. Combatants
// out of the fight (incapacitated, dying, dead) are struck through: the
// server passes over them. A game may declare controls for a character out
// of the fight (its kit's turn_actions: a way back from dying), drawn here.

import { el, clear } from "../lib/dom.js";
import { getJSON } from "../lib/api.js";
import { describeError } from "../lib/errors.js";

function clock(seconds) {
  const s = Math.max(0, seconds || 0);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class TurnOrder {
  constructor(root, { config, may, socket, board, roster, turnActions }) {
    this.root = root;
    this.config = config;
    this.socket = socket;
    this.board = board;
    this.roster = roster;
    this.may = may; // what this member may do (./may.js)
    this.encounter = null;
    this.sceneId = null;
    this.apiBase = null;
    this.loadTurn = 0;
    // The strip over the map is `root`; the GM's controls live in the GM tab.
    const $ = (id) => document.getElementById(id);
    this.statusLine = $("turns-status");
    this.list = $("turn-list");
    this.unseen = $("turn-unseen");
    this.error = $("turns-error");
    this.next = $("turn-next");
    this.rollMine = $("turn-roll-mine");
    this.edit = $("turn-edit");
    this.addSelect = $("turn-add-token");
    // The game's own controls for a character in the order (a way back from
    // dying...), declared by its kit (the tray spec's turn_actions).
    this.rescues = $("turns-dying");
    this.turnActions = turnActions || [];
    const on = (id, handler) => $(id)?.addEventListener("click", handler);
    on("turn-next", () => this.send({ type: "encounter.next" }));
    on("turn-roll-mine", () => this.send({ type: "encounter.initiative" }));
    on("encounter-start", () => this.send({ type: "encounter.start" }));
    on("turn-roll-all", () => this.send({ type: "encounter.initiative" }));
    on("encounter-end", () => {
      if (window.confirm("End the encounter? The turn order is cleared.")) this.send({ type: "encounter.end" });
    });
    on("trails-clear", () => this.send({ type: "trails.clear" }));
    on("turn-add", () => {
      if (this.addSelect.value) this.send({ type: "encounter.add", token: Number(this.addSelect.value) });
    });
  }

  async send(intent) {
    this.error.textContent = "";
    try {
      await this.socket.send(intent);
    } catch (error) {
      this.error.textContent = describeError(error);
    }
  }

  /** A new scene (or a fresh snapshot): read its running encounter, if any. */
  async load(sceneId, apiBase) {
    this.sceneId = sceneId;
    this.apiBase = apiBase;
    const turn = ++this.loadTurn;
    if (!sceneId) {
      this.set(null);
      return;
    }
    let answer;
    try {
      answer = await getJSON(`${apiBase}scenes/${sceneId}/encounter/`);
    } catch {
      return;
    }
    if (turn !== this.loadTurn) return;
    this.set(answer.ok ? answer.data : null);
  }

  /** An encounter.* event: the whole encounter as this viewer may see it. */
  event(data) {
    const encounter = data?.encounter;
    if (!encounter || encounter.scene_id !== this.sceneId) return;
    this.loadTurn++; // newer than any read still on its way
    this.set(encounter.ended ? null : encounter);
  }

  /** Tokens came into this player's view: one the order does not list may
   * be a combatant it left out, so the order (as the server lets this
   * viewer see it now) is read again. */
  sighted(ids) {
    const e = this.encounter;
    if (this.may.runsTable || !e || !this.apiBase) return;
    const listed = new Set(e.order.map((c) => c.token_id));
    if (ids.some((id) => !listed.has(id))) this.load(this.sceneId, this.apiBase);
  }

  set(encounter) {
    this.encounter = encounter;
    this.board.trails.setEncounter(!!encounter);
    this.draw();
  }

  combatantToken(c) {
    return this.board.tokens.get(c.token_id);
  }

  /** The game's turn actions (the kit's turn_actions, as data): for each
   * character this viewer may act for (a player's own, every one for the
   * GM), out of the fight and not dead where its `when` is "out", a button
   * that takes the declared reaction (the `reaction` intent). */
  drawActions() {
    if (!this.rescues) return;
    clear(this.rescues);
    const declared = this.may.takesPart ? this.turnActions : [];
    for (const action of declared) {
      for (const c of this.roster.byId.values()) {
        const w = c.wounds;
        if (action.when === "out" && (!w?.out || w.dead)) continue;
        if (!this.may.editsCharacter(c)) continue;
        const have = c.resources?.[action.resource] ?? 0;
        this.rescues.append(
          el(
            "li",
            { "data-character-id": c.id },
            el("span", { text: w ? `${c.name} is ${w.state}.` : c.name }),
            el("button", {
              type: "button",
              text: action.label.replaceAll("{value}", String(have)),
              disabled: have <= 0,
              title: have > 0 ? action.title : action.empty,
              onclick: () => this.send({ type: "reaction", reaction: action.id, character: c.id }),
            }),
          ),
        );
      }
    }
    this.rescues.hidden = !this.rescues.children.length;
  }

  draw() {
    this.drawActions();
    const e = this.encounter;
    this.root.dataset.state = e ? "running" : "none";
    clear(this.list);
    document.getElementById("encounter-start")?.toggleAttribute("hidden", !!e);
    for (const id of ["turn-roll-all", "encounter-end", "turn-add", "turn-add-token", "turn-add-label"]) {
      document.getElementById(id)?.toggleAttribute("hidden", !e);
    }
    if (this.next) this.next.hidden = !(e && this.may.runsTable);
    if (!e) {
      this.unseen.hidden = true;
      this.statusLine.textContent = "No encounter on this scene.";
      this.rollMine.hidden = true;
      if (this.edit) clear(this.edit);
      return;
    }
    const current = e.order.find((c) => c.id === e.current);
    const whose = current ? `${current.name}'s turn` : e.unseen_turn ? "a turn out of sight" : "nobody's turn yet";
    // Whose turn first, the clock after it: a phone shows only the first (room.css).
    this.statusLine.replaceChildren(
      el("span", { class: "turn-now", text: `Round ${e.round} · ${whose}` }),
      el("span", {
        class: "turn-clock",
        text: ` · game time ${clock(e.game_time?.seconds)} (a round is ${e.game_time?.round_seconds ?? 20} s, a turn ${e.game_time?.turn_seconds ?? 10} s)`,
      }),
    );
    this.root.dataset.round = e.round;
    this.root.dataset.turns = e.turns;
    this.root.dataset.unseenTurn = e.unseen_turn ? "true" : "false";
    this.unseen.hidden = !e.unseen_turn;
    for (const c of e.order) {
      const token = this.combatantToken(c);
      const state = token?.character_id ? this.roster.state(token.character_id) : null;
      const hurt = token?.character_id && this.roster.badge(token.character_id);
      const fallen = hurt?.fallen;
      this.list.append(
        el(
          "li",
          {
            class: [c.id === e.current ? "current" : "", fallen ? "fallen" : "", fallen === "dead" ? "dead" : ""].filter(Boolean).join(" "),
            "data-fallen": fallen || null,
            "data-combatant-id": c.id,
            "aria-current": c.id === e.current ? "step" : null,
          },
          el("span", { class: "init", text: c.initiative ?? "—", title: "initiative" }),
          el("span", { class: "name", text: c.name }),
          state ? el("span", { class: hurt ? "state hurt" : "state", text: state }) : null,
        ),
      );
    }
    const mine = e.order.filter((c) => c.initiative === null && this.may.ownToken(this.combatantToken(c)));
    this.rollMine.hidden = !mine.length;
    if (this.may.runsTable) this.drawEdit(e);
  }

  /** The GM's table: set or clear each initiative, remove a combatant; add a token. */
  drawEdit(e) {
    clear(this.edit);
    for (const c of e.order) {
      const id = `turn-init-${c.id}`;
      const input = el("input", { type: "number", id, min: -10000, max: 10000, step: 1, inputmode: "numeric", value: c.initiative ?? "" });
      this.edit.append(
        el(
          "li",
          { class: "row" },
          el("label", { for: id, text: `Initiative of ${c.name}` }),
          input,
          el("button", {
            type: "button",
            text: "Set",
            "aria-label": `Set ${c.name}'s initiative`,
            onclick: () => {
              const text = input.value.trim();
              const intent = { type: "encounter.set", combatant: c.id };
              if (text !== "") intent.initiative = Number(text);
              this.send(intent);
            },
          }),
          el("button", {
            type: "button",
            class: "danger",
            text: "Remove",
            "aria-label": `Remove ${c.name} from the order`,
            onclick: () => this.send({ type: "encounter.remove", combatant: c.id }),
          }),
        ),
      );
    }
    const inOrder = new Set(e.order.map((c) => c.token_id));
    const keep = this.addSelect.value;
    this.addSelect.replaceChildren();
    for (const t of this.board.tokens.values()) {
      if (!inOrder.has(t.id)) this.addSelect.append(el("option", { value: String(t.id), text: t.name }));
    }
    if ([...this.addSelect.options].some((o) => o.value === keep)) this.addSelect.value = keep;
    for (const id of ["turn-add", "turn-add-token", "turn-add-label"]) {
      document.getElementById(id).hidden = !this.addSelect.options.length;
    }
  }
}
