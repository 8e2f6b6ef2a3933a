// The dice tray: pick an action of the campaign's game, set it up, watch
// the exact odds (POST /api/odds/, debounced), choose who sees the roll,
// optionally enter physical dice, and send the roll intent. The character
// rolled for is the player's own by default and is remembered per campaign
// in this browser; the sheet tab sets up a roll here with useEntry().

import { el, clear } from "../lib/dom.js";
import { postJSON } from "../lib/api.js";
import { FieldSet, fieldElement } from "./fields.js";
import { drawOdds, drawOddsError } from "./odds.js";
import { conditionsNote, withConditions } from "./conditions.js";
import { parseFaces } from "../lib/faces.js";
import { describeError as describe } from "../lib/errors.js";
import { recall, remember } from "../lib/remember.js";
import { expectRoll, show } from "../room/toast.js";

const ODDS_DELAY_MS = 200;

export class Tray {
  constructor(root, { spec, config, may, socket, character, onCharacter, conditionsOf }) {
    this.character = character; // id -> the character as the room knows it now
    // id -> the declared conditions its tokens are marked with (../room/markers.js)
    this.conditionsOf = conditionsOf;
    this.onCharacter = onCharacter;
    this.characterKey = `d6.room.${config.campaign.id}.character`;
    this.root = root;
    this.spec = spec;
    this.config = config;
    this.may = may; // what this member may do (../room/may.js)
    this.socket = socket;
    this.form = root.querySelector("#tray-form");
    this.actionSelect = root.querySelector("#tray-action");
    this.fieldsBox = root.querySelector("#tray-fields");
    this.characterSelect = root.querySelector("#tray-character");
    this.visibility = root.querySelector("#tray-visibility");
    this.physical = root.querySelector("#tray-physical");
    this.faces = root.querySelector("#tray-faces");
    this.error = root.querySelector("#tray-error");
    this.oddsBox = root.querySelector("#odds");
    this.oddsTurn = 0;
    // A roll-only attack is not offered here: the Attack tab is the one
    // attack, between tokens, and it applies its wounds.
    this.actions = spec.actions.filter((a) => a.tray && a.id !== "attack");
    for (const action of this.actions) {
      this.actionSelect.append(el("option", { value: action.id, text: action.label }));
    }
    for (const c of config.characters) {
      if (may.editsCharacter(c)) {
        this.characterSelect.append(el("option", { value: c.id, text: c.name }));
      }
    }
    this.chooseCharacter();
    if (!may.takesPart) {
      this.form.querySelector("#tray-roll").disabled = true;
      this.showError("Observers watch; they do not roll.");
    }
    this.actionSelect.addEventListener("change", () => this.useAction(this.actionSelect.value));
    this.characterSelect.addEventListener("change", () => {
      remember(this.characterKey, this.characterSelect.value);
      this.useAction(this.action.id);
      this.onCharacter?.(this.characterId());
    });
    this.physical.addEventListener("change", () => {
      root.classList.toggle("physical", this.physical.checked);
      if (this.physical.checked) this.faces.focus();
    });
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.roll();
    });
    if (this.actions.length) this.useAction(this.actions[0].id);
  }

  /** The remembered choice, else a player's only character, else nobody. */
  chooseCharacter() {
    const values = [...this.characterSelect.options].map((o) => o.value);
    const kept = recall(this.characterKey);
    if (kept !== null && values.includes(kept)) this.characterSelect.value = kept;
    else if (!this.may.runsTable && values.length === 2) this.characterSelect.value = values[1];
  }

  characterId() {
    return this.characterSelect.value ? Number(this.characterSelect.value) : null;
  }

  /** Roll for this character from now on (the sheet tab's choice). */
  setCharacter(id) {
    const value = id ? String(id) : "";
    if (![...this.characterSelect.options].some((o) => o.value === value) || value === this.characterSelect.value) return;
    this.characterSelect.value = value;
    remember(this.characterKey, value);
    this.useAction(this.action.id);
  }

  /** Set up a roll of one of the character's sheet entries: the first
   * action with a field the entry fills, that field filled (pips too). */
  useEntry(characterId, entry) {
    this.setCharacter(characterId);
    const fillable = this.spec.fillable || [];
    const action = this.actions.find((a) => a.fields.some((f) => fillable.includes(f.name)));
    if (!action) return false;
    if (this.action.id !== action.id) {
      this.actionSelect.value = action.id;
      this.useAction(action.id);
    }
    const field = action.fields.find((f) => fillable.includes(f.name));
    const picker = this.fieldsBox.querySelector(`[data-path="${CSS.escape(field.path)}"] select.from-sheet`);
    const index = (this.character(characterId)?.entries || []).findIndex((e) => e.label === entry.label);
    if (!picker || index < 0) return false;
    picker.value = String(index);
    picker.dispatchEvent(new Event("change"));
    return true;
  }

  useAction(id) {
    this.action = this.actions.find((a) => a.id === id);
    clear(this.fieldsBox);
    const character = this.characterSelect.value ? this.character(Number(this.characterSelect.value)) : null;
    this.fieldSet = new FieldSet(this.fieldsBox, this.action.fields, {
      settings: this.config.settings,
      onChange: () => this.oddsSoon(),
      fillable: this.spec.fillable,
      pipsField: this.spec.pips_field,
      requestSettings: this.spec.request_settings,
      // What the sheet offers, read by the server from the game's kit.
      entries: character?.entries || [],
    });
    this.oddsSoon();
  }

  request() {
    return { system: this.spec.game, action: this.action.id, ...this.fieldSet.read() };
  }

  oddsSoon() {
    clearTimeout(this.oddsTimer);
    // The set-up changed: odds still on their way are of the old one, and
    // a refusal of the last roll is of the old one too.
    this.oddsTurn++;
    this.refused = false;
    this.oddsBox.setAttribute("aria-busy", "true");
    this.oddsTimer = setTimeout(() => this.odds(), ODDS_DELAY_MS);
  }

  async odds() {
    const action = this.action;
    if (!action?.odds) {
      this.oddsBox.removeAttribute("aria-busy");
      clear(this.oddsBox);
      return;
    }
    const turn = ++this.oddsTurn;
    this.oddsBox.setAttribute("aria-busy", "true");
    let answer;
    const id = this.characterSelect.value ? Number(this.characterSelect.value) : null;
    const marked = withConditions(this.request(), this.action.fields, id ? this.conditionsOf?.(id) || [] : []);
    try {
      answer = await postJSON(this.config.api.odds, marked.request);
    } catch {
      if (turn !== this.oddsTurn) return;
      this.oddsBox.removeAttribute("aria-busy");
      drawOddsError(this.oddsBox, "Odds unavailable (offline).");
      return;
    }
    if (turn !== this.oddsTurn) return; // a newer set-up is on its way
    this.oddsBox.removeAttribute("aria-busy");
    this.markField(null);
    if (answer.ok) {
      drawOdds(this.oddsBox, answer.data);
      const note = conditionsNote(marked.applied);
      if (note) this.oddsBox.append(el("p", { class: "note odds-conditions", text: note }));
      this.oddsBox.dataset.action = action.id; // which set-up these odds are of
      // Odds of this set-up coming after a refused roll of it keep the refusal.
      if (!this.refused) this.showError("");
    } else {
      const error = answer.data?.error || {};
      drawOddsError(this.oddsBox, "No odds until the roll is set up right.");
      this.showError(describe(error), error.field);
    }
  }

  async roll() {
    const request = this.request();
    if (this.physical.checked) {
      const { faces, error } = parseFaces(this.faces.value);
      if (error) {
        this.showError(error, "faces");
        this.faces.focus();
        return;
      }
      request.faces = faces;
    }
    const intent = { type: "roll", visibility: this.visibility.value, request };
    if (this.characterSelect.value) intent.character = Number(this.characterSelect.value);
    const button = this.form.querySelector("#tray-roll");
    button.disabled = true;
    try {
      const ack = await this.socket.send(intent);
      if (intent.visibility === "blind") {
        show({ sentence: "Blind roll made: only the GM sees the result." });
      } else if (intent.visibility === "gm" && !this.may.runsTable) {
        // A player's GM-only roll never comes back to their page.
        show({ sentence: "Your roll went to the GM.", visibility: "gm" });
      } else expectRoll(ack?.roll_id);
      this.refused = false;
      this.showError("");
      if (this.physical.checked) this.faces.value = "";
      // A hidden roll is a one-off: the next roll is seen by everyone again.
      this.visibility.value = "public";
    } catch (error) {
      this.refused = true;
      this.showError(describe(error), error.field);
    } finally {
      button.disabled = !this.may.takesPart;
    }
  }

  showError(message, field) {
    this.error.textContent = message || "";
    this.markField(message ? field : null);
  }

  markField(path) {
    for (const node of this.root.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
    if (!path) return;
    const input = path === "faces" ? this.faces : fieldElement(this.fieldsBox, path.replace(/^request\./, ""));
    input?.setAttribute("aria-invalid", "true");
  }
}
