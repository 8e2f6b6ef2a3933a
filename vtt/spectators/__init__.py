"""Spectator links: a GM's revocable, optionally expiring link that lets
anyone who holds it watch a room read-only, with the party's sight and an
optional delay (docs/web.md, "Spectators"; docs/security.md). Only a hash
of each link's token is stored; the room's side of a spectator's socket is
vtt.live.spectating."""
