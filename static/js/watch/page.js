// A spectator's page (docs/web.md, "Spectators"): the room watched through
// a GM's link, read-only. The link's socket sends what the party sees (the
// server decides it: a spectator's snapshot and events are an observer's
// of no user), perhaps some seconds late; this page draws the map, the
// fog, the log in plain lines and how many are watching. It sends nothing
// but pings and resyncs: there is no control here to send anything with.

import { showingBoard } from "../map/showing_board.js";
import { el } from "../lib/dom.js";
import { RoomSocket } from "../room/socket.js";
import { applyEvent, applyVision, fromSnapshot } from "../room/state.js";
import { Presence } from "../room/presence.js";
import { Vision } from "../room/vision.js";
import { timeOf } from "../room/words.js";
import { line } from "../replay/words.js";

const config = JSON.parse(document.getElementById("watch-config").textContent);
const $ = (id) => document.getElementById(id);
const page = $("watch");
const conn = $("conn");
const logList = $("watch-log");
const mapStatus = $("map-status");
const LOG_KEEP = 200; // lines on the page; older ones go

const STATE_WORDS = {
  connecting: config.delay_seconds ? `Delayed ${config.delay_seconds} s…` : "Connecting…",
  open: config.delay_seconds ? `Live, ${config.delay_seconds} s late` : "Live",
  offline: "Offline: reconnecting…",
  resyncing: "Catching up…",
  closed: "Closed",
};
const LINK_CLOSED = 4404;

let room = null; // the room as received (../room/state.js)

// No user's: a spectator moves no token.
const board = showingBoard($("map"), { me: config.me, statusLine: mapStatus, markersHeld: () => room?.markers });
const vision = new Vision({ board, previews: false });
const presence = new Presence($("online"));

$("zoom-in").addEventListener("click", () => board.view.zoomAt(1.25));
$("zoom-out").addEventListener("click", () => board.view.zoomAt(0.8));
$("zoom-fit").addEventListener("click", () => board.view.fit());

function watchers(count) {
  $("watchers").textContent = `${count} watching`;
  page.dataset.watchers = String(count);
}

function logEntry(event) {
  const text = line(event, room?.tokens || {});
  if (text === null) return;
  logList.prepend(el("li", { "data-seq": event.seq, "data-type": event.type }, timeOf(event.at) || "", " ", text));
  while (logList.children.length > LOG_KEEP) logList.lastElementChild.remove();
  $("watch-log-empty").hidden = true;
}

function showScene(scene) {
  $("map-empty").hidden = !!scene;
  if (!scene) $("map-empty").textContent = "No active scene yet.";
  board.setScene(scene);
  vision.sceneChanged();
}

// What the map does for each effect of an event (../room/state.js decides
// them); the rest (trails, turn order, sheets) is not on this page.
const EFFECTS = {
  token: (token) => board.upsert(token),
  untoken: (id) => board.remove(id),
  scene: (scene, tokens) => {
    showScene(scene);
    board.setTokens(tokens);
  },
  vision: (seen) => vision.set(seen),
  markers: () => board.redrawAll(),
  sighted: () => board.redrawAll(),
};

function draw(effects) {
  for (const [name, ...args] of effects) EFFECTS[name]?.(...args);
}

const socket = new RoomSocket(config.socket, {
  onSnapshot(frame) {
    room = fromSnapshot(frame);
    showScene(frame.scene);
    board.setTokens(Object.values(room.tokens));
    vision.set(room.vision);
    presence.set(frame.online || []);
    watchers(frame.spectators ?? 1);
    logList.replaceChildren();
    for (const event of frame.log || []) logEntry(event);
    page.dataset.seq = String(frame.seq);
  },
  onWelcome(frame) {
    presence.set(frame.online || []);
    watchers(frame.spectators ?? 1);
  },
  onEvent(event) {
    if (!room) return;
    draw(applyEvent(room, event));
    logEntry(event);
    page.dataset.seq = String(event.seq);
  },
  onVision(frame) {
    if (room) draw(applyVision(room, frame));
  },
  onPresence(frame) {
    if (frame.state === "spectators") watchers(frame.count);
    else if (frame.state === "join") presence.join(frame.user);
    else if (frame.state === "online") presence.set(frame.online);
    else presence.leave(frame.user);
  },
  onDrag: (frame) => board.ghosts.showDrag(frame),
  onPing: () => {},
  onState(state, code) {
    conn.dataset.state = state;
    page.dataset.state = code === LINK_CLOSED ? "closed" : state;
    conn.textContent = STATE_WORDS[state] || state;
    if (code === LINK_CLOSED) {
      // Revoked or expired: nothing of the room stays on the page.
      $("watch-closed").hidden = false;
      conn.textContent = "Link closed";
      board.setScene(null);
      logList.replaceChildren();
      presence.set([]);
    }
  },
});
socket.connect();

window.d6watch = { board, socket, state: () => room }; // for the browser tests and the curious
