// The room page: wires the websocket to the map, the side panel's tabs
// (the tray and the attack, the log, the chat, the sheet, the GM's tools),
// the turn order, the list of who is online, and fog of war (the vision
// drawn on the map, doors, the GM's fog section).

import { RoomSocket } from "./socket.js";
import { RollLog, useDiceWords } from "./log.js";
import { Chat } from "./chat.js";
import { Presence } from "./presence.js";
import { Board } from "../map/board.js";
import { Tray } from "../tray/tray.js";
import { el } from "../lib/dom.js";
import { getJSON } from "../lib/api.js";
import { describeError } from "../lib/errors.js";
import { tabs } from "../lib/tabs.js";
import { SidePanel } from "./layout.js";
import { foldable } from "./menus.js";
import { SheetPanel } from "./sheet_panel.js";
import { Roster } from "./roster.js";
import { useGameWords } from "./words.js";
import { CombatLog } from "./combat_log.js";
import { Decisions } from "./decisions.js";
import { AttackPanel } from "./attack.js";
import { TurnOrder } from "./turns.js";
import { Placing } from "./placing.js";
import { TokenDialog } from "./token_dialog.js";
import { TokenTools } from "./token_tools.js";
import { DoorControl } from "./door_control.js";
import { FogPanel } from "./fog_panel.js";
import { WallEdit } from "./wall_edit.js";
import { MapEdit } from "./map_edit.js";
import { LightEdit } from "./light_edit.js";
import { Vision } from "./vision.js";
import { May } from "./may.js";
import { Pings } from "./pings.js";
import { Handouts } from "./handouts.js";
import { Markers } from "./markers.js";
import { Drawing } from "./drawing.js";
import { Templates } from "./templates.js";
import { applyEvent, applyVision, clearVision, drawingsOf, fromSnapshot, setDrawings } from "./state.js";

const config = JSON.parse(document.getElementById("room-config").textContent);
const spec = JSON.parse(document.getElementById("tray-spec").textContent);
useGameWords(spec);
useDiceWords(spec);
// What this member may do, as the server decided it (./may.js).
const may = new May(config);
const $ = (id) => document.getElementById(id);

// The wound track as the kit declares it (its states, how they are read, its words).
const roster = new Roster(config.characters, config.settings, spec.wound_track, spec.weapon_change);
const combatApi = config.api.combat;
const conn = $("conn");
const mapStatus = $("map-status");
const bandSelect = $("band-range");
const rulerButton = $("tool-ruler");

const STATE_WORDS = {
  connecting: "Connecting…",
  open: "Live",
  offline: "Offline: reconnecting…",
  resyncing: "Catching up…",
  closed: "Disconnected",
};
const CLOSE_WORDS = {
  4401: "Logged out: log in again.",
  4403: "You are not a member of this campaign, or it no longer exists.",
  4406: "The page is out of date: reload it.",
};

// What the map says floats over it for a while, then clears (a live
// region has announced it by then); a refusal stays longer.
const STATUS_MS = 6000;
const REFUSED_MS = 12000;
let statusTimer = null;

function status(text, refused = false) {
  mapStatus.textContent = text;
  mapStatus.classList.toggle("refused", refused);
  clearTimeout(statusTimer);
  if (text) statusTimer = setTimeout(() => status(""), refused ? REFUSED_MS : STATUS_MS);
}

// The room bar's connection state, and what waits to be sent again once
// a dropped socket is back (an intent sent while offline is refused).
let connWords = STATE_WORDS.connecting;
function showConn() {
  const waiting = Number(conn.dataset.waiting || 0);
  const more = waiting ? ` ${waiting} waiting to send.` : "";
  conn.textContent = `${connWords}${more}`;
}

const badge = (token) => roster.badge(token.character_id);

// The "Range bands" choice: off, unarmed, a weapon of the selected token's
// character, or a missile with no listed range (the rules' 30 / 100 ft).
function bandChoice() {
  const value = bandSelect.value;
  if (value === "") return null;
  if (value === "unarmed") return {};
  if (value === "unlisted") return { kind: "missile" };
  return { weapon: value.slice(2) };
}

function bandWeapon() {
  const value = bandSelect.value;
  if (value === "unarmed") return { kind: "melee", range_ft: null };
  if (value === "unlisted" || value === "") return { kind: "missile", range_ft: null };
  const token = board.tokens.get(board.selected);
  const weapons = roster.get(token?.character_id)?.weapons || [];
  return weapons.find((w) => w.name === value.slice(2)) || null;
}

