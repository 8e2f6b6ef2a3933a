// The room's websocket (docs/protocol.md): snapshot on a fresh connect,
// `?since=<last seq>` on a reconnect, a `resync` intent on a gap, and every
// event applied once (dedupe by seq). Intents carry an id; `send` returns a
// promise settled by the matching ack or error.

const RETRY_MS = [500, 1000, 2000, 4000, 8000];
const PING_MS = 20000;
const FINAL_CODES = new Set([4401, 4403, 4404, 4406]);

export class RoomSocket {
  constructor(path, handlers) {
    this.path = path;
    this.handlers = handlers; // onSnapshot, onEvent, onPresence, onDrag, onWelcome, onState, onOnline
    this.lastSeq = null; // null until the first snapshot
    this.pending = new Map();
    this.nextId = 1;
    this.attempt = 0;
    this.resyncing = false;
    this.buffer = [];
    this.stopped = false;
  }

  url(fresh) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const since = !fresh && this.lastSeq !== null ? `?since=${this.lastSeq}` : "";
    return `${scheme}://${location.host}${this.path}${since}`;
  }

  connect({ fresh = false } = {}) {
    this.stopped = false;
    this.state(this.lastSeq === null || fresh ? "connecting" : "resyncing");
    const ws = new WebSocket(this.url(fresh));
    this.ws = ws;
    if (fresh) this.lastSeq = null;
    // A reconnect gets a welcome and resync pages before live events.
    this.resyncing = this.lastSeq !== null;
    this.buffer = [];
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.ping = setInterval(() => this.send({ type: "ping" }).catch(() => {}), PING_MS);
    });
    ws.addEventListener("message", (message) => this.receive(message.data));
    ws.addEventListener("close", (event) => this.closed(ws, event));
  }

  /** Reconnect now (e.g. a new scene: the snapshot carries its tokens). */
  reconnect({ fresh = false } = {}) {
    const old = this.ws;
    this.ws = null;
    if (old) old.close(1000);
    this.connect({ fresh });
  }

  closed(ws, event) {
    clearInterval(this.ping);
    if (ws !== this.ws) return; // replaced on purpose
    for (const { reject } of this.pending.values()) {
      reject({ code: "disconnected", message: "the connection dropped; try again" });
    }
    this.pending.clear();
    if (FINAL_CODES.has(event.code) || this.stopped) {
      this.state("closed", event.code);
      return;
    }
    this.state("offline");
    const delay = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    this.attempt += 1;
    this.retry = setTimeout(() => this.connect(), delay);
  }

  state(name, code) {
    this.handlers.onState?.(name, code);
  }

  send(intent) {
    const id = intent.id ?? `c${this.nextId++}`;
    const frame = { ...intent, id };
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject({ code: "offline", message: "not connected; waiting to reconnect" });
        return;
      }
      this.pending.set(id, { resolve, reject });
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
        this.handlers.onSnapshot?.(frame);
        this.state("open");
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
      case "presence":
        this.handlers.onPresence?.(frame);
        break;
      case "token.drag":
        this.handlers.onDrag?.(frame);
        break;
      case "ack":
      case "pong":
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
    const buffered = this.buffer.sort((a, b) => a.seq - b.seq);
    this.buffer = [];
    for (const event of buffered) this.live(event);
    this.state("open");
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
