// When each event of a replay plays, from the times the log gave them:
// pure, so a test can run it without a page.
//
// The session's real pace is kept, with two bounds: a long idle stretch
// (a break, a rules argument) plays in IDLE_CAP_MS so the replay does not
// stall, and events logged in the same instant are still MIN_STEP_MS apart
// so each move can be seen. An event without a time (a redacted one: the
// viewer learnt only its number) plays with no wait at all.

export const IDLE_CAP_MS = 2000;
export const MIN_STEP_MS = 250;

/** The wait (ms, at 1x) before each event, in order. */
export function waits(events) {
  let last = null;
  return events.map((event) => {
    const at = event.at ? Date.parse(event.at) : NaN;
    if (Number.isNaN(at)) return 0;
    const wait = last === null ? 0 : Math.min(IDLE_CAP_MS, Math.max(MIN_STEP_MS, at - last));
    last = at;
    return wait;
  });
}

/** Where the first of the session's events sits: the events before it build the map it started on. */
export function startIndex(events, start) {
  const index = events.findIndex((event) => event.seq >= start);
  return index === -1 ? events.length : index;
}
