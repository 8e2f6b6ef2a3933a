// A map that only shows (a session's replay, a spectator's page): nobody's
// token moves, no range bands, the markers held drawn in their words, and
// the chosen token's name in the status line.

import { Board } from "./board.js";
import { markerWords } from "./marker_badges.js";

/** `markersHeld()`: the markers as the page holds them, by id (../room/state.js). */
export function showingBoard(svgEl, { me, statusLine, markersHeld }) {
  const say = (text) => {
    statusLine.textContent = text;
  };
  return new Board(svgEl, {
    me,
    diagonal: "uniform",
    api: null,
    status: say,
    badge: () => null,
    markers: (token) =>
      Object.values(markersHeld() || {})
        .filter((m) => m.token_id === token.id)
        .sort((a, b) => a.id - b.id)
        .map((marker) => ({ marker, words: markerWords(marker) })),
    bandChoice: () => null,
    bandWeapon: () => null,
    onSelect: (token) => say(token ? token.name : ""),
  });
}
