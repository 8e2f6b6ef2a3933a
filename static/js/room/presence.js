// Who is online. A member with two tabs counts once (the server says so).

import { el } from "../lib/dom.js";

export class Presence {
  constructor(list) {
    this.list = list;
    this.users = new Map();
  }

  set(users) {
    this.users = new Map(users.map((u) => [u.id, u]));
    this.draw();
  }

  join(user) {
    this.users.set(user.id, user);
    this.draw();
  }

  leave(user) {
    this.users.delete(user.id);
    this.draw();
  }

  draw() {
    this.list.replaceChildren(
      ...[...this.users.values()].map((u) => el("li", { "data-user-id": u.id, text: u.name })),
    );
  }
}
