// A play session replayed on the map (docs/replay.md). The server sends the
// log from the scene change the session's map comes from to the session's
// end, every event as this viewer received it (the visibility policy's
// render, as in the live room). The events before the session's start are
// folded silently into the map it started on, with the room's own model
// (../room/state.js); the session's events then play on a timeline. Going
// back folds again from that start: the model only goes forward.
//
// On a fog scene the fog is drawn as the viewer had it, worked out here
// from the tokens and walls the replay holds (./fog.js): the view at each
// step, the explored area since the replay's first event.

import { showingBoard } from "../map/showing_board.js";
import { el, clear } from "../lib/dom.js";
import { getJSON } from "../lib/api.js";
import { timeOf } from "../room/words.js";
import { applyEvent, fromSnapshot } from "../room/state.js";
import { Vision } from "../room/vision.js";
import { TemplateLayer } from "../map/template_layer.js";
import { FogMemory } from "./fog.js";
import { startIndex, waits } from "./timeline.js";
import { line } from "./words.js";

const config = JSON.parse(document.getElementById("replay-config").textContent);
const $ = (id) => document.getElementById(id);
const page = $("replay");
const play = $("replay-play");
const speed = $("replay-speed");
const scrub = $("replay-scrub");
const where = $("replay-at");
const logList = $("replay-log");
const mapStatus = $("map-status");

// Nobody's: a replay moves no token.
const board = showingBoard($("map"), { me: { id: 0 }, statusLine: mapStatus, markersHeld: () => room?.markers });


// The area templates placed during the replay, as the viewer saw them.
const templateLayer = new TemplateLayer(board, board.layers.templates);

// Fog of war as the live room draws it: the fog, and doors never seen hidden.
const vision = new Vision({ board, previews: false });

let data = null; // the server's answer, every page's events together
let base = null; // the room as the session started
let played = []; // the session's events
let pauses = [];
let room = null; // the room after `pos` of them
let memory = null; // the fog explored so far (./fog.js)
let baseMemory = null; // and as the session started
let pos = 0;
let timer = null;
let drawn = { scene: undefined, tokens: new Map() };

async function load() {
  const url = new URL(config.api, location.href);
  let answer = null;
  let settings; // the first page's: what the first event was rendered under
  const events = [];
  const rolls = [];
  for (;;) {
    const got = await getJSON(url.pathname + url.search);
    if (!got.ok) throw new Error(got.data?.error?.message || "the replay could not be read");
    answer = got.data;
    if (settings === undefined) settings = answer.settings;
    events.push(...answer.events);
    rolls.push(...answer.rolls);
    if (answer.next === null) break;
    url.searchParams.set("after", answer.next);
  }
  return { ...answer, settings, events, rolls };
}

/** The map the session started on: the events before its start, folded as a live client folds them. */
function startingRoom() {
  const first = startIndex(data.events, data.start);
  const state = fromSnapshot({ seq: (data.first || 1) - 1, campaign: data.campaign, scene: null, tokens: [], log: [] });
  memory = new FogMemory(data.sight, data.settings);
  for (const event of data.events.slice(0, first)) {
    applyEvent(state, event);
    memory.follow(state, event);
  }
  baseMemory = memory.save();
  played = data.events.slice(first);
  pauses = waits(played);
  return state;
}

function draw(fresh) {
  drawMap(fresh);
  templateLayer.set(Object.values(room.templates || {}));
}

function drawMap(fresh) {
  if (fresh || room.scene !== drawn.scene) {
    board.setScene(room.scene);
    $("map-empty").hidden = !!room.scene;
    board.setTokens(Object.values(room.tokens));
    drawn = { scene: room.scene, tokens: new Map(Object.values(room.tokens).map((t) => [t.id, t])), markers: JSON.stringify(room.markers || {}) };
    drawDrawings();
    return;
  }
  drawDrawings();
  const now = new Map(Object.values(room.tokens).map((t) => [t.id, t]));
  const marked = JSON.stringify(room.markers || {});
  if (marked !== drawn.markers) board.redrawAll(); // a marker put on or taken off
  drawn.markers = marked;
  for (const [id, token] of now) if (drawn.tokens.get(id) !== token) board.upsert(token);
  for (const id of drawn.tokens.keys()) if (!now.has(id)) board.remove(id);
  drawn.tokens = now;
}

