// Combat in the roll log: each attack with its whole chain (every step's
// dice with their roles, the outcome, what it did to whom), the one-click
// damage steps the seeds leave open, a defender's resource panel (the
// game's reaction: a resource spent against the damage), undo and reveal
// notes, and initiative rolls. An attack's entry is drawn again in place
// whenever its status changes (damage applied, a resource spent, undone).
// What a game calls these comes from its kit (the tray spec).

import { el } from "../lib/dom.js";
import { describeError } from "../lib/errors.js";
import { PHYSICAL, drawLine, outcomeClass } from "./log.js";
import { emphasised, label, timeOf, words } from "./words.js";
import { rollDrawn } from "./toast.js";

const STEP_WORDS = { attack: "Attack", damage: "Damage roll", initiative: "Initiative" };
const GOOD = new Set(["hit"]);
const BAD = new Set(["miss", "incapacitated", "dead"]);
const STATUS_WORDS = {
  missed: "Missed",
  applied: "Applied",
  awaiting_damage: "Waiting for the GM to apply the damage",
  awaiting_defender: "Waiting for the defender to decide",
  undone: "Undone",
  declined: "The GM declined the damage",
};
const UNDONE_WORDS = {
  "combat.attack": "an attack",
  "combat.damage": "applied damage",
  "character.updated": "a change to a character",
  "token.moved": "a move",
};

function change(c, roster) {
  const weapon = roster.isWeaponChange(c) && roster.weaponChange;
  if (weapon) return `${c.character}'s ${c.weapon} ${c.after ? weapon.broke : weapon.mended}`;
  return `${c.character}: ${words(c.field)} ${c.before ?? "—"} → ${c.after ?? "—"}`;
}

/** "Finesse, Might against Agility, Toughness": the sheet entries rolled. */
export function sourceWords(sources) {
  const { attacker, defender } = sources || {};
  if (!attacker && !defender) return null;
  const by = (attacker || ["the GM's pools"]).join(", ");
  return defender ? `${by} against ${defender.join(", ")}` : by;
}

export class CombatLog {
  constructor(rollLog, { me, may, roster, socket, onChanged, game = {} }) {
    this.rollLog = rollLog;
    this.list = rollLog.list;
    this.me = me;
    this.may = may; // what this member may do (./may.js)
    this.roster = roster;
    this.socket = socket;
    this.onChanged = onChanged; // the roster changed: badges, turn order
    // The kit's words: what the GM's one click takes damage off (damage_to)
    // and the resource a defender may spend against it (reaction).
    this.damageTo = game.damage_to || "the target";
    this.reaction = game.reaction || null;
    this.stepWords = { ...STEP_WORDS, ...(this.reaction ? { reduce: this.reaction.step } : {}) };
    this.attacks = new Map(); // attack id -> {attack, node, revealed}
    this.before = new Map(); // seq of a combat.damage -> the attack as it was
  }

  clear() {
    this.attacks.clear();
    this.before.clear();
  }

  entry(seq) {
    return this.list.querySelector(`:scope > [data-seq="${seq}"]`);
  }

  append(node, seq) {
    if (this.entry(seq)) return false;
    node.dataset.seq = seq;
    this.list.append(node);
    this.rollLog.appended();
    return true;
  }

  // ---- events

  attack(event) {
    const attack = event.data?.attack;
    if (!attack) return;
    this.roster.apply(attack.changes);
    this.onChanged?.();
    const node = this.drawAttack(attack, false, event.at);
    if (this.append(node, event.seq)) this.attacks.set(attack.id, { attack, node, revealed: false, at: event.at });
    rollDrawn(`attack-${attack.id}`, {
      sentence: this.sentence(attack),
      dice: (attack.steps || []).flatMap((s) => s.result?.dice || []),
      names: [attack.attacker?.name, attack.target?.name],
      outcome: outcomeClass(attack.outcome),
      visibility: attack.visibility,
    });
  }

  /** The attack in the game's words (the kit's), or a plain one from an older entry. */
  sentence(attack) {
    if (attack.sentence) return attack.sentence;
    const verb = attack.outcome === "miss" ? "misses" : "hits";
    return `${attack.attacker?.name || "Someone"} ${verb} ${attack.target?.name || "the target"}.`;
  }

