"""The map a scene is drawn on, as the GM makes it: a Universal VTT file
read and imported (walls joined, doors, lights, the picture), and the GM's
wall and door edits one segment at a time (docs/maps.md)."""
