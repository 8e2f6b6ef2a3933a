// The attack panel: from a token (the selected one, if the viewer may
// attack with it) at a target with one of the attacker's weapons. The
// server fills both sides' pools from the sheets and answers with the
// filled request and its exact odds (the `attack.preview` intent), drawn
// as a bar chart before anyone rolls. A GM may change any pool first,
// choose a hidden attack, and anyone may enter the physical dice they
// rolled. Refusals (out of range, no line of sight, a broken weapon...)
// show the server's reason. The target may also be every token in an area
// template: the server picks them (those inside that the member sees) and
// adjudicates one attack each (`attack.area`); the panel lists who is
// inside as the map does, for the member to see before they attack.

import { el, clear } from "../lib/dom.js";
import { parseFaces } from "../lib/faces.js";
import { drawOdds, drawOddsError } from "../tray/odds.js";
import { distanceFt } from "../map/grid.js";
import { holds, squares, templateWords } from "../map/template_shapes.js";
import { Overrides } from "./overrides.js";
import { sourceWords } from "./combat_log.js";
import { expectRoll } from "./toast.js";
import { gameWords } from "./words.js";

const PREVIEW_DELAY_MS = 200;
const MISSING_FILLS = 12; // a sheetless attacker's missing fields, filled one by one
const DISTRIBUTIONS = ["condition_after", "damage", "margin", "successes", "total"];

const words = (s) => String(s).replaceAll("_", " ");
const AREA = "t:"; // a target option's value prefix: every token in that template

/** Feet between the nearest squares of two tokens' footprints. */
function gap(a, b, diagonal) {
  const near = (lo, size, other, otherSize) => {
    const hi = lo + size - 1;
    const otherHi = other + otherSize - 1;
    if (hi < other) return [hi, other];
    if (otherHi < lo) return [lo, otherHi];
    return [lo, lo];
  };
  const [x1, x2] = near(a.x, a.size || 1, b.x, b.size || 1);
  const [y1, y2] = near(a.y, a.size || 1, b.y, b.size || 1);
  return distanceFt([x1, y1], [x2, y2], diagonal);
}

