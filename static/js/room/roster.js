// The characters as this page knows them: their public data from the page,
// then every change the room reports (a character.updated, an attack's or
// a damage's or an undo's `changes`). A player learns an NPC's Condition or
// wounds only from the public attacks on it, so an NPC enters the roster
// with nothing but the resources those changes name.

export class Roster {
  constructor(characters, settings) {
    this.settings = settings || {};
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
      if (change.field === "weapon_broken") {
        this.setBroken(id, change.weapon, change.after);
        continue;
      }
      const known = this.byId.get(id) || { id, name: change.character, resources: {} };
      const resources = { ...(known.resources || {}) };
      if (change.after === null || change.after === undefined) delete resources[change.field];
      else resources[change.field] = change.after;
      this.byId.set(id, { ...known, resources });
    }
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

  track() {
    return this.settings.condition_track || null;
  }

  /** What the map's badge says: a Condition past the first, or wounds. */
  badge(characterId) {
    const resources = this.byId.get(characterId)?.resources || {};
    const track = this.track();
    if (resources.condition && track && resources.condition !== track[0]) return resources.condition;
    if (resources.wounds > 0) return `Wounds ${resources.wounds}`;
    return null;
  }

  /** The character's state in words for the turn order, when known. */
  state(characterId) {
    const resources = this.byId.get(characterId)?.resources;
    if (!resources) return null;
    if (resources.condition) return resources.condition;
    if (typeof resources.wound_points === "number") return `WP ${resources.wound_points}`;
    if (resources.wounds > 0) return `Wounds ${resources.wounds}`;
    return null;
  }
}
