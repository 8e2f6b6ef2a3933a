// The walls being edited, as the lines of their text (./wall_text.js):
// where that text lives is the page's (read() and write(): the GM page's
// text area, the room's scene), the changes and their Undo are kept here.
// A stretch of typing is one change Undo can take back, like a drawn one.

import { readLine, writeLine } from "./wall_text.js";
import { same, sameEnds } from "./wall_shapes.js";

const UNDO_STEPS = 200;

export class WallLines {
  constructor({ read, write, onHistory }) {
    this.read = read;
    this.write = write;
    this.onHistory = onHistory; // (canUndo): the Undo button follows
    this.history = []; // the text before each change
    this.written = read(); // the text as the editor last left it
    this.typing = false; // the text was typed in since
  }

  text() {
    return this.read();
  }

  lines() {
    return this.read().split("\n");
  }

  /** Every line that is a segment: {line, ends, kind}. */
  segments() {
    return this.lines()
      .map((line, i) => ({ line: i, ...readLine(line) }))
      .filter((s) => s.ends);
  }

  segmentAt(i) {
    return i >= 0 ? readLine(this.lines()[i] ?? "") : null;
  }

  remember(before) {
    this.history.push(before);
    if (this.history.length > UNDO_STEPS) this.history.shift();
    this.onHistory?.(true);
  }

  change(next) {
    if (next === this.read()) return;
    this.remember(this.read());
    this.write(next);
    this.written = next;
    this.typing = false;
  }

  /** A segment from corner a to corner b, unless it is there already. */
  add(a, b, kind) {
    if (same(a, b)) return;
    const ends = [...a, ...b];
    const twice = this.segments().some((s) => s.kind === kind && (sameEnds(s.ends, ends) || sameEnds(s.ends, [...b, ...a])));
    if (twice) return;
    const kept = this.read().trimEnd();
    this.change(`${kept}${kept ? "\n" : ""}${writeLine({ ends, kind })}`);
  }

  /** Line i replaced (null: taken out). */
  setLine(i, line) {
    const all = this.lines();
    if (line === null) all.splice(i, 1);
    else all[i] = line;
    this.change(all.join("\n"));
  }

  undo() {
    if (!this.history.length) return false;
    this.written = this.history.pop();
    this.write(this.written);
    this.typing = false;
    this.onHistory?.(this.history.length > 0);
    return true;
  }

  /** The text was typed in: the first key of a stretch is remembered. */
  typed() {
    if (this.typing) return;
    this.remember(this.written);
    this.typing = true;
  }

  /** The typing was taken (the text area's change). */
  settled() {
    this.written = this.read();
    this.typing = false;
  }
}