  damage(event) {
    const attack = event.data?.attack;
    if (!attack) return;
    this.roster.apply(event.data.changes);
    this.onChanged?.();
    const known = this.attacks.get(attack.id);
    if (known) {
      this.before.set(event.seq, known.attack);
      this.redraw(attack.id, attack);
      this.note(event.seq, `${this.damageWords(attack)}`);
    } else {
      const node = this.drawAttack(attack, false, event.at);
      if (this.append(node, event.seq)) this.attacks.set(attack.id, { attack, node, revealed: false, at: event.at });
    }
  }

  declined(event) {
    const attack = event.data?.attack;
    if (!attack) return;
    if (this.attacks.has(attack.id)) this.redraw(attack.id, attack);
    this.note(event.seq, `The GM declined the damage of ${attack.attacker.name}'s attack on ${attack.target.name}.`);
  }

  /**
   * The decisions pending for this member now (./decisions.js): the log's
   * buttons of any other attack, or of a stale one, are off, so an old
   * "Apply" never lands a hit the server would refuse.
   */
  pending(list) {
    const open = new Map(list.map((d) => [d.attack, d]));
    for (const [id, { node }] of this.attacks) {
      const d = open.get(id);
      for (const button of node.querySelectorAll(".attack-controls :is(.apply-damage, .apply-amount, .take-damage)")) {
        button.disabled = !d || Boolean(d.stale);
        button.title = d?.stale ? `Cannot apply: ${d.stale.message}` : "";
      }
    }
  }

  damageWords(attack) {
    const spent = this.reaction && attack.steps.find((s) => s.step === "reduce");
    const taken = spent ? spent.result.damage : attack.damage;
    return `${attack.target.name} takes ${taken} damage${spent ? ` after ${spent.request[this.reaction.field]} ${this.reaction.label}` : ""}.`;
  }

  undo(event) {
    const d = event.data || {};
    this.roster.apply(d.changes);
    const known = d.attack_id !== undefined ? this.attacks.get(d.attack_id) : null;
    if (known) {
      if (d.undone === "combat.damage" && this.before.has(d.undo_of)) {
        this.redraw(d.attack_id, this.before.get(d.undo_of));
      } else {
        for (const c of known.attack.changes || []) {
          if (this.roster.isWeaponChange(c)) this.roster.setBroken(c.character_id, c.weapon, false);
        }
        this.redraw(d.attack_id, { ...known.attack, status: d.status || "undone" });
      }
    }
    this.onChanged?.();
    this.markUndone(d.undo_of);
    const what = UNDONE_WORDS[d.undone] || words(d.undone || "a result");
    this.note(event.seq, `Undone: ${what} (#${d.undo_of}).`, "undo");
  }

  /** A token.moved that undoes a move (undo_of) or resets a token. */
  moved(event) {
    const d = event.data || {};
    const token = { name: "A token", ...(d.token || {}) };
    if (d.undo_of !== undefined) {
      this.markUndone(d.undo_of);
      this.note(event.seq, `Undone: a move (#${d.undo_of}); ${token.name} is back at column ${token.x}, row ${token.y}.`, "undo");
    } else if (d.reset) {
      this.note(event.seq, `${token.name} is back where the turn began (column ${token.x}, row ${token.y}).`);
    }
  }

  markUndone(seq) {
    const node = this.entry(seq);
    if (!node || node.querySelector(".tag.undone")) return;
    node.classList.add("undone");
    node.querySelector(".tags")?.append(el("span", { class: "tag undone", text: "undone" }));
  }

  reveal(event) {
    const d = event.data || {};
    const original = this.entry(d.of_seq);
    if (original && !original.classList.contains("redacted")) {
      // This page saw it in full (the GM's): mark it, and say so once.
      original.querySelector(".tag.hidden")?.replaceWith(el("span", { class: "tag revealed", text: "revealed" }));
      original.querySelector("button.reveal")?.remove();
      const attackId = original.dataset.attackId;
      if (attackId && this.attacks.has(Number(attackId))) this.attacks.get(Number(attackId)).revealed = true;
      this.note(event.seq, `Revealed to everyone: #${d.of_seq}.`);
      return;
    }
    const shown = { seq: event.seq, type: d.type, data: d.data };
    if (d.type === "roll") this.rollLog.add(shown);
    else if (d.type === "combat.attack" || d.type === "combat.damage") {
      const attack = d.data?.attack;
      if (!attack) return;
      const node = this.drawAttack(attack, true, event.at);
      if (this.append(node, event.seq) && !this.attacks.has(attack.id)) {
        this.attacks.set(attack.id, { attack, node, revealed: true, at: event.at });
      }
    } else if (d.type === "encounter.initiative") this.initiative(shown);
    const node = this.entry(event.seq);
    if (node) {
      node.querySelector(".tag.hidden")?.remove();
      const tags = node.querySelector(".tags");
      if (tags && !tags.querySelector(".tag.revealed")) tags.append(el("span", { class: "tag revealed", text: "revealed" }));
    }
  }

