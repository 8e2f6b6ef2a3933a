// The room as the browser holds it, and what each event does to it: plain
// data, no DOM, so the server's tests run this very file against a fresh
// snapshot (tests/live/test_verify_events.py). main.js draws the effects.
//
// state: { seq, campaign, scene, tokens: {id: token}, log: [event views] }

export const LOG_TAIL = 50; // as many entries as a snapshot carries

// Log entries a snapshot replays (the table itself is already current):
// rolls, chat and whispers, and combat's entries with the changes they made, so the
// badges of characters a player only knows from attacks are right.
const REPLAYED = new Set([
  "roll",
  "chat",
  "whisper",
  "character.updated",
  "combat.attack",
  "combat.damage",
  "combat.weapon_repaired",
  "undo",
  "reveal",
  "encounter.initiative",
]);

// Where each log entry is shown.
const ENTRY = {
  roll: "roll",
  chat: "chat",
  whisper: "chat", // its own look, drawn by the chat (./chat.js)
  "combat.attack": "attack",
  "combat.damage": "damage",
  "combat.weapon_repaired": "repaired",
  undo: "undo",
  reveal: "reveal",
  "encounter.initiative": "initiative",
};

export function fromSnapshot(frame) {
  const tokens = {};
  for (const token of frame.tokens || []) tokens[token.id] = token;
  return {
    seq: frame.seq,
    campaign: frame.campaign,
    scene: frame.scene ?? null,
    tokens,
    log: [...(frame.log || [])],
  };
}

function upsert(state, token) {
  if (state.scene && token.scene_id !== undefined && token.scene_id !== state.scene.id) return false;
  const known = state.tokens[token.id];
  if (known && known.version > token.version) return false; // an older state arriving late
  state.tokens[token.id] = token;
  return true;
}

/**
 * Apply one event (as this viewer received it) to `state` and return the
 * effects the page draws, each [name, ...arguments]. With `replay` (a
 * snapshot's log, whose table is already current) the state is left alone
 * and only the log's effects come back.
 */
export function applyEvent(state, event, { replay = false } = {}) {
  const d = event.data || {};
  const effects = [];
  if (replay) {
    const movedBack = event.type === "token.moved" && (d.undo_of !== undefined || d.reset);
    if (!REPLAYED.has(event.type) && !movedBack) return effects;
  } else {
    state.seq = event.seq;
    state.log.push(event);
    if (state.log.length > LOG_TAIL) state.log.splice(0, state.log.length - LOG_TAIL);
  }
  switch (event.type) {
    case "token.moved":
      if (!replay && upsert(state, d.token)) effects.push(["token", d.token], ["trail", event]);
      else if (!replay) effects.push(["trail", event]);
      effects.push(["entry", "moved", event]);
      if (!replay) effects.push(["tokensChanged"]);
      break;
    case "token.created":
    case "token.updated":
    case "token.revealed":
    case "token.hidden":
      if (upsert(state, d.token)) effects.push(["token", d.token]);
      effects.push(["tokensChanged"]);
      break;
    case "token.deleted":
    case "token.removed": {
      const id = event.type === "token.deleted" ? d.token.id : d.token_id;
      delete state.tokens[id];
      effects.push(["untoken", id], ["tokensChanged"]);
      break;
    }
    case "scene.activated":
      // The event carries the new map and the tokens this viewer may see on
      // it: the map changes in place, the socket, log and tray stay.
      state.scene = d.scene;
      state.tokens = {};
      for (const token of d.tokens || []) state.tokens[token.id] = token;
      effects.push(
        ["system", `Scene: ${d.scene?.name || "a new map"}`, event.seq],
        ["scene", d.scene, Object.values(state.tokens), true],
      );
      break;
    case "scene.updated":
      // The map the room is on changed (size, walls, background): redrawn
      // in place with the tokens already held.
      if (d.scene.id !== state.scene?.id) break;
      state.scene = d.scene;
      effects.push(["scene", d.scene, Object.values(state.tokens), false]);
      break;
    case "campaign.updated":
      state.campaign = { id: d.campaign.id, name: d.campaign.name, game: d.campaign.game };
      // Who may place tokens follows the settings (the Sheet tab's list).
      if (d.campaign.settings) effects.push(["settings", d.campaign.settings]);
      break;
    case "character.deleted":
      // Its tokens stay on the map, with no sheet.
      for (const token of Object.values(state.tokens)) {
        if (token.character_id !== d.character.id) continue;
        state.tokens[token.id] = { ...token, character_id: null };
        effects.push(["token", state.tokens[token.id]]);
      }
      break;
    case "character.created": // a new one joins the lists (the Sheet tab's, the token dialog's)
    case "character.updated":
      effects.push(["character", d.character, replay]);
      break;
    case "member.joined":
      effects.push(["system", `${d.user?.name || "someone"} joined as ${d.role}.`, event.seq]);
      break;
    case "encounter.started":
    case "encounter.turn":
    case "encounter.ended":
      // Every turn change starts the scene's trails afresh.
      if (d.encounter?.scene_id === state.scene?.id) effects.push(["clearTrails"]);
      effects.push(["turns", d]);
      break;
    case "encounter.updated":
      effects.push(["turns", d]);
      break;
    case "trails.cleared":
      if (d.scene_id === state.scene?.id) effects.push(["clearTrails"]);
      break;
    default:
      break;
  }
  if (ENTRY[event.type]) effects.push(["entry", ENTRY[event.type], event]);
  if (event.type === "encounter.initiative" && !replay) effects.push(["turns", d]);
  return effects;
}
