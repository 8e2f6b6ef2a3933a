// Written by `python -m vtt.live.kinds_js` from vtt/tabletop/event_kinds.py:
// change the declarations and write it again, never by hand.

// Every kind of room event.
export const KINDS = Object.freeze([
  "campaign.updated",
  "character.created",
  "character.deleted",
  "character.removed",
  "character.updated",
  "chat",
  "combat.attack",
  "combat.damage",
  "combat.declined",
  "combat.weapon_repaired",
  "encounter.ended",
  "encounter.initiative",
  "encounter.started",
  "encounter.turn",
  "encounter.updated",
  "fog.changed",
  "handout.shared",
  "light.changed",
  "marker.added",
  "marker.removed",
  "member.joined",
  "member.removed",
  "member.updated",
  "reveal",
  "roll",
  "scene.activated",
  "scene.created",
  "scene.deleted",
  "scene.updated",
  "session.ended",
  "session.started",
  "token.created",
  "token.deleted",
  "token.hidden",
  "token.moved",
  "token.revealed",
  "token.updated",
  "trails.cleared",
  "undo",
  "whisper",
]);

// What a member may receive instead of an event.
export const INSTEAD = Object.freeze([
  "redacted",
  "sight.changed",
  "token.removed",
]);
