// The room as the browser holds it, and what each event does to it: plain
// data, no DOM, so the server's tests run this very file against a fresh
// snapshot (tests/live/test_verify_events.py). main.js draws the effects.
//
// state: { seq, campaign, scene, tokens: {id: token}, log: [event views],
//          vision: null | {scene, group, view, explored, tokens, lit?, preview?},
//          markers: {id: marker} (status markers of the tokens held),
//          templates: {id: template} (the area templates on the map held) }
//
// A token arriving whole where it comes into sight (the snapshot's table, a
// scene change, a token revealed or coming into view) carries `markers`,
// those this member sees of it: they are kept here, by id, not on the token.
//
// The scene's drawings are the scene's own: `scene.drawings`, a list in the
// order of their ids, as the snapshot carries it (what this member sees of
// them: docs/protocol.md, "Drawings"); the drawing events keep it.
//
// Fog of war (docs/protocol.md, the vision frame): `vision` is what this
// member's sight group sees of the room's scene (SVG paths in grid units);
// it comes with the snapshot and in live `vision` frames (applyVision), and
// any event may carry `data.sight` {enter, leave}: tokens that came into or
// went out of this member's view because of it.

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
  "combat.declined",
  "combat.weapon_repaired",
  "undo",
  "reveal",
  "encounter.initiative",
  "session.started",
  "session.ended",
]);

// Where each log entry is shown.
const ENTRY = {
  roll: "roll",
  chat: "chat",
  whisper: "chat", // its own look, drawn by the chat (./chat.js)
  "combat.attack": "attack",
  "combat.damage": "damage",
  "combat.declined": "declined",
  "combat.weapon_repaired": "repaired",
  undo: "undo",
  reveal: "reveal",
  "encounter.initiative": "initiative",
  "session.started": "session",
  "session.ended": "session",
};

export function fromSnapshot(frame) {
  const state = {
    seq: frame.seq,
    campaign: frame.campaign,
    scene: frame.scene ?? null,
    tokens: {},
    log: [...(frame.log || [])],
    vision: visionOf(frame.vision, frame.scene),
    markers: {},
    templates: Object.fromEntries((frame.templates || []).map((t) => [t.id, t])),
  };
  for (const token of tokensOf(frame.tokens)) state.tokens[token.id] = heldToken(state, token);
  return state;
}

// A token as the state holds it: the markers it carries (if it carries
// them: most events do not) replace those held for it.
function heldToken(state, token) {
  if (!Array.isArray(token.markers)) return token;
  const { markers, ...rest } = token;
  dropMarkers(state, token.id);
  state.markers ??= {};
  for (const marker of markers) state.markers[marker.id] = marker;
  return rest;
}

// The markers of a token this page no longer holds go with it.
function dropMarkers(state, tokenId) {
  for (const [id, marker] of Object.entries(state.markers || {})) {
    if (marker.token_id === tokenId) delete state.markers[id];
  }
}

const fresh = (value) => (Array.isArray(value) ? [...value] : value); // no shared default list

/**
 * A snapshot's tokens, sent as a table (docs/protocol.md, "Tokens as a
 * table"): {fields, defaults, rows}, one row a token's values in the order
 * of `fields`; a row may stop early, and each field it leaves out has its
 * default. Returns the tokens as every event carries them; a list of such
 * tokens (a state built from events, not from the wire) is taken as it is.
 */
export function tokensOf(table) {
  if (!table) return [];
  if (Array.isArray(table)) return table;
  const { fields, defaults, rows } = table;
  return rows.map((row) => {
    const token = {};
    fields.forEach((field, i) => {
      token[field] = i < row.length ? row[i] : fresh(defaults[field]);
    });
    return token;
  });
}

// The parts of a vision the room keeps: a frame's "type" is the wire's.
function visionOf(frame, scene) {
  if (!frame || !scene || frame.scene !== scene.id) return null;
  const vision = {
    scene: frame.scene,
    group: frame.group,
    view: frame.view || "",
    explored: frame.explored || "",
    tokens: [...(frame.tokens || [])],
  };
  if (frame.lit) vision.lit = frame.lit; // a dim or dark scene's lit areas, cut to the view
  if (frame.preview) vision.preview = true;
  return vision;
}

/**
 * A live `vision` frame (not in the log, the latest wins): the member's
 * view of the room's scene changed. A frame for another scene is ignored.
 * Returns the effects, as applyEvent does.
 */
export function applyVision(state, frame) {
  const vision = visionOf(frame, state.scene);
  if (!vision) return [];
  state.vision = vision;
  return [["vision", vision]];
}

/** The GM stopped previewing a group's view: no fog on the GM's map. */
export function clearVision(state) {
  if (state.vision === null) return [];
  state.vision = null;
  return [["vision", null]];
}

