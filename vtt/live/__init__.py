"""Live rooms over websockets: one room per campaign (docs/protocol.md,
docs/realtime.md)."""
