// The characters as this page knows them: their public data from the page,
// then every change the room reports (a character.updated, an attack's or
// a damage's or an undo's `changes`). A player learns an NPC's Condition or
// wounds only from the public attacks on it, so an NPC enters the roster
// with nothing but the resources those changes name, and a wound state
// only once a change names the resource its wound track reads.

import { counts, reads, say, woundState } from "./wounds.js";

export class Roster {
  constructor(characters, settings, woundTrack = null, weaponChange = null) {
    this.settings = settings || {};
    this.woundTrack = woundTrack;
    this.weaponChange = weaponChange; // the kit's declared change of a weapon its chain broke
    this.byId = new Map(characters.map((c) => [c.id, c]));
    this.broken = new Set(); // "characterId:weapon" a botch broke and nobody mended yet
  }

  get(id) {
    return this.byId.get(id);
  }

  /** A character.updated: the public data as it is now. */
  update(character) {
    const known = this.byId.get(character.id) || {};
    this.byId.set(character.id, { ...known, ...character, owner_id: character.owner?.id ?? known.owner_id });
  }

  /** An attack's, a damage's or an undo's changes: each field set to `after`. */
  apply(changes) {
    for (const change of changes || []) {
      const id = change.character_id;
      if (this.isWeaponChange(change)) {
        this.setBroken(id, change.weapon, change.after);
        continue;
      }
      const known = this.byId.get(id) || { id, name: change.character, resources: {} };
      const resources = { ...(known.resources || {}) };
      if (change.after === null || change.after === undefined) delete resources[change.field];
      else resources[change.field] = change.after;
      const wounds = reads(this.woundTrack, change.field) ? woundState(this.woundTrack, resources, this.settings) : known.wounds;
      this.byId.set(id, { ...known, resources, wounds });
    }
  }

  /** A change of a weapon (the kit's weapon_change), not of a resource. */
  isWeaponChange(change) {
    return Boolean(this.weaponChange) && change.field === this.weaponChange.field && change.weapon !== undefined;
  }

  setBroken(characterId, weapon, broken) {
    if (!weapon) return;
    const key = `${characterId}:${weapon}`;
    if (broken) this.broken.add(key);
    else this.broken.delete(key);
  }

  isBroken(characterId, weapon) {
    return this.broken.has(`${characterId}:${weapon}`);
  }

  /** The resource the wound track reads, where this page knows it. */
  harm(characterId) {
    const track = this.woundTrack;
    const value = track ? this.byId.get(characterId)?.resources?.[track.reads] : undefined;
    return value === null ? undefined : value;
  }

  /** The wound state {state, out, dead, hurt} when this page knows it. */
  wounds(characterId) {
    return this.byId.get(characterId)?.wounds || null;
  }

  /** What the map's badge says: {text, fallen} or null. The text is the
   * wound state past the track's first, or the resource in the track's
   * words when it counts before the first step down ("Wounds 1"); fallen
   * is "dead", "out" or null. */
  badge(characterId) {
    const wounds = this.wounds(characterId);
    const fallen = wounds?.dead ? "dead" : wounds?.out ? "out" : null;
    if (wounds?.hurt) return { text: wounds.state, fallen };
    const value = this.harm(characterId);
    const track = this.woundTrack;
    if (track?.mark && counts(track, value, this.settings)) return { text: say(track.mark, value), fallen };
    return null;
  }

  /** The character's state in words for the turn order, when known: a hurt
   * state with the resource in the track's words ("Wounded (WP 4)"). */
  state(characterId) {
    if (!this.byId.get(characterId)?.resources) return null;
    const wounds = this.wounds(characterId);
    const value = this.harm(characterId);
    const track = this.woundTrack;
    if (wounds) return wounds.hurt && track?.amount && typeof value === "number" ? `${wounds.state} (${say(track.amount, value)})` : wounds.state;
    if (track?.mark && counts(track, value, this.settings)) return say(track.mark, value);
    return null;
  }
}