// The map's drawings as the viewer held them then (the scene's `drawings`,
// which the drawing events keep: a new list at each change).
function drawDrawings() {
  const now = room.scene?.drawings || null;
  if (now === drawn.drawings) return;
  board.drawings.set(now || []);
  drawn.drawings = now;
}

function logEntry(event) {
  const text = line(event, room.tokens);
  if (text === null) return null;
  return el(
    "li",
    { "data-seq": event.seq, "data-type": event.type },
    timeOf(event.at) || "",
    " ",
    text,
  );
}

/** Show the session after its first `n` events. */
function seek(n) {
  n = Math.max(0, Math.min(played.length, n));
  const back = n < pos;
  if (back) {
    room = structuredClone(base);
    memory.restore(baseMemory);
    clear(logList);
    pos = 0;
  }
  for (; pos < n; pos += 1) {
    const event = played[pos];
    applyEvent(room, event);
    memory.follow(room, event);
    const entry = logEntry(event);
    if (entry) logList.prepend(entry);
  }
  draw(back);
  vision.set(memory.vision(room));
  scrub.value = String(pos);
  const last = played[pos - 1];
  const clock = last?.at ? ` · ${new Date(last.at).toLocaleTimeString([], { hour12: false })}` : "";
  where.textContent = `${pos} of ${played.length}${clock}`;
  page.dataset.pos = String(pos);
  page.dataset.seq = String(last ? last.seq : data.start - 1);
  for (const button of document.querySelectorAll("#replay-rolls button")) {
    button.setAttribute("aria-current", String(Number(button.dataset.seq) === last?.seq));
  }
}

function pause() {
  clearTimeout(timer);
  timer = null;
  play.textContent = "Play";
  page.dataset.state = "paused";
}

function step() {
  if (pos >= played.length) {
    pause();
    page.dataset.state = "ended";
    return;
  }
  seek(pos + 1);
  const next = pauses[pos] ?? 0;
  timer = setTimeout(step, next / Number(speed.value));
}

play.addEventListener("click", () => {
  if (timer !== null) return pause();
  if (pos >= played.length) seek(0);
  play.textContent = "Pause";
  page.dataset.state = "playing";
  timer = setTimeout(step, (pauses[pos] ?? 0) / Number(speed.value));
});
scrub.addEventListener("input", () => seek(Number(scrub.value)));
$("replay-as")?.addEventListener("change", (e) => e.target.form.submit());

function listRolls() {
  const list = $("replay-rolls");
  $("replay-no-rolls").hidden = data.rolls.length > 0;
  for (const roll of data.rolls) {
    const button = el("button", { type: "button", "data-seq": roll.seq, text: `Roll ${roll.roll}: ${roll.words}` });
    // Jump to just after the entry that showed it.
    button.addEventListener("click", () => {
      pause();
      seek(played.findIndex((event) => event.seq === roll.seq) + 1);
    });
    list.append(el("li", {}, button));
  }
}

load()
  .then((answer) => {
    data = answer;
    base = startingRoom();
    room = structuredClone(base);
    pos = 0;
    scrub.max = String(played.length);
    scrub.disabled = false;
    play.disabled = false;
    listRolls();
    seek(0);
    draw(true);
    vision.set(memory.vision(room));
    page.dataset.state = "ready";
  })
  .catch((error) => {
    page.dataset.state = "error";
    where.textContent = `The replay could not be loaded: ${error.message || error}`;
  });

window.d6replay = { board, vision, state: () => room, seek, position: () => pos, fog: () => memory }; // for the browser tests and the curious