function fillBands(token) {
  const keep = bandSelect.value;
  bandSelect.replaceChildren(
    el("option", { value: "", text: "Off" }),
    el("option", { value: "unarmed", text: "Unarmed (adjacent)" }),
    el("option", { value: "unlisted", text: "No listed range (30 / 100 ft)" }),
  );
  const weapons = roster.get(token?.character_id)?.weapons || [];
  for (const w of weapons) {
    const reach = w.range_ft === "line_of_sight" ? "line of sight" : typeof w.range_ft === "number" ? `${w.range_ft} ft` : null;
    bandSelect.append(el("option", { value: `w:${w.name}`, text: `${w.name} (${[w.kind, reach].filter(Boolean).join(", ")})` }));
  }
  if ([...bandSelect.options].some((o) => o.value === keep)) bandSelect.value = keep;
}

const board = new Board($("map"), {
  me: config.me,
  may,
  diagonal: config.settings?.diagonal || "uniform",
  api: combatApi,
  status,
  badge,
  markers: (token) => markers.of(token),
  bandChoice,
  bandWeapon,
  onMove: (token, x, y) => socket.send({ type: "token.move", token: token.id, x, y, version: token.version }),
  onDrag: (token, x, y) => socket.post({ type: "token.drag", token: token.id, x, y }),
  onPing: may.pings ? (x, y, pull) => pings.send(x, y, pull) : null,
  onSelect: (token) => {
    fillBands(token);
    board.bands.refresh();
    gmButtons(token);
    attack.selected(token);
    if (token) status(`${token.name} selected${bandSelect.value ? "" : ": pick a range to see its bands"}.`);
    else status(""); // nothing selected, or the selected token left this viewer's map
  },
  onSelectedChange: (token) => gmButtons(token),
  toggleRuler: () => toggleRuler(),
  onMenu: may.runsTable ? (token, point) => tools.openMenu(token, point) : null,
  onEdit: may.runsTable ? (token) => tools.edit(token) : null,
  onDragAt: (token, square) => vision.dragAt(token, square),
  onDoor: (door, action) => (action === "lock" ? doors.lock(door) : doors.use(door)),
  onDoorMenu: may.runsTable ? (door, point) => doors.openMenu(door, point) : null,
});
const vision = new Vision({ board, previews: may.runsTable });

function gmButtons(token) {
  $("token-reset").disabled = !token || !board.canMove(token);
  $("token-markers").disabled = !token;
  if (!may.runsTable) return;
  $("token-edit").disabled = !token;
  $("token-hide").disabled = !token;
  $("token-delete").disabled = !token;
  $("token-hide").querySelector("[data-verb]").textContent = token?.hidden ? "Reveal" : "Hide";
}

// One tool has the map's pointer at a time (board.use): the ruler's button
// shows whether it is the one, however it was switched.
function toggleRuler() {
  const on = board.tool !== board.ruler;
  board.use(on ? board.ruler : null);
  if (!on) status("");
}
board.events.addEventListener("tool", () => rulerButton.setAttribute("aria-pressed", String(board.tool === board.ruler)));

rulerButton.addEventListener("click", toggleRuler);
$("token-markers").addEventListener("click", () => {
  const token = board.tokens.get(board.selected);
  if (token) markers.open(token);
});
$("zoom-in").addEventListener("click", () => board.view.zoomAt(1.25));
$("zoom-out").addEventListener("click", () => board.view.zoomAt(0.8));
$("zoom-fit").addEventListener("click", () => board.view.fit());
for (const toggle of document.querySelectorAll("#room .menu-toggle")) foldable(toggle);
bandSelect.addEventListener("change", () => {
  board.bands.refresh();
  if (board.ruler.enabled) board.ruler.draw();
});
$("token-reset").addEventListener("click", () => {
  const token = board.tokens.get(board.selected);
  if (!token) return;
  const start = board.trails.start(token.id);
  socket
    .send({ type: "token.reset", token: token.id })
    .then(() => status(start ? `${token.name} is back where the turn began.` : `${token.name} has not moved this turn.`))
    .catch((e) => status(`Not reset: ${describeError(e)}`, true));
});

