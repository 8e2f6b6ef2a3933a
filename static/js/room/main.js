// The room page: wires the websocket to the map, the tray, the log, the
// chat and the list of who is online.

import { RoomSocket } from "./socket.js";
import { RollLog } from "./log.js";
import { Chat } from "./chat.js";
import { Presence } from "./presence.js";
import { Board } from "../map/board.js";
import { Tray } from "../tray/tray.js";
import { el } from "../lib/dom.js";

const config = JSON.parse(document.getElementById("room-config").textContent);
const spec = JSON.parse(document.getElementById("tray-spec").textContent);
const isGm = config.me.role === "gm";
const $ = (id) => document.getElementById(id);

const characters = new Map(config.characters.map((c) => [c.id, c]));
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
  4403: "You are not a member of this campaign.",
  4404: "This campaign no longer exists.",
  4406: "The page is out of date: reload it.",
};

function status(text, refused = false) {
  mapStatus.textContent = text;
  mapStatus.classList.toggle("refused", refused);
}

function badge(token) {
  const character = characters.get(token.character_id);
  const resources = character?.resources || {};
  const track = config.settings?.condition_track;
  if (resources.condition && track && resources.condition !== track[0]) return resources.condition;
  if (resources.wounds > 0) return `Wounds ${resources.wounds}`;
  return null;
}

function bandRange() {
  const value = bandSelect.value;
  if (value === "") return undefined;
  if (value === "default") return null;
  if (value === "los") return "line_of_sight";
  return Number(value);
}

function fillBands(token) {
  const keep = bandSelect.value;
  bandSelect.replaceChildren(
    el("option", { value: "", text: "Off" }),
    el("option", { value: "default", text: "No listed range (30 / 100 ft)" }),
  );
  const weapons = characters.get(token?.character_id)?.weapons || [];
  for (const w of weapons) {
    if (w.range_ft === "line_of_sight") {
      bandSelect.append(el("option", { value: "los", text: `${w.name} (line of sight)` }));
    } else if (typeof w.range_ft === "number") {
      bandSelect.append(el("option", { value: String(w.range_ft), text: `${w.name} (${w.range_ft} ft)` }));
    }
  }
  if ([...bandSelect.options].some((o) => o.value === keep)) bandSelect.value = keep;
}

const board = new Board($("map"), {
  me: config.me,
  isGm,
  diagonal: config.settings?.diagonal || "uniform",
  status,
  badge,
  bandRange,
  onMove: (token, x, y) => socket.send({ type: "token.move", token: token.id, x, y, version: token.version }),
  onDrag: (token, x, y) => socket.post({ type: "token.drag", token: token.id, x, y }),
  onSelect: (token) => {
    fillBands(token);
    board.refreshBands();
    gmButtons(token);
    if (token) status(`${token.name} selected${bandSelect.value ? "" : ": pick a range to see its bands"}.`);
  },
  onSelectedChange: (token) => gmButtons(token),
  toggleRuler: () => toggleRuler(),
});

function gmButtons(token) {
  if (!isGm) return;
  $("token-edit").disabled = !token;
  $("token-hide").disabled = !token;
  $("token-delete").disabled = !token;
  $("token-hide").textContent = token?.hidden ? "Reveal token" : "Hide token";
}

function toggleRuler() {
  const on = rulerButton.getAttribute("aria-pressed") !== "true";
  rulerButton.setAttribute("aria-pressed", String(on));
  board.ruler.setActive(on);
  if (!on) status("");
}

rulerButton.addEventListener("click", toggleRuler);
$("zoom-in").addEventListener("click", () => board.view.zoomAt(1.25));
$("zoom-out").addEventListener("click", () => board.view.zoomAt(0.8));
$("zoom-fit").addEventListener("click", () => board.view.fit());
bandSelect.addEventListener("change", () => {
  board.refreshBands();
  if (board.ruler.active) board.ruler.draw();
});

