"""Area templates on the map: a circle (burst), cone, line or square, sized
in squares on the 1" = 5' grid, placed by the GM or a player and kept until
removed, seen by everyone on its scene or by the GM alone
(`policy.sees_template`). Which squares and tokens one covers is
`geometry` (the browser's twin: static/js/map/template_shapes.js); combat's
area attack (vtt.combat.services.area_attacks) asks it for its targets.
docs/web.md, "Templates"; docs/protocol.md."""
