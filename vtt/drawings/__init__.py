"""Drawings on the map: freehand pen, line, arrow, rectangle, ellipse and
text, on the shared layer (seen as anything on the map is, fog included)
or the GMs' own. Each finished drawing is a row and a room event; a stroke
being drawn is relayed live and never stored (vtt.live.drawing_strokes).
Who may draw is policy's (`may_draw`, `may_change_drawing`); the bounds a
drawing keeps are `bounds.py`. docs/protocol.md, "Drawings"."""