  repaired(event) {
    const d = event.data || {};
    this.roster.setBroken(d.character_id, d.weapon, false);
    this.note(event.seq, `${d.character}'s ${d.weapon} is mended.`);
    for (const { attack } of this.attacks.values()) this.redraw(attack.id, attack);
  }

  initiative(event) {
    const d = event.data || {};
    const rolls = d.rolls || [];
    if (!rolls.length) return; // every roll was for someone this viewer does not see
    const item = el(
      "li",
      { class: "initiative-entry" },
      el(
        "div",
        { class: "head" },
        el("span", { class: "who", text: "Initiative" }),
        timeOf(event.at),
        el("span", { class: "tags" }, d.physical ? el("span", { class: "tag physical", text: PHYSICAL }) : null),
      ),
    );
    for (const roll of rolls) {
      item.append(
        el("p", { class: "sentence" }, `${roll.name} rolls `, el("strong", { text: String(roll.initiative) }), " for initiative."),
        this.rollLog.dice(roll.result?.dice || []),
      );
    }
    this.append(item, event.seq);
  }

  note(seq, text, kind = "") {
    this.append(el("li", { class: `note-entry ${kind}`.trim() }, el("p", { class: "facts", text })), seq);
  }

  // ---- drawing an attack

  redraw(attackId, attack) {
    const known = this.attacks.get(attackId);
    if (!known) return;
    const hadFocus = known.node.contains(document.activeElement);
    const node = this.drawAttack(attack, known.revealed, known.at);
    node.dataset.seq = known.node.dataset.seq;
    known.node.replaceWith(node);
    known.node = node;
    known.attack = attack;
    if (hadFocus) node.querySelector(".attack-status")?.focus();
  }

  drawAttack(attack, revealed = false, at = null) {
    const tags = el("span", { class: "tags" });
    if (attack.physical) tags.append(el("span", { class: "tag physical", text: PHYSICAL }));
    if (attack.visibility === "gm" && !revealed) tags.append(el("span", { class: "tag hidden", text: "GM only" }));
    if (revealed) tags.append(el("span", { class: "tag revealed", text: "revealed" }));
    if (attack.status === "undone") tags.append(el("span", { class: "tag undone", text: "undone" }));
    const tone = GOOD.has(attack.outcome) ? "good" : BAD.has(attack.outcome) ? "bad" : "";
    const weapon = attack.weapon?.name || "unarmed";
    const m = attack.measure || {};
    const category = { out_of_range: "out of range" }[m.category] || words(m.category || "");
    const sources = attack.sources || {};
    const facts = [
      `${m.distance_ft} ft, ${category}${m.line_of_sight === false ? ", no line of sight" : ""}`,
      sourceWords(sources),
    ].filter(Boolean);
    const node = el(
      "li",
      {
        class: `attack-entry${attack.status === "undone" ? " undone" : ""}`,
        "data-attack-id": attack.id,
        "data-status": attack.status,
        "data-outcome": attack.outcome,
      },
      el(
        "div",
        { class: "head" },
        el("span", { class: "who", text: attack.by?.name || "Someone" }),
        el("span", { class: "what", text: `${attack.attacker.name} attacks ${attack.target.name} · ${weapon}` }),
        timeOf(at),
        tags,
      ),
      el("p", { class: `sentence ${tone}`.trim() }, emphasised(this.sentence(attack), [attack.attacker?.name, attack.target?.name, weapon])),
      el("p", { class: "facts", text: facts.join(" · ") }),
      drawLine(attack.draw),
    );
    for (const step of attack.steps || []) {
      node.append(
        el(
          "div",
          { class: "attack-step", "data-step": step.step },
          el("p", { class: "step-name", text: this.stepWords[step.step] || label(step.step) }),
          this.rollLog.dice(step.result?.dice || []),
          this.rollLog.facts(step.result || {}, this.stepWords[step.step] || label(step.step)),
        ),
      );
    }
    const changes = (attack.changes || []).map((c) => change(c, this.roster));
    if (changes.length) {
      node.append(el("ul", { class: "changes", "aria-label": "What it did" }, changes.map((text) => el("li", { text }))));
    }
    node.append(el("p", { class: "attack-status", tabindex: "-1", text: this.statusWords(attack) }));
    const controls = this.controls(attack, revealed);
    if (controls.childElementCount) node.append(controls);
    node.append(el("p", { class: "error", role: "alert" }));
    return node;
  }