// Tokens that came into view are held as any token is; those that left it
// are dropped, as a `token.removed` drops one.
function applySight(state, sight, effects) {
  let changed = false;
  for (const token of sight.enter || []) {
    if (upsert(state, token)) effects.push(["token", token]);
    changed = true;
  }
  for (const id of sight.leave || []) {
    if (!(id in state.tokens)) continue;
    delete state.tokens[id];
    dropMarkers(state, id);
    effects.push(["untoken", id]);
    changed = true;
  }
  if (sight.enter?.length) effects.push(["sighted", sight.enter.map((t) => t.id)]);
  if (changed) effects.push(["tokensChanged"]);
}

/**
 * The whole token a token.moved leaves. Entries logged before moves were
 * slim carry the whole token (they have its name); a slim one carries what
 * a move changes ({id, scene_id, x, y, version, hidden}), laid over the
 * token this page holds. Null for a slim one about a token it does not hold.
 */
export function movedToken(state, token) {
  if (!token || "name" in token) return token || null;
  const known = state.tokens[token.id];
  return known ? { ...known, ...token } : null;
}

function upsert(state, token) {
  if (state.scene && token.scene_id !== undefined && token.scene_id !== state.scene.id) return false;
  const known = state.tokens[token.id];
  if (known && known.version > token.version) return false; // an older state arriving late
  state.tokens[token.id] = heldToken(state, token);
  return true;
}

// A drawing of the room's scene, new or moved, held in its place by id.
function keepDrawing(state, drawing) {
  const scene = state.scene;
  if (!drawing || !scene || drawing.scene !== scene.id) return false;
  const list = (scene.drawings || []).filter((d) => d.id !== drawing.id);
  list.push(drawing);
  list.sort((a, b) => a.id - b.id);
  scene.drawings = list;
  return true;
}

function dropDrawings(state, sceneId, ids) {
  const scene = state.scene;
  if (!scene || sceneId !== scene.id || !scene.drawings) return false;
  const gone = new Set(ids);
  scene.drawings = scene.drawings.filter((d) => !gone.has(d.id));
  return true;
}

/** The drawings of the scene the room holds (none without a scene). */
export const drawingsOf = (state) => state?.scene?.drawings || [];

/**
 * The drawings of a scene as the page read them (GET
 * /api/scenes/<id>/drawings/, after a scene change that did not carry
 * them). Those an event brought meanwhile, newer than any read, stay.
 * Returns the effects, as applyEvent does.
 */
export function setDrawings(state, sceneId, list) {
  if (!state.scene || state.scene.id !== sceneId) return [];
  const newest = Math.max(0, ...list.map((d) => d.id));
  const since = (state.scene.drawings || []).filter((d) => d.id > newest);
  state.scene.drawings = [...list, ...since].sort((a, b) => a.id - b.id);
  return [["drawings", drawingsOf(state)]];
}

/**
 * Apply one event (as this viewer received it) to `state` and return the
 * effects the page draws, each [name, ...arguments]. With `replay` (a
 * snapshot's log, whose table is already current) the state is left alone
 * and only the log's effects come back.
 */