if (may.runsTable) {
  // "Undo last" first asks the server what it would put back, says so, and
  // asks; it then names that entry, so a result arriving meanwhile is safe.
  $("gm-undo").addEventListener("click", async () => {
    const what = $("gm-undo-what");
    const next = await getJSON(config.api.undo).catch(() => null);
    if (!next?.ok) {
      what.textContent = "Offline: try again in a moment.";
      return;
    }
    if (next.data.seq === null) {
      what.textContent = "Nothing left to undo.";
      return;
    }
    what.textContent = `Last result: ${next.data.summary} (#${next.data.seq}).`;
    if (!window.confirm(`Undo ${next.data.summary}?`)) return;
    socket
      .send({ type: "undo", seq: next.data.seq })
      .then((ack) => {
        what.textContent = `Undone: ${next.data.summary}.`;
        status(`Undone: ${next.data.summary} (#${ack.undo_of}).`);
      })
      .catch((e) => {
        what.textContent = e.code === "not_last" ? "Something newer arrived: press again to see it." : `Not undone: ${describeError(e)}`;
      });
  });
  const selected = (act) => () => {
    const token = board.tokens.get(board.selected);
    if (token) act(token);
  };
  $("token-edit").addEventListener("click", selected((token) => tools.edit(token)));
  $("token-hide").addEventListener("click", selected((token) => tools.toggleHidden(token)));
  $("token-delete").addEventListener("click", selected((token) => tools.remove(token)));
}

const log = new RollLog($("log"), {
  me: config.me,
  reroll: spec.reroll,
  onReroll: (roll, replace) => {
    const intent = {
      type: "roll",
      visibility: roll.visibility,
      request: { system: config.campaign.game, action: spec.reroll.action, check: roll.result, replace },
    };
    if (roll.character) intent.character = roll.character.id;
    socket.send(intent).catch((e) => status(`No reroll: ${e.message || e.code}`, true));
  },
  onReveal: may.runsTable ? (seq) => socket.send({ type: "reveal", seq }) : null,
  sessionPage: (number) => `${config.pages.sessions}${number}/`,
  jump: $("log-new"),
});
const presence = new Presence($("online"));

// How many watch through a spectator link: a count in the room bar, no names.
function watchers(count) {
  const shown = $("watchers");
  shown.hidden = !count;
  shown.textContent = count === 1 ? "1 spectator" : `${count} spectators`;
  shown.dataset.count = String(count || 0);
}
let chat;

function applyScene(scene) {
  $("map-empty").hidden = !!scene;
  if (board.scene?.id !== scene?.id) board.ping.pulses.clear();
  board.setScene(scene);
  vision.sceneChanged();
  fogPanel?.sceneChanged(scene);
  mapEdit?.sceneChanged(scene);
  lightEdit?.sceneChanged(scene);
}

async function loadTrails() {
  const scene = board.scene;
  if (!scene) return;
  try {
    const answer = await getJSON(`${combatApi}scenes/${scene.id}/trails/`);
    if (answer.ok && board.scene?.id === scene.id) board.trails.set(answer.data.trails);
  } catch {
    // offline: the trails come back with the next snapshot
  }
}

function rosterChanged() {
  board.redrawAll();
  turns.draw();
  sheet.fill();
  sheet.draw();
  placing.draw();
}

function tokensChanged() {
  attack.tokensChanged();
  templates.tokensChanged();
  turns.draw();
  placing.draw();
}

// A move: the token is redrawn alone (board.upsert); of the lists, only the
// attack's targets (their distances) follow it, and only when in sight.
function tokenMoved() {
  attack.tokensChanged();
  templates.tokensChanged();
}

let room = null; // the room as received (./state.js); the board draws its tokens

