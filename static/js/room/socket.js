// The room's websocket (docs/protocol.md): snapshot on a fresh connect,
// `?since=<last seq>` on a reconnect, a `resync` intent on a gap, and every
// event applied once (dedupe by seq). Intents carry an id unique to this
// page; `send` returns a promise settled by the matching ack or error. An
// intent still unanswered when the socket drops is sent again, with the
// same id, once the new socket has caught up: the server answers a repeat
// with its first answer instead of acting twice.

import { withNonce } from "../lib/nonce.js";

const RETRY_MS = [500, 1000, 2000, 4000, 8000, 15000];
// The server closes a client that reconnects too fast with 4429: it waits
// at least this step of RETRY_MS.
const SLOW_DOWN_STEP = 3;
// A socket quiet this long gets a ping (one per quiet spell of this length:
// a busy table's events stand in for pongs and cost the server nothing).
const PING_AFTER_MS = 1000;
// Nothing at all heard this long: the connection is dead even if the
// browser has not noticed (a laptop lid, a lost Wi-Fi): show it and
// reconnect. With the check's step this is under 5 s from the last frame.
const DEAD_AFTER_MS = 4000;
const CHECK_MS = 500;
// A check this late means the page itself was asleep (a background tab,
// a suspended laptop): the quiet is not the server's, so it starts over
// with a ping rather than a verdict.
const ASLEEP_MS = 2500;
// 4404: a spectator link revoked or expired (docs/protocol.md).
const FINAL_CODES = new Set([4401, 4403, 4404, 4406]);
// The protocol this page speaks (2: a snapshot's tokens come as a table;
// 3: a scene change's too).
const PROTOCOL = 3;

// Ids must not repeat across reloads of the page, or a new intent would be
// taken for a repeat of an old one: a random prefix per page, then a count.
const PAGE_ID = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) =>
  b.toString(16).padStart(2, "0"),
).join("");

export class RoomSocket {
  constructor(path, handlers) {
    this.path = path;
    // onSnapshot, onEvent, onVision, onPresence, onDrag, onPing, onStroke (a
    // drawing being drawn), onWelcome, onState,
    // onOnline, onWaiting (how many intents wait for an answer while offline)
    this.handlers = handlers;
    this.lastSeq = null; // null until the first snapshot
    this.pending = new Map(); // id -> { frame, resolve, reject }
    this.resendDue = false; // the socket dropped with intents unanswered
    this.nextId = 1;
    this.attempt = 0;
    this.resyncing = false;
    this.buffer = [];
    this.heldVision = null; // the latest vision frame, held while catching up
    this.stopped = false;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const since = this.lastSeq !== null ? `&since=${this.lastSeq}` : "";
    return `${scheme}://${location.host}${this.path}?v=${PROTOCOL}${since}`;
  }

  connect() {
    this.stopped = false;
    this.state(this.lastSeq === null ? "connecting" : "resyncing");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    // A reconnect gets a welcome and resync pages before live events.
    this.resyncing = this.lastSeq !== null;
    this.buffer = [];
    this.heldVision = null;
    ws.addEventListener("open", () => {
      // The pause starts over only once this socket has caught up (its
      // snapshot or the end of its resync): one the server closes right
      // after opening still counts as a failed try.
      ws.heardAt = ws.pingedAt = ws.checkedAt = Date.now();
      ws.pinger = setInterval(() => this.heartbeat(ws), CHECK_MS);
    });
    ws.addEventListener("message", (message) => {
      ws.heardAt = Date.now(); // any frame shows the line is alive
      this.receive(message.data);
    });
    ws.addEventListener("close", (event) => this.closed(ws, event));
  }

  heartbeat(ws) {
    if (ws !== this.ws) return;
    const now = Date.now();
    if (now - ws.checkedAt > ASLEEP_MS) ws.heardAt = Math.max(ws.heardAt, now - PING_AFTER_MS);
    ws.checkedAt = now;
    const quiet = now - ws.heardAt;
    if (quiet >= DEAD_AFTER_MS) {
      this.dead(ws);
    } else if (quiet >= PING_AFTER_MS && now - ws.pingedAt >= PING_AFTER_MS) {
      ws.pingedAt = now;
      this.post({ type: "ping", id: this.newId() });
    }
  }

  /** Nothing heard in time: give up on this socket as if it had closed. */
  dead(ws) {
    if (ws !== this.ws) return;
    this.closed(ws, { code: 4000 });
    ws.close();
  }

  forget(ws) {
    clearInterval(ws.pinger);
  }

