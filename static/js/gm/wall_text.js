// The walls' text has one reader for the GM page and the map's wall
// editor: ../map/wall_text.js.
export * from "../map/wall_text.js";