// What the page does for each effect of an event (./state.js decides them).
const ENTRIES = {
  roll: (event) => {
    log.add(event);
    if (event.data?.chat) chat.roll(event); // typed in the chat: shown there too
  },
  chat: (event) => chat.add(event),
  // every other view is a log entry
  moved: (event) => combatLog.moved(event),
  attack: (event) => combatLog.attack(event),
  damage: (event) => combatLog.damage(event),
  declined: (event) => combatLog.declined(event),
  repaired: (event) => combatLog.repaired(event),
  undo: (event) => combatLog.undo(event),
  reveal: (event) => combatLog.reveal(event),
  initiative: (event) => combatLog.initiative(event),
  session: (event) => log.session(event),
};
const EFFECTS = {
  token: (token) => {
    board.upsert(token);
    lightEdit?.tokenChanged(token);
  },
  untoken: (id) => board.remove(id),
  trail: (event) => {
    if (!board.trails.moved(event.seq, event.data)) loadTrails();
  },
  tokensChanged,
  tokenMoved,
  system: (text, seq) => chat.system(text, seq),
  // A new or changed map, drawn in place; a new one also brings its turn
  // order and trails.
  scene: (scene, tokens, switched) => {
    applyScene(scene);
    board.setTokens(tokens);
    tokensChanged();
    if (!switched) return;
    turns.load(scene?.id ?? null, combatApi);
    loadTrails();
    markers.arrived(); // the new map's tokens brought their markers
    templates.load();
  },
  character: (character, replay) => {
    if (!character) return;
    roster.update(character);
    rosterChanged();
    if (!replay) attack.fillWeapons();
  },
  entry: (view, event, replay) => {
    ENTRIES[view](event);
    if (replay) return;
    panel.arrived(view === "chat" ? "panel-chat" : "panel-log");
    if (view === "roll" && event.data?.chat) panel.arrived("panel-chat");
  },
  turns: (data) => turns.event(data),
  sighted: (ids) => {
    turns.sighted(ids);
    markers.arrived(); // tokens come into view with the markers they carry
  },
  markers: (tokenId) => markers.changed(tokenId),
  templates: () => {
    templates.changed();
    attack.tokensChanged(); // its targets list the templates too
  },
  settings: (settings) => {
    may.settingsChanged(settings);
    placing.setSettings(settings);
    fogPanel?.setSettings(settings);
    drawing.settingsChanged();
  },
  vision: (seen) => vision.set(seen),
  light: (light, action) => lightEdit?.changed(light, action),
  clearTrails: () => board.trails.clearAll(),
  handout: (data) => handouts.arrived(data),
  // null: a new map whose drawings the page reads (./drawing.js, load).
  drawings: (list) => {
    if (list) drawing.set(list);
    else drawing.load().then((read) => read && room && draw(setDrawings(room, read.scene, read.drawings)));
  },
  drawing: (one, stroke) => drawing.changed(one, stroke),
  undrawing: (ids) => ids.forEach((id) => drawing.gone(id)),
};

function onEvent(event, replay = false) {
  if (!replay) decisions.event(event);
  for (const [name, ...args] of applyEvent(room, event, { replay })) {
    if (name === "entry") EFFECTS.entry(...args, replay);
    else EFFECTS[name](...args);
  }
}

function draw(effects) {
  for (const [name, ...args] of effects) EFFECTS[name](...args);
}

