"""Fog of war: which tokens each sight group sees on a scene with fog, kept
in step with the room's log (vision), the room's sight kept in this process
(sight_cache), the views drawn after the moves (fog_drawing) and the GM's
edits of the fog (services). docs/vision.md."""