if (isGm) {
  const dialog = $("token-dialog");
  $("token-edit").addEventListener("click", () => {
    const token = board.tokens.get(board.selected);
    if (!token) return;
    $("token-name").value = token.name;
    $("token-color").value = token.color || "#888888";
    $("token-size").value = String(token.size || 1);
    $("token-dialog-error").textContent = "";
    dialog.dataset.token = token.id;
    dialog.showModal();
  });
  $("token-dialog-cancel").addEventListener("click", () => dialog.close());
  $("token-dialog-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const changes = {
      name: $("token-name").value.trim(),
      color: $("token-color").value,
      size: Number($("token-size").value),
    };
    socket
      .send({ type: "token.update", token: Number(dialog.dataset.token), changes })
      .then(() => dialog.close())
      .catch((error) => {
        $("token-dialog-error").textContent = `${error.field ? `${error.field}: ` : ""}${error.message || error.code}`;
      });
  });
  $("token-hide").addEventListener("click", () => {
    const token = board.tokens.get(board.selected);
    if (!token) return;
    socket
      .send({ type: "token.hide", token: token.id, hidden: !token.hidden })
      .catch((e) => status(`Not changed: ${e.message}`, true));
  });
  $("token-delete").addEventListener("click", () => {
    const token = board.tokens.get(board.selected);
    if (!token || !window.confirm(`Remove ${token.name} from the map?`)) return;
    socket.send({ type: "token.delete", token: token.id }).catch((e) => status(`Not removed: ${e.message}`, true));
  });
}

const log = new RollLog($("log"), {
  me: config.me,
  onReroll: (roll, replace) => {
    const intent = {
      type: "roll",
      visibility: roll.visibility,
      request: { system: "xerosum", action: "reroll", check: roll.result, replace },
    };
    if (roll.character) intent.character = roll.character.id;
    socket.send(intent).catch((e) => status(`No reroll: ${e.message || e.code}`, true));
  },
});
const presence = new Presence($("online"));
let chat;

function applyScene(scene) {
  $("map-empty").hidden = !!scene;
  board.setScene(scene);
}

// replay: an entry of a snapshot's log, which only feeds the log and the
// chat; the snapshot's scene and tokens are already the current state.
function onEvent(event, replay = false) {
  const d = event.data || {};
  if (replay && event.type !== "roll" && event.type !== "chat") return;
  switch (event.type) {
    case "roll":
      log.add(event);
      break;
    case "chat":
      chat.add(event);
      break;
    case "token.created":
    case "token.moved":
    case "token.updated":
    case "token.revealed":
    case "token.hidden":
      if (d.token) board.upsert(d.token);
      break;
    case "token.deleted":
      if (d.token) board.remove(d.token.id);
      break;
    case "token.removed":
      board.remove(d.token_id);
      break;
    case "scene.activated":
      // The snapshot of a fresh connection carries the new scene's tokens.
      chat.system(`Scene: ${d.scene?.name || "a new map"}`, event.seq);
      socket.reconnect({ fresh: true });
      break;
    case "character.updated":
      if (d.character) {
        const known = characters.get(d.character.id) || {};
        characters.set(d.character.id, { ...known, ...d.character, owner_id: d.character.owner?.id ?? known.owner_id });
        board.redrawAll();
      }
      break;
    case "member.joined":
      chat.system(`${d.user?.name || "someone"} joined as ${d.role}.`, event.seq);
      break;
    default:
      break;
  }
}

const socket = new RoomSocket(config.socket, {
  onSnapshot(frame) {
    applyScene(frame.scene);
    board.setTokens(frame.tokens || []);
    presence.set(frame.online || []);
    log.clear();
    chat.clear();
    for (const event of frame.log || []) onEvent(event, true);
  },
  onWelcome(frame) {
    presence.set(frame.online || []);
  },
  onEvent: (event) => onEvent(event),
  onPresence(frame) {
    if (frame.state === "join") presence.join(frame.user);
    else presence.leave(frame.user);
  },
  onDrag: (frame) => board.showDrag(frame),
  onState(state, code) {
    conn.dataset.state = state;
    conn.textContent = CLOSE_WORDS[code] || STATE_WORDS[state] || state;
    if (code === 4401) window.location.assign(`/accounts/login/?next=${encodeURIComponent(location.pathname)}`);
  },
  onError(frame) {
    status(`The server said: ${frame.message || frame.code}`, true);
  },
});
chat = new Chat($("chat-log"), $("chat-form"), socket);
new Tray($("tray"), { spec, config, socket, character: (id) => characters.get(id) });
socket.connect();
window.d6room = { socket, board }; // for the browser tests and the curious