const socket = new RoomSocket(config.socket, {
  onSnapshot(frame) {
    room = fromSnapshot(frame);
    applyScene(frame.scene);
    board.setTokens(Object.values(room.tokens));
    templates.changed();
    drawing.set(drawingsOf(room));
    vision.set(room.vision);
    presence.set(frame.online || []);
    watchers(frame.spectators || 0);
    log.clear();
    combatLog.clear();
    chat.clear();
    for (const event of frame.log || []) onEvent(event, true);
    decisions.set(frame.decisions, false);
    tokensChanged();
    turns.load(frame.scene?.id ?? null, combatApi);
    loadTrails();
  },
  onWelcome(frame) {
    presence.set(frame.online || []);
    watchers(frame.spectators || 0);
    decisions.refresh(); // what changed while away comes with the pages
  },
  onEvent: (event) => onEvent(event),
  onVision: (frame) => {
    if (room) draw(applyVision(room, frame));
  },
  onPresence(frame) {
    if (frame.state === "spectators") watchers(frame.count);
    else if (frame.state === "join") presence.join(frame.user);
    else if (frame.state === "online") presence.set(frame.online);
    else presence.leave(frame.user);
  },
  onDrag: (frame) => board.ghosts.showDrag(frame),
  onPing: (frame) => pings.arrived(frame),
  onStroke: (frame) => drawing.arrived(frame),
  onState(state, code) {
    // A new socket (after a snapshot or a reconnect's catching up) forgets
    // whose view the GM was seeing: ask for it again.
    if (state === "open" && conn.dataset.state !== "open") fogPanel?.resume();
    conn.dataset.state = state;
    connWords = CLOSE_WORDS[code] || STATE_WORDS[state] || state;
    showConn();
    if (code === 4401) window.location.assign(`/accounts/login/?next=${encodeURIComponent(location.pathname)}`);
  },
  onWaiting(count) {
    conn.dataset.waiting = count;
    showConn();
  },
  onError(frame) {
    status(`The server said: ${frame.message || frame.code}`, true);
  },
});
const combatLog = new CombatLog(log, { me: config.me, may, roster, socket, onChanged: rosterChanged, game: spec });
const decisions = new Decisions($("decisions-button"), { socket, may, reaction: spec.reaction, onChange: (list) => combatLog.pending(list) });
const attack = new AttackPanel($("attack"), {
  config,
  may,
  spec,
  socket,
  board,
  roster,
  templates: () => Object.values(room?.templates || {}),
});
const markers = new Markers({ config, spec, may, socket, board, status, room: () => room });
const templates = new Templates({ config, may, socket, board, status, room: () => room });
const turns = new TurnOrder($("turns"), { config, may, socket, board, roster, turnActions: spec.turn_actions });
const rollMode = tabs(document.querySelector(".mode-switch"), (panel) => {
  if (panel === "attack") attack.shown();
});
const panel = new SidePanel($("room"), {
  onShow: (shown) => {
    if (shown === "panel-sheet") sheet.draw();
    if (shown === "panel-roll") attack.shown();
    if (shown === "panel-handouts") handouts.shown();
  },
});
const handouts = new Handouts($("panel-handouts"), { config, may, tab: $("tab-handouts"), onOpen: () => panel.show("panel-handouts") });
handouts.load();
chat = new Chat($("chat-log"), $("chat-form"), socket, {
  me: config.me,
  may,
  jump: $("chat-new"),
  character: () => tray.characterId(),
});
const sheet = new SheetPanel($("panel-sheet"), {
  config,
  may,
  spec,
  roster,
  onRoll: (characterId, entry) => {
    rollMode.show("tray");
    panel.show("panel-roll");
    if (tray.useEntry(characterId, entry)) $("tray-roll").focus();
  },
});
const tray = new Tray($("tray"), {
  spec,
  config,
  may,
  socket,
  character: (id) => roster.get(id),
  onCharacter: (id) => sheet.choose(id),
  conditionsOf: (id) => markers.conditionsOf(id),
});
markers.onChange = () => tray.oddsSoon();
sheet.onChoose = (id) => tray.setCharacter(id);
const placing = new Placing($("place"), { may, roster, board, socket, status });
// Drawing on the map: the Draw button, its bar and tool, the drawings shown.
const drawing = new Drawing({ board, socket, may, me: config.me, status, api: config.api.scene });
const pings = new Pings({ board, socket, status, me: config.me, may, tools: $("ping-tools"), pingButton: $("tool-ping"), pullButton: $("tool-pull") });
placing.draw();
const fogPanel = may.runsTable
  ? new FogPanel({ config, socket, board, status, onStopPreview: () => room && draw(clearVision(room)) })
  : null;
const wallEdit = may.runsTable ? new WallEdit({ board, socket, config, status, onDraw: (state) => mapEdit.drawn(state) }) : null;
const tools = may.runsTable
  ? new TokenTools({
      board,
      socket,
      status,
      dialog: new TokenDialog($("token-dialog"), { config, socket, roster, board, status }),
      menuHost: $("map-wrap"),
    })
  : null;
// Doors share the tokens' menu: one menu on the map at a time.
const doors = new DoorControl({ board, socket, status, may, menu: tools?.menu || null });
// The GM's lights: the Light tool's, and every light's lit area on the map.
const lightEdit = may.runsTable
  ? new LightEdit({
      board,
      socket,
      config,
      status,
      onDraw: () => mapEdit?.current() === "light" && mapEdit.showSelection(null),
      onLit: (areas) => vision.setWhole(areas),
    })
  : null;
// The GM's editing mode on the map: walls, doors, lights and the fog's areas.
const mapEdit = may.runsTable ? new MapEdit({ board, walls: wallEdit, fog: fogPanel, doors, lights: lightEdit, status }) : null;
sheet.choose(tray.characterId());
socket.connect();
window.d6room = { may, handouts, markers, templates, drawing, socket, decisions, board, pings, roster, turns, attack, panel, placing, tools, vision, doors, fogPanel, wallEdit, lightEdit, mapEdit, state: () => room }; // for the browser tests and the curious