  statusWords(attack) {
    const base = (attack.status === "awaiting_defender" && this.reaction?.waiting) || STATUS_WORDS[attack.status] || words(attack.status);
    if (attack.status === "awaiting_damage") {
      return `${base}: ${attack.damage} suggested, off ${attack.target.name}'s ${this.damageTo}.`;
    }
    if (attack.status === "awaiting_defender" && this.reaction) {
      return `${attack.target.name} takes ${attack.damage} damage; ${this.reaction.offer}.`;
    }
    return `${base}.`;
  }

  controls(attack, revealed) {
    const box = el("div", { class: "row attack-controls" });
    const fail = (error) => {
      const message = box.parentNode?.querySelector(":scope > .error");
      if (message) message.textContent = describeError(error);
    };
    const send = (intent) => this.socket.send(intent).catch(fail);
    const id = attack.id;
    if (attack.status === "awaiting_damage" && this.may.runsTable) {
      const amount = el("input", {
        type: "number",
        id: `damage-${id}`,
        min: 0,
        max: 9999,
        step: 1,
        inputmode: "numeric",
        value: attack.damage ?? 0,
        class: "amount",
      });
      box.append(
        el("button", { type: "button", class: "primary apply-damage", text: `Apply ${attack.damage ?? 0} damage`, onclick: () => send({ type: "attack.damage", attack: id }) }),
        el("label", { for: `damage-${id}`, text: "or another amount" }),
        amount,
        el("button", {
          type: "button",
          class: "apply-amount",
          text: "Apply that",
          onclick: () => send({ type: "attack.damage", attack: id, amount: Number(amount.value) }),
        }),
      );
    }
    const reaction = this.reaction;
    if (attack.status === "awaiting_defender" && reaction && this.decides(attack)) {
      // The game's resource panel: the defender spends the declared resource.
      const have = this.roster.get(attack.target.character_id)?.resources?.[reaction.resource] ?? 0;
      const most = Math.max(0, Math.min(have, attack.damage ?? 0));
      const points = el("input", { type: "number", id: `reduce-${id}`, min: 0, max: most, step: 1, inputmode: "numeric", value: 0, class: "amount" });
      box.append(
        el("label", { for: `reduce-${id}`, text: `${reaction.label} to spend (you have ${have})` }),
        points,
        el("button", {
          type: "button",
          class: "primary take-damage",
          text: "Take the damage",
          onclick: () => send({ type: "reaction", reaction: reaction.id, attack: id, values: { [reaction.field]: Number(points.value) } }),
        }),
      );
    }
    if (this.may.runsTable && attack.status !== "undone") {
      for (const c of attack.changes || []) {
        if (this.roster.isWeaponChange(c) && c.after && this.roster.isBroken(c.character_id, c.weapon)) {
          box.append(
            el("button", {
              type: "button",
              class: "repair",
              text: `Mend ${c.character}'s ${c.weapon}`,
              onclick: () => send({ type: "weapon.repair", character: c.character_id, weapon: c.weapon }),
            }),
          );
        }
      }
    }
    if (this.may.runsTable && attack.visibility === "gm" && !revealed && attack.seq) {
      box.append(this.revealButton(attack.seq, fail));
    }
    return box;
  }

  decides(attack) {
    return this.may.editsCharacter(this.roster.get(attack.target.character_id));
  }

  revealButton(seq, fail) {
    return el("button", {
      type: "button",
      class: "reveal",
      text: "Reveal to everyone",
      onclick: () => this.socket.send({ type: "reveal", seq }).catch(fail),
    });
  }
}
