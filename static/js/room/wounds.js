// A character's wound state from the resources this page knows, read the
// way the server's wound track reads them (vtt/games/wounds.py): the page
// starts from the state the server serves with each character, and works
// it out again only when an attack, a damage or an undo changes the
// resource the track reads. A resource the page does not know (an NPC a
// player has only seen attacked on other counters) gives no state at all.

function at(names, index) {
  const i = Math.max(0, Math.min(index, names.length - 1));
  return { state: names[i], out: i >= names.length - 2, dead: i === names.length - 1, hurt: i > 0 };
}

/** {state, out, dead, hurt} or null; `track` is the room config's wound_track. */
export function woundState(track, resources, settings) {
  if (!track || !resources) return null;
  const value = resources[track.reads];
  if (value === undefined || value === null) return null;
  if (track.kind === "condition") {
    const names = settings.condition_track || [];
    const i = names.indexOf(value);
    return names.length ? at(names, i < 0 ? 0 : i) : null;
  }
  const names = settings.wound_states || [];
  if (names.length < 3 || typeof value !== "number") return null;
  if (track.kind === "ladder") return at(names, Math.floor(value / (settings.wounds_per_state || 1)));
  if (track.kind === "dying") {
    if (value <= 0) return { state: names[2], out: true, dead: false, hurt: true };
    const hurt = value < (settings.starting_wound_points ?? 10);
    return { state: names[hurt ? 1 : 0], out: false, dead: false, hurt };
  }
  return null;
}

/** Whether a change of `field` changes the state. */
export function reads(track, field) {
  return !!track && track.reads === field;
}
