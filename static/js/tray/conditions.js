// The conditions a character's tokens are marked with, laid over the
// tray's request for its odds as the server lays them over the roll
// (vtt/games/conditions.py): each declared effect adds to the action's
// field of that name, kept within the field's bounds. The tray sends the
// request as set up; the server applies the same effect when it rolls.

const clamp = (v, lo, hi) => Math.max(lo ?? v, Math.min(hi ?? v, v));

/** {request, applied}: the request with the effects of `conditions` (the
 *  kit's declarations) on `fields` (the action's, from the tray spec), and
 *  the conditions that changed something. */
export function withConditions(request, fields, conditions) {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const changed = { ...request };
  const applied = [];
  for (const condition of conditions) {
    let used = false;
    for (const [name, change] of Object.entries(condition.effect || {})) {
      const field = byName.get(name);
      if (!field || field.type !== "int") continue;
      const value = typeof changed[name] === "number" ? changed[name] : field.default ?? 0;
      changed[name] = clamp(value + change, field.min, field.max);
      used = true;
    }
    if (used) applied.push(condition);
  }
  return { request: changed, applied };
}

/** The words the odds carry for them: "With Prone (-1D)". */
export function conditionsNote(applied) {
  if (!applied.length) return "";
  const words = applied.map((c) => (c.says ? `${c.name} (${c.says})` : c.name));
  return `With ${words.join(", ")}: marked on the character's token, the roll takes it.`;
}
