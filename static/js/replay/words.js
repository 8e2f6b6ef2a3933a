// One line of the replay's log for an event as the viewer received it, or
// null for what says nothing to them (a redacted number, a bare change of
// view). The room's log draws much more; a replay needs to say what happened.

import { templateWords } from "../map/template_shapes.js";

const at = (token) => `(${token.x}, ${token.y})`;

/** `tokens`: the tokens the viewer holds, by id (a slim move names none). */
export function line(event, tokens = {}) {
  const d = event.data || {};
  switch (event.type) {
    case "roll":
      if (d.blind) return `${d.roller?.name || "Someone"} made a blind roll.`;
      return d.sentence || "A roll.";
    case "chat":
      return `${d.from?.name || "Someone"}: ${d.text}`;
    case "whisper":
      return `${d.from?.name || "Someone"} to ${d.to?.name || "someone"}: ${d.text}`;
    case "token.moved":
      // A slim move carries where its token went, not its name.
      return `${d.token.name || tokens[d.token.id]?.name || "A token"} moved to ${at(d.token)}.`;
    case "token.created":
      return `${d.token.name} was placed at ${at(d.token)}.`;
    case "token.deleted":
      return `${d.token.name} was removed.`;
    case "token.hidden":
      return `${d.token.name} was hidden.`;
    case "token.revealed":
      return `${d.token.name} was revealed.`;
    case "scene.activated":
      return `Scene: ${d.scene?.name || "a new map"}.`;
    case "combat.attack":
    case "combat.damage": {
      const a = d.attack || {};
      return `${a.attacker?.name || "Someone"} attacked ${a.target?.name || "someone"}${a.status ? ` (${a.status})` : ""}.`;
    }
    case "encounter.initiative": // not a line when every roll was for someone this viewer did not see
      return d.rolls?.length ? "Initiative was rolled." : null;
    case "encounter.started":
      return "An encounter began.";
    case "encounter.ended":
      return "The encounter ended.";
    case "session.started":
      return `Session ${d.session} started.`;
    case "session.ended":
      return `Session ${d.session} ended: its seed is out.`;
    case "reveal":
      return "The GM revealed a hidden result.";
    case "template.placed":
      return `${d.template.by?.name || "Someone"} placed a ${templateWords(d.template)} template.`;
    case "template.removed":
      return `The ${templateWords(d.template)} template was taken off the map.`;
    case "drawing.added":
      return `${d.drawing?.by?.name || "Someone"} drew on the map.`;
    case "drawing.cleared":
      return "The drawings were cleared.";
    default:
      return null;
  }
}
