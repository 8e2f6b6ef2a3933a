// Range bands around a token, from the server
// (GET /api/combat/tokens/<id>/range-bands/): the same functions that
// measure an attack decide every square, so melee reach, big tokens and
// walls agree with the adjudicator. Adjacent, near and far are shaded; out
// of range is left clear. Runs of one band along a row are one rectangle.

import { svg, clear } from "../lib/dom.js";
import { getJSON } from "../lib/api.js";

const LETTER_CLASS = { a: "band-adjacent", n: "band-near", f: "band-far" };

/** The query for a band choice: {weapon}, {kind, range_ft} or {} (unarmed). */
export function bandsUrl(base, tokenId, choice) {
  const query = new URLSearchParams();
  if (choice.weapon) query.set("weapon", choice.weapon);
  if (choice.kind) query.set("kind", choice.kind);
  if (choice.range_ft !== undefined && choice.range_ft !== null) query.set("range_ft", String(choice.range_ft));
  const text = query.toString();
  return `${base}tokens/${tokenId}/range-bands/${text ? `?${text}` : ""}`;
}

export class Bands {
  constructor(layer, apiBase, onError) {
    this.layer = layer;
    this.apiBase = apiBase;
    this.onError = onError;
    this.turn = 0;
    this.shown = null; // {key, token_id, origin, size, bands, legend}
  }

  clear() {
    this.turn += 1;
    this.shown = null;
    clear(this.layer);
  }

  async show(token, choice) {
    if (!token || !choice) {
      this.clear();
      return;
    }
    const key = JSON.stringify([token.id, token.x, token.y, token.size, choice]);
    if (this.shown?.key === key) return;
    const turn = ++this.turn;
    let answer;
    try {
      answer = await getJSON(bandsUrl(this.apiBase, token.id, choice));
    } catch {
      answer = { ok: false, data: { error: { message: "offline" } } };
    }
    if (turn !== this.turn) return; // a newer choice or a move is on its way
    clear(this.layer);
    if (!answer.ok) {
      this.shown = null;
      this.onError?.(answer.data?.error || {});
      return;
    }
    this.shown = { key, ...answer.data };
    this.draw(answer.data.bands);
  }

  draw(rows) {
    rows.forEach((row, y) => {
      let x = 0;
      while (x < row.length) {
        const letter = row[x];
        let end = x + 1;
        while (end < row.length && row[end] === letter) end += 1;
        if (LETTER_CLASS[letter]) {
          this.layer.append(svg("rect", { class: LETTER_CLASS[letter], x, y, width: end - x, height: 1, "data-squares": end - x }));
        }
        x = end;
      }
    });
  }

  /** When `from` is on the banded token: the server's category of square
   *  `to` and the token's square nearest to it (distances are measured from
   *  there, as the attack measures them). Otherwise null. */
  measureFrom(from, to) {
    const s = this.shown;
    if (!s) return null;
    const [ox, oy] = s.origin;
    const last = s.size - 1;
    const inside = from[0] >= ox && from[0] <= ox + last && from[1] >= oy && from[1] <= oy + last;
    const letter = s.bands[to[1]]?.[to[0]];
    if (!inside || !letter) return null;
    const clamp = (v, lo) => Math.max(lo, Math.min(lo + last, v));
    return { category: s.legend[letter], nearest: [clamp(to[0], ox), clamp(to[1], oy)] };
  }
}