export class AttackPanel {
  constructor(root, { config, may, spec, socket, board, roster, templates }) {
    this.root = root;
    this.config = config;
    this.socket = socket;
    this.board = board;
    this.roster = roster;
    this.templates = templates || (() => []); // the area templates the room holds
    this.may = may; // what this member may do (./may.js)
    this.spec = spec;
    this.said = gameWords(spec);
    this.diagonal = config.settings?.diagonal || "uniform";
    const $ = (id) => root.querySelector(`#${id}`);
    this.form = $("attack-form");
    this.attacker = $("attack-attacker");
    this.target = $("attack-target");
    this.weapon = $("attack-weapon");
    this.skill = $("attack-skill");
    this.skillList = $("attack-skill-list");
    this.visibility = $("attack-visibility");
    this.physical = $("attack-physical");
    this.facesRow = $("attack-faces-row");
    this.faces = $("attack-faces");
    this.error = $("attack-error");
    this.measure = $("attack-measure");
    this.pools = $("attack-pools");
    this.oddsBox = $("attack-odds");
    this.go = $("attack-go");
    this.defense = $("attack-defense");
    this.defenseSkill = $("attack-defense-skill");
    this.overrule = $("attack-overrule");
    this.overrides = this.may.runsTable
      ? new Overrides($("attack-overrides"), { spec, onChange: () => this.previewSoon() })
      : null;
    this.turn = 0;
    this.fills = {}; // a sheetless attacker's fields the page filled in for the GM
    if (!may.takesPart) {
      this.go.disabled = true;
      this.error.textContent = "Observers watch; they do not attack.";
    }
    for (const input of [this.attacker, this.target, this.weapon]) {
      input.addEventListener("change", () => this.changed(input));
    }
    for (const input of [this.skill, this.defense, this.defenseSkill, this.overrule]) {
      input?.addEventListener("change", () => this.previewSoon());
      if (input?.tagName === "INPUT") input.addEventListener("input", () => this.previewSoon());
    }
    $("attack-overrides-reset")?.addEventListener("click", () => {
      this.overrides.reset();
      this.previewSoon();
    });
    this.physical.addEventListener("change", () => {
      this.facesRow.hidden = !this.physical.checked;
      if (this.physical.checked) this.faces.focus();
    });
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.attack();
    });
  }

  // ---- choosing who, whom and with what

  canAttackWith(token) {
    return this.may.movesToken(token);
  }

  /** The attack half is on screen (not folded away, not another tab). */
  visible() {
    return !this.root.hidden && (this.root.checkVisibility?.() ?? true);
  }

  /** Tokens came, went or moved: the lists are refilled now if they are
   *  in sight, else when they come into sight (shown()): on a big map a
   *  refill sorts every token by distance, too much for every move. */
  tokensChanged() {
    this.stale = true;
    if (this.visible()) this.refill();
  }

  /** The attack half came into sight: catch up with the map. */
  shown() {
    if (this.stale) this.refill();
    const wanted = this.wanted;
    this.wanted = null;
    if (wanted && wanted !== this.attacker.value && [...this.attacker.options].some((o) => o.value === wanted)) {
      this.attacker.value = wanted;
      this.changed(this.attacker);
    }
    this.previewSoon();
  }

  /** Refill the lists, keeping the choices. */
  refill() {
    this.stale = false;
    const tokens = [...this.board.tokens.values()];
    const keepAttacker = this.attacker.value;
    const mine = tokens.filter((t) => this.canAttackWith(t)).sort((a, b) => a.name.localeCompare(b.name));
    this.attacker.replaceChildren(el("option", { value: "", text: mine.length ? "Choose a token" : "No token of yours here" }));
    for (const t of mine) this.attacker.append(el("option", { value: String(t.id), text: t.name }));
    if (mine.some((t) => String(t.id) === keepAttacker)) this.attacker.value = keepAttacker;
    else if (mine.length === 1 && !this.may.runsTable) this.attacker.value = String(mine[0].id);
    if (this.attacker.value !== keepAttacker) this.fillWeapons();
    this.fillTargets();
    this.previewSoon(); // a move changes the range
  }

  fillTargets() {
    const from = this.board.tokens.get(Number(this.attacker.value));
    const keep = this.target.value;
    const others = [...this.board.tokens.values()]
      .filter((t) => !from || t.id !== from.id)
      .map((t) => [t, from ? gap(from, t, this.diagonal) : null])
      .sort((a, b) => (a[1] ?? 0) - (b[1] ?? 0) || a[0].name.localeCompare(b[0].name));
    this.target.replaceChildren(el("option", { value: "", text: "Choose a target" }));
    for (const [t, feet] of others) {
      this.target.append(el("option", { value: String(t.id), text: feet === null ? t.name : `${t.name} (${feet} ft)` }));
    }
    const areas = this.templates().filter((t) => t.scene_id === this.board.scene?.id).sort((a, b) => a.id - b.id);
    if (areas.length) {
      const group = el("optgroup", { label: "Every token in a template" });
      for (const t of areas) group.append(el("option", { value: `${AREA}${t.id}`, text: `All in the ${templateWords(t)}` }));
      this.target.append(group);
    }
    if ([...this.target.options].some((o) => o.value === keep)) this.target.value = keep;
  }

  /** The template chosen as the target, or null (one token is). */
  area() {
    if (!this.target.value.startsWith(AREA)) return null;
    const id = Number(this.target.value.slice(AREA.length));
    return this.templates().find((t) => t.id === id) || null;
  }

  /** The tokens the board holds inside the template, the attacker left out:
   *  what the server will attack (it decides again, from what it holds). */
  inside(template) {
    const scene = this.board.scene;
    if (!scene) return [];
    const covered = squares(template, scene.width, scene.height);
    const from = Number(this.attacker.value);
    return [...this.board.tokens.values()].filter((t) => t.id !== from && holds(covered, t)).sort((a, b) => a.name.localeCompare(b.name));
  }

  fillWeapons() {
    const token = this.board.tokens.get(Number(this.attacker.value));
    const character = this.roster.get(token?.character_id);
    const keep = this.weapon.value;
    this.weapon.replaceChildren(el("option", { value: "", text: "Unarmed" }));
    for (const w of character?.weapons || []) {
      const reach = w.range_ft === "line_of_sight" ? "line of sight" : typeof w.range_ft === "number" ? `${w.range_ft} ft` : null;
      const broken = this.roster.isBroken(character.id, w.name) ? ", broken" : "";
      this.weapon.append(el("option", { value: w.name, text: `${w.name} (${[w.kind, reach].filter(Boolean).join(", ")}${broken})` }));
    }
    // The same attacker keeps its weapon; another starts with its first one.
    const same = this.weaponsFor === this.attacker.value;
    this.weaponsFor = this.attacker.value;
    if (same && [...this.weapon.options].some((o) => o.value === keep)) this.weapon.value = keep;
    else if (this.weapon.options.length > 1) this.weapon.selectedIndex = 1;
    clear(this.skillList);
    const sheet = character?.sheet || {};
    // The sheet's maps the kit names (skill_maps) hold the skills to offer.
    const names = (this.spec.skill_maps || []).flatMap((map) => Object.keys(sheet[map] || {}));
    for (const name of names) this.skillList.append(el("option", { value: name }));
  }

  /** The map's selection: a token the viewer may attack with becomes the attacker. */
  selected(token) {
    if (!token || !this.canAttackWith(token)) return;
    if (!this.visible()) {
      this.wanted = String(token.id); // taken when the attack comes into sight
      this.stale = true;
      return;
    }
    this.wanted = null;
    if (String(token.id) === this.attacker.value) return;
    if (this.stale || ![...this.attacker.options].some((o) => o.value === String(token.id))) this.refill();
    this.attacker.value = String(token.id);
    this.changed(this.attacker);
  }

  changed(input) {
    if (input === this.attacker) {
      this.fillTargets();
      this.fillWeapons();
    }
    // Other tokens or another weapon: the sheets fill other pools.
    this.overrides?.forget();
    this.fills = {};
    this.result().textContent = "";
    this.previewSoon();
  }

  // ---- preview

  intent(type) {
    const intent = {
      type,
      attacker_token: Number(this.attacker.value),
      target_token: Number(this.target.value),
      weapon: this.weapon.value || null,
    };
    const options = {};
    if (this.skill.value.trim()) options.attack_skill = this.skill.value.trim();
    if (this.may.runsTable && this.defense?.value) options.defense = this.defense.value;
    if (this.may.runsTable && this.defenseSkill?.value.trim()) options.defense_skill = this.defenseSkill.value.trim();
    if (this.may.runsTable && this.overrule?.checked) options.overrule = true;
    if (Object.keys(options).length) intent.options = options;
    if (this.overrides) {
      const attack = this.overrides.read(this.fills);
      if (attack) intent.overrides = { attack };
    }
    return intent;
  }

  ready() {
    return this.attacker.value && this.target.value;
  }

  previewSoon() {
    clearTimeout(this.previewTimer);
    // The choice changed: a preview still on its way is of the old one.
    this.turn++;
    if (this.root.hidden) return; // asked again when the tab opens
    this.oddsBox.setAttribute("aria-busy", "true");
    this.previewTimer = setTimeout(() => this.preview(), PREVIEW_DELAY_MS);
  }

  async preview() {
    const turn = ++this.turn;
    const area = this.ready() && this.area();
    if (area) {
      this.showArea(area);
      return;
    }
    if (!this.ready()) {
      this.oddsBox.removeAttribute("aria-busy");
      this.showPreview(null);
      drawOddsError(this.oddsBox, "Choose an attacker and a target to see the odds.");
      return;
    }
    this.oddsBox.setAttribute("aria-busy", "true");
    let answer = null;
    let failure = null;
    for (let i = 0; i <= MISSING_FILLS; i += 1) {
      try {
        answer = await this.socket.send(this.intent("attack.preview"));
        break;
      } catch (error) {
        failure = error;
        if (!this.fillMissing(error)) break;
      }
    }
    if (turn !== this.turn) return; // a newer choice is on its way
    this.oddsBox.removeAttribute("aria-busy");
    if (answer) {
      this.showPreview(answer.preview);
      this.error.textContent = "";
      this.mark(null);
    } else {
      this.showPreview(null);
      drawOddsError(this.oddsBox, "No odds: the server refused this attack.");
      this.refused(failure);
    }
  }

  /** A GM attacking with a token that has no sheet gives its pools: a
   *  field the rules miss is filled with its default for the GM to change. */
  fillMissing(error) {
    if (!this.overrides) return false;
    if (error.code === "no_character" && error.field === "attacker_token") {
      if (this.fills.__sheetless) return false;
      this.fills = { __sheetless: true };
      return true;
    }
    const path = /^attack\.(.+)$/.exec(error.field || "")?.[1];
    if (!this.fills.__sheetless || error.code !== "invalid" || !path || path in this.fills) return false;
    const value = this.overrides.defaultFor(path);
    if (value === undefined) return false;
    this.fills[path] = value;
    return true;
  }

  /** An area's targets instead of one target's odds: each is rolled apart. */
  showArea(template) {
    this.showPreview(null);
    const names = this.inside(template).map((t) => t.name);
    this.measure.append(el("b", { text: `${templateWords(template)}: ` }), names.length ? `${names.join(", ")}` : "no token inside");
    drawOddsError(this.oddsBox, names.length ? `One attack against each of the ${names.length}, each rolled on its own.` : "No token inside to attack.");
    this.error.textContent = "";
  }

  showPreview(preview) {
    clear(this.measure);
    clear(this.pools);
    if (!preview) {
      this.overrides?.show(null);
      return;
    }
    const m = preview.measure;
    const reach = m.range_ft === "line_of_sight" ? "line of sight" : m.range_ft ? `${m.range_ft} ft listed` : "no listed range";
    this.measure.append(
      el("b", { text: `${m.distance_ft} ft · ${words(m.category)}` }),
      ` (${m.kind}, ${reach}${m.line_of_sight ? "" : ", a wall in the way"})`,
    );
    const rolled = sourceWords(preview.sources);
    if (rolled) this.pools.append(el("p", { class: "note", text: rolled }));
    this.pools.append(el("p", { class: "note pool-values", text: poolWords(preview.request, this.said) }));
    drawOdds(this.oddsBox, preview.odds, { distributions: DISTRIBUTIONS, expected: true });
    this.keepOddsInSight();
    this.overrides?.show(preview.request);
  }

  /** On a short screen (a phone) the odds fall below the fold, where the
   *  sticky Attack button covers the end of the form: odds that would be
   *  under it or past it are scrolled up to sit just above it (the panel's
   *  scroll-padding keeps the button's room). */
  keepOddsInSight() {
    const odds = this.oddsBox.getBoundingClientRect();
    const button = this.go.getBoundingClientRect();
    if (!odds.height || odds.bottom <= button.top) return;
    this.oddsBox.scrollIntoView({ block: "nearest" });
  }

  // ---- the attack

  async attack() {
    this.error.textContent = "";
    if (!this.ready()) {
      this.error.textContent = "Choose an attacker and a target.";
      (this.attacker.value ? this.target : this.attacker).focus();
      return;
    }
    const area = this.area();
    if (area) {
      await this.attackArea(area);
      return;
    }
    const intent = this.intent("attack");
    if (this.may.runsTable && this.visibility) intent.visibility = this.visibility.value;
    if (this.physical.checked) {
      const { faces, error } = parseFaces(this.faces.value);
      if (error) {
        this.error.textContent = error;
        this.mark("faces");
        this.faces.focus();
        return;
      }
      intent.faces = faces;
    }
    this.go.disabled = true;
    try {
      const ack = await this.socket.send(intent);
      const a = ack.attack;
      this.error.textContent = "";
      this.mark(null);
      this.result().textContent = `${a.attacker.name} attacked ${a.target.name}: ${words(a.outcome)}.`;
      expectRoll(`attack-${a.id}`); // the log's sentence, at the bottom of the screen
      if (this.physical.checked) this.faces.value = "";
      this.previewSoon(); // the target's Condition may have changed the odds
    } catch (error) {
      this.refused(error);
    } finally {
      this.go.disabled = !this.may.takesPart;
    }
  }

  /** Every token in the template: one adjudication each, the server's targets. */
  async attackArea(template) {
    const intent = { ...this.intent("attack.area"), template: template.id };
    delete intent.target_token;
    delete intent.overrides; // each target's pools are its own sheet's
    if (this.may.runsTable && this.visibility) intent.visibility = this.visibility.value;
    this.go.disabled = true;
    try {
      const ack = await this.socket.send(intent);
      this.mark(null);
      const hit = ack.attacks.map((a) => `${a.target.name}: ${words(a.outcome)}`);
      const passed = ack.passed_over.map((p) => `${p.name} (${p.message})`);
      this.result().textContent = `${ack.attacks.length} attacks from the ${templateWords(template)}: ${hit.join("; ")}.${passed.length ? ` Passed over: ${passed.join("; ")}.` : ""}`;
      for (const a of ack.attacks) expectRoll(`attack-${a.id}`);
    } catch (error) {
      this.refused(error);
    } finally {
      this.go.disabled = !this.may.takesPart;
    }
  }

  result() {
    return this.root.querySelector("#attack-result");
  }

  refused(error) {
    this.result().textContent = "";
    const code = error?.code ? `${words(error.code)}: ` : "";
    this.error.textContent = `Refused (${code}${error?.message || "no reason given"})`;
    this.mark(error?.field);
    // The reason in full, above the sticky Attack button (a phone's short panel).
    if (this.visible()) this.error.scrollIntoView({ block: "nearest" });
  }

  mark(field) {
    for (const node of this.form.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
    const input = {
      attacker_token: this.attacker,
      target_token: this.target,
      template: this.target,
      weapon: this.weapon,
      faces: this.faces,
      "options.attack_skill": this.skill,
    }[field];
    input?.setAttribute("aria-invalid", "true");
  }
}

/** The filled request in a line, in the game's words: "Attacker: Finesse
 *  dice 4, Might dice 3 · Defender: ...". A box ticked is said by its label,
 *  one not ticked is left out. */
function poolWords(request, said) {
  const action = request?.action;
  const item = (path, v) => {
    const name = said.field(action, path);
    if (v === true) return name;
    if (v === false) return null;
    return typeof v === "string" ? `${name}: ${said.choice(v)}` : `${name} ${v}`;
  };
  const parts = [];
  for (const [key, value] of Object.entries(request || {})) {
    // A fixed field (the campaign's own list, set by the server) says nothing.
    if (["system", "action", "faces"].includes(key) || said.fixed(action, key) || value === null) continue;
    if (typeof value === "object" && !Array.isArray(value)) {
      const inner = Object.entries(value)
        .filter(([, v]) => v !== null && typeof v !== "object")
        .map(([k, v]) => item(`${key}.${k}`, v))
        .filter(Boolean)
        .join(", ");
      if (inner) parts.push(`${said.field(action, key)}: ${inner}`);
    } else if (!Array.isArray(value)) {
      const one = item(key, value);
      if (one) parts.push(one);
    }
  }
  return parts.join(" · ");
}