export function applyEvent(state, received, { replay = false } = {}) {
  let event = received;
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
  // A token this viewer did not have: it may be a combatant the turn order left out.
  let newcomer = !replay && d.token?.id !== undefined && !(d.token.id in state.tokens);
  let sighted = false;
  if (event.type === "token.moved" && d.token && !("name" in d.token)) {
    // A slim move: a token that came into view by it arrives whole in the
    // sight change, which is applied first so the move has a token to move.
    if (d.sight && !replay) {
      applySight(state, d.sight, effects);
      sighted = true;
      if (d.token.id in state.tokens) newcomer = false;
    }
    const whole = movedToken(state, d.token);
    // The readers of the effects (the log, the trails) see the token
    // whole; the event as received stays as it was (the log holds it).
    if (whole) event = { ...event, data: { ...d, token: whole } };
  }
  const token = event.data?.token;
  switch (event.type) {
    case "token.moved":
      // Only where a token stands changed, not which tokens there are:
      // "tokenMoved", which the lists of tokens need not follow.
      if (!replay && token && "name" in token && upsert(state, token)) effects.push(["token", token], ["trail", event], ["tokenMoved", token]);
      else if (!replay) effects.push(["trail", event]);
      effects.push(["entry", "moved", event]);
      // A token coming into view by its move is a new one to the lists too.
      if (newcomer && token && token.id in state.tokens) effects.push(["sighted", [token.id]], ["tokensChanged"]);
      break;
    case "token.created":
    case "token.updated":
    case "token.revealed":
    case "token.hidden":
      if (upsert(state, d.token)) effects.push(["token", d.token]);
      if (newcomer && d.token.id in state.tokens) effects.push(["sighted", [d.token.id]]);
      effects.push(["tokensChanged"]);
      break;
    case "token.deleted":
    case "token.removed": {
      const id = event.type === "token.deleted" ? d.token.id : d.token_id;
      delete state.tokens[id];
      dropMarkers(state, id);
      effects.push(["untoken", id], ["tokensChanged"]);
      break;
    }
    case "scene.activated":
      // The event carries the new map and the tokens this viewer may see on
      // it: the map changes in place, the socket, log and tray stay.
      // A scene change that does not carry the new map's drawings holds
      // none until the page has read them (setDrawings).
      state.scene = d.scene && !("drawings" in d.scene) ? { ...d.scene, drawings: [] } : d.scene;
      state.tokens = {};
      // The new map's tokens bring their markers (entries logged before
      // they did bring none).
      state.markers = {};
      for (const token of tokensOf(d.tokens)) state.tokens[token.id] = heldToken(state, token); // a table since version 3
      // The new map's templates are not in the event: the page asks for them.
      state.templates = {};
      // The new map's vision follows in its own frame.
      if (state.vision?.scene !== d.scene?.id) state.vision = null;
      effects.push(
        ["system", `Scene: ${d.scene?.name || "a new map"}`, event.seq],
        ["scene", d.scene, Object.values(state.tokens), true],
        // null: the page asks for them.
        ["drawings", d.scene && "drawings" in d.scene ? drawingsOf(state) : null],
      );
      break;
    case "scene.updated":
      // The map the room is on changed (size, walls, background): redrawn
      // in place with the tokens already held.
      if (d.scene.id !== state.scene?.id) break;
      // The scene's drawings are not in its update: they stay.
      state.scene = "drawings" in state.scene && !("drawings" in d.scene) ? { ...d.scene, drawings: state.scene.drawings } : d.scene;
      effects.push(["scene", state.scene, Object.values(state.tokens), false]);
      // Fog lifted: nobody's view is limited any more (a new frame comes
      // when it is laid again).
      if (d.scene.fog === false && state.vision) {
        state.vision = null;
        effects.push(["vision", null]);
      }
      break;
    case "drawing.added":
    case "drawing.moved":
      if (!replay && keepDrawing(state, d.drawing)) effects.push(["drawing", d.drawing, d.stroke || ""]);
      break;
    case "drawing.removed":
      if (!replay && dropDrawings(state, d.scene, [d.id])) effects.push(["undrawing", [d.id]]);
      break;
    case "drawing.cleared":
      if (!replay && dropDrawings(state, d.scene, d.ids || [])) effects.push(["undrawing", [...(d.ids || [])]]);
      break;
    case "light.changed":
      // A light placed, changed or removed: the GM's editing mode redraws it
      // (what it lit reaches the players in their vision frames).
      effects.push(["light", d.light, d.action]);
      break;
    case "sight.changed":
      // Nothing this member may see happened, but tokens came into or
      // went out of their view.
      applySight(state, d, effects);
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
    case "handout.shared":
      // Handed to this member (or by them): the Handouts tab tells them.
      if (!replay) effects.push(["handout", d]);
      break;
    case "marker.added":
      // A marker this viewer received is on a token they see (the server
      // decided); held only while the token is.
      if (!replay && d.marker.token_id in state.tokens) {
        state.markers ??= {};
        state.markers[d.marker.id] = d.marker;
        effects.push(["markers", d.marker.token_id]);
      }
      break;
    case "marker.removed":
      if (!replay && state.markers && d.marker.id in state.markers) {
        delete state.markers[d.marker.id];
        effects.push(["markers", d.marker.token_id]);
      }
      break;
    case "template.placed":
      // One this viewer received (the server decided) on the map held.
      if (!replay && d.template.scene_id === state.scene?.id) {
        state.templates ??= {};
        state.templates[d.template.id] = d.template;
        effects.push(["templates"]);
      }
      break;
    case "template.removed":
      if (!replay && state.templates && d.template.id in state.templates) {
        delete state.templates[d.template.id];
        effects.push(["templates"]);
      }
      break;
    case "trails.cleared":
      if (d.scene_id === state.scene?.id) effects.push(["clearTrails"]);
      break;
    default:
      break;
  }
  if (d.sight && !replay && !sighted && event.type !== "sight.changed") applySight(state, d.sight, effects);
  if (ENTRY[event.type]) effects.push(["entry", ENTRY[event.type], event]);
  if (event.type === "encounter.initiative" && !replay) effects.push(["turns", d]);
  return effects;
}