  closed(ws, event) {
    this.forget(ws);
    if (ws !== this.ws) return; // replaced on purpose, or given up on already
    this.ws = null;
    if (FINAL_CODES.has(event.code) || this.stopped) {
      for (const { reject } of this.pending.values()) {
        reject({ code: "disconnected", message: "the connection closed" });
      }
      this.pending.clear();
      this.resendDue = false;
      this.waiting();
      this.state("closed", event.code);
      return;
    }
    // Unanswered intents wait for the next socket (see resendPending), and
    // the page says so: nothing waits unseen.
    this.resendDue = this.pending.size > 0;
    this.state("offline");
    this.waiting();
    if (event.code === 4429) this.attempt = Math.max(this.attempt, SLOW_DOWN_STEP);
    const step = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    this.attempt += 1;
    // Jitter of half the step either way: a worker's clients, dropped
    // together, do not all come back in the same instant.
    const delay = step * (0.5 + Math.random());
    this.retry = setTimeout(() => this.connect(), delay);
  }

  /** Caught up on a new socket: send again what the old one left unanswered. */
  resendPending() {
    if (!this.resendDue) return;
    this.resendDue = false;
    for (const { frame } of this.pending.values()) this.post(frame);
    this.waiting();
  }

  /** Tell the page how many intents wait for an answer from a dropped socket. */
  waiting() {
    this.handlers.onWaiting?.(this.resendDue ? this.pending.size : 0);
  }

  newId() {
    return `${PAGE_ID}-${this.nextId++}`;
  }

  state(name, code) {
    this.handlers.onState?.(name, code);
  }

  send(intent) {
    const id = intent.id ?? this.newId();
    // Made once: a repeat of the intent after a reconnect carries the same nonce.
    const frame = withNonce({ ...intent, id });
    return new Promise((resolve, reject) => {
      // Refused, not queued: made while offline it might land long after
      // the person has moved on. The caller shows the refusal.
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject({ code: "offline", message: "offline, so it was not sent; try again once reconnected" });
        return;
      }
      this.pending.set(id, { frame, resolve, reject });
      this.ws.send(JSON.stringify(frame));
    });
  }

  /** Fire and forget (drag previews get no ack). */
  post(intent) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(intent));
  }

  receive(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    switch (frame.type) {
      case "snapshot":
        this.lastSeq = frame.seq;
        this.resyncing = false;
        this.buffer = [];
        this.heldVision = null; // the snapshot carries its own
        this.attempt = 0; // caught up: the next drop retries quickly again
        this.handlers.onSnapshot?.(frame);
        this.state("open");
        this.resendPending();
        break;
      case "welcome":
        this.handlers.onWelcome?.(frame);
        break;
      case "resync":
        for (const event of frame.events) this.apply(event);
        if (!frame.more) this.endResync();
        break;
      case "event":
        if (this.resyncing) this.buffer.push(frame.event);
        else this.live(frame.event);
        break;
      case "vision":
        // Not in the log and the latest wins; while catching up it waits
        // for the events before it (a scene change, say) to be applied.
        if (this.resyncing) this.heldVision = frame;
        else this.handlers.onVision?.(frame);
        break;
      case "presence":
        this.handlers.onPresence?.(frame);
        break;
      case "token.drag":
        this.handlers.onDrag?.(frame);
        break;
      case "map.ping":
        this.handlers.onPing?.(frame);
        break;
      case "drawing.stroke":
        this.handlers.onStroke?.(frame);
        break;
      case "pong":
        break;
      case "ack":
        this.settle(frame, true);
        break;
      case "error":
        this.settle(frame, false);
        break;
      default:
        break;
    }
  }

  endResync() {
    this.resyncing = false;
    this.attempt = 0;
    const buffered = this.buffer.sort((a, b) => a.seq - b.seq);
    this.buffer = [];
    for (const event of buffered) this.live(event);
    // Held on if the held events had a gap of their own (still catching up).
    if (this.heldVision && !this.resyncing) {
      const vision = this.heldVision;
      this.heldVision = null;
      this.handlers.onVision?.(vision);
    }
    this.state("open");
    this.resendPending();
  }

  live(event) {
    if (this.lastSeq !== null && event.seq > this.lastSeq + 1) {
      // A gap: something was lost. Ask for everything after what we have.
      this.resyncing = true;
      this.buffer.push(event);
      this.state("resyncing");
      this.post({ type: "resync", since: this.lastSeq });
      return;
    }
    this.apply(event);
  }

  apply(event) {
    if (this.lastSeq !== null && event.seq <= this.lastSeq) return; // seen already
    this.lastSeq = event.seq;
    this.handlers.onEvent?.(event);
  }

  settle(frame, ok) {
    const waiting = frame.id != null ? this.pending.get(frame.id) : null;
    if (!waiting) {
      if (!ok) this.handlers.onError?.(frame);
      return;
    }
    this.pending.delete(frame.id);
    if (ok) waiting.resolve(frame);
    else waiting.reject(frame);
  }
}
