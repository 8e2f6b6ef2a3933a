// A character's wound state from the resources this page knows, read the
// way the server's wound track reads them (vtt/games/wounds.py): the page
// starts from the state the server serves with each character, and works
// it out again only when an attack, a damage or an undo changes the
// resource the track reads. The track comes as data (the tray spec's
// wound_track, WoundTrack.declaration()): its state names, how the resource
// picks one, which are out of the fight and the words; no kind of track is
// known here. A resource the page does not know (an NPC a player has only
// seen attacked on other counters) gives no state at all.

/** A number the track declares, from a campaign setting or its default. */
function number(ref, settings) {
  if (typeof ref === "number") return ref;
  const set = ref?.setting ? settings[ref.setting] : undefined;
  return typeof set === "number" ? set : ref?.default;
}

/** The state names: the campaign's, else the track's own. */
export function stateNames(track, settings = {}) {
  const from = track?.states || {};
  const set = from.setting ? settings[from.setting] : undefined;
  return Array.isArray(set) && set.length ? set : from.default || [];
}

// How the resource picks a state's index: null when it cannot say.
const INDEX = {
  name: (value, names) => Math.max(0, names.indexOf(value)),
  step: (value, names, rule, settings) => (typeof value === "number" ? Math.floor(value / (number(rule.per, settings) || 1)) : null),
  below: (value, names, rule, settings) => {
    if (typeof value !== "number") return null;
    if (value <= 0) return names.length - 1;
    return value < (number(rule.full, settings) ?? 0) ? 1 : 0;
  },
  thresholds: (value, names, rule) => (typeof value === "number" ? (rule.at || []).filter((n) => value >= n).length : null),
};

/** {state, out, dead, hurt} or null; `track` is the tray spec's wound_track. */
export function woundState(track, resources, settings = {}) {
  if (!track || !resources) return null;
  const value = resources[track.reads];
  if (value === undefined || value === null) return null;
  const names = stateNames(track, settings);
  if (!names.length || names.length < (track.states?.least ?? 1)) return null;
  const pick = INDEX[track.index?.by];
  const found = pick ? pick(value, names, track.index, settings) : null;
  if (found === null) return null;
  const i = Math.max(0, Math.min(found, names.length - 1));
  const last = names.length - 1;
  return { state: names[i], out: i > last - (track.out ?? 2), dead: !!track.dead && i === last, hurt: i > 0 };
}

/** Whether a change of `field` changes the state. */
export function reads(track, field) {
  return !!track && track.reads === field;
}

/** The track's words for the resource it reads ("WP 4"), or null. */
export function say(template, value) {
  return template ? template.replaceAll("{value}", String(value)) : null;
}

/** Whether the resource shows on the map before the first step down: a
 *  number above the track's `mark_above`, a name other than the first. */
export function counts(track, value, settings = {}) {
  if (value === undefined || value === null) return false;
  if (typeof value === "number") return value > (track.mark_above ?? 0);
  return value !== stateNames(track, settings)[0];
}
