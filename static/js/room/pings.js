// Pings on the room page (docs/web.md, "Pings"): the map's ping tool
// (../map/tools/ping.js) asks to ping, this sends `map.ping` and shows the
// pulse once the server took it (in the colour it gives the member); a ping
// from someone else is shown as it arrives, and one that pulls (the GM's)
// pans this map to it. The toolbar's Ping and Pull view buttons arm the
// tool for the next press on the map; who sees them is the served `may`.

import { describeError } from "../lib/errors.js";

const where = (x, y) => `column ${Math.floor(x)}, row ${Math.floor(y)}`;

export class Pings {
  constructor({ board, socket, status, me, may, tools, pingButton, pullButton }) {
    Object.assign(this, { board, socket, status, me });
    if (tools) tools.hidden = !may.pings;
    const buttons = [
      [pingButton, may.pings, false],
      [pullButton, may.pullsView, true],
    ];
    for (const [button, offered, pull] of buttons) {
      if (!button) continue;
      button.hidden = !offered;
      button.addEventListener("click", () => {
        const tool = board.ping;
        if (tool.armed && tool.armed.pull === pull) tool.disarm();
        else tool.arm(pull);
        if (tool.armed) status(pull ? "Pull view: press the map where everyone should look." : "Ping: press the map where to ping.");
      });
    }
    board.events.addEventListener("ping-armed", (e) => {
      for (const [button, , pull] of buttons) button?.setAttribute("aria-pressed", String(e.detail?.pull === pull));
    });
  }

  /** Ask the server to ping (x, y) of the map shown; the pulse once it took it. */
  send(x, y, pull) {
    const scene = this.board.scene;
    if (!scene) return;
    this.socket
      .send({ type: "map.ping", x, y, scene: scene.id, pull })
      .then((ack) => {
        if (this.board.scene?.id !== ack.scene) return;
        this.board.ping.pulses.show({ x, y, by: { id: this.me.id, name: "You" }, color: ack.color, pull });
        this.status(`${pull ? "Everyone's view pulled to" : "Pinged"} ${where(x, y)}.`);
      })
      .catch((e) => this.status(`No ping: ${describeError(e)}`, true));
  }

  /** Someone else's ping (a `map.ping` frame). */
  arrived(frame) {
    const board = this.board;
    if (!board.scene || frame.scene !== board.scene.id) return;
    board.ping.pulses.show(frame);
    if (frame.pull) {
      board.view.centreOn(frame.x, frame.y);
      this.status(`${frame.by.name} pulled your view to ${where(frame.x, frame.y)}.`);
    } else {
      this.status(`${frame.by.name} pinged ${where(frame.x, frame.y)}.`);
    }
  }
}
