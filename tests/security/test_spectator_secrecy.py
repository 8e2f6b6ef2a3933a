"""A spectator receives only what the party sees, over every channel a
link opens (its snapshot, a reconnect's resync, a resync asked for, the
live frames): never a hidden token, a GM-only, blind or self roll's
result, a whisper, a GM's note, a GM-only marker, or a drawing on the GM's
layer, finished or still being drawn. A link opens no REST
door at all (tests/api/test_spectator_links.py)."""

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from tests.live.conftest import room  # noqa: F401  (the live tests' small campaign)
from tests.live.spectating import hang_up, make_link, watch
from vtt.tabletop import services

pytestmark = pytest.mark.django_db(transaction=True)

CHECK = {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2, "faces": [5, 3, 6]}
WHISPER = "SECRET-WHISPER-to-the-player"
NOTE = "SECRET-NOTE-the-butler"
MARK = "SECRET-MARK-cursed"
DRAWN = "SECRET-DRAWN-trap-here"
HIDDEN = "Zombie"  # the room's hidden token
SECRETS = (WHISPER, NOTE, MARK, DRAWN, HIDDEN)


def leaks(frames) -> list[str]:
    text = json.dumps(frames)
    found = [secret for secret in SECRETS if secret in text]
    # A roll's result: its successes, its outcome and its sentence.
    return found + [word for word in ('"successes"', '"sentence"', '"outcome"') if word in text]


@database_sync_to_async
def gm_note(table) -> None:
    gm = get_user_model().objects.get(pk=table.users["gm"])
    character = services.character_create(
        campaign_id=table.campaign_id, by=gm, name="Ilsa", owner_id=table.users["player"]
    )
    services.character_update(character_id=character.pk, by=gm, gm_notes=NOTE)


async def play_in_secret(table, gm, player) -> int:
    """The table's secrets, made while the spectator watches; the last seq."""
    await gm.ask({"type": "roll", "id": "g", "request": CHECK, "visibility": "gm"})
    for visibility in ("blind", "self"):
        await player.ask(
            {"type": "roll", "id": visibility, "request": CHECK, "visibility": visibility}
        )
    await gm.ask({"type": "chat", "id": "w", "text": f"/w player {WHISPER}"})
    zombie = table.tokens["zombie"]
    await gm.ask({"type": "token.move", "id": "m", "token": zombie, "x": 8, "y": 8})
    await gm.ask(
        {"type": "marker.add", "id": "k", "token": table.tokens["tenrec"], "icon": "skull",
         "label": MARK, "gm_only": True}
    )  # fmt: skip
    await gm_note(table)
    # A note on the GM's layer: its preview while written, then the drawing.
    note = {"scene": table.scene_id, "shape": "text", "layer": "gm", "color": "#000000",
            "width": 1, "points": [[1, 1]], "text": DRAWN}  # fmt: skip
    await gm.ask({"type": "drawing.stroke", "id": "s", "stroke": "s", **note})
    assert (await gm.ask({"type": "drawing.add", "id": "d", "stroke": "s", **note}))[
        "type"
    ] == "ack"
    # A public roll last: the spectator has seen everything before it once it has it.
    reply = await player.ask({"type": "roll", "id": "p", "request": CHECK, "visibility": "public"})
    assert reply["type"] == "ack"
    public = await player.until(
        lambda f: (
            f["type"] == "event"
            and f["event"]["type"] == "roll"
            and f["event"]["data"].get("visibility") == "public"
        )
    )
    return public["event"]["seq"]


async def until_seq(client, seq: int) -> list[dict]:
    await client.until(lambda f: f["type"] == "event" and f["event"]["seq"] >= seq)
    return client.seen


async def resync_pages(client, but: int) -> list[dict]:
    """The pages of a resync, but the event `but` (the public roll)."""
    pages = []
    while True:
        page = await client.until(lambda f: f["type"] == "resync")
        pages.append({**page, "events": [e for e in page["events"] if e["seq"] != but]})
        if not page["more"]:
            return pages


async def test_a_spectator_never_receives_what_the_party_does_not_see(room, clients):  # noqa: F811
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    _, token = await make_link(room)
    spectator = await watch(token)
    start = spectator.first["seq"]
    try:
        last = await play_in_secret(room, gm, player)
        # Live frames: every number comes, the secrets redacted.
        frames = await until_seq(spectator, last)
        assert leaks([f for f in frames if f.get("event", {}).get("seq") != last]) == []
        events = {f["event"]["seq"]: f["event"] for f in frames if f["type"] == "event"}
        assert set(events) >= set(range(start + 1, last + 1))
        for seq in range(start + 1, last):
            assert events[seq]["type"] in ("redacted", "character.created"), events[seq]

        # A resync the spectator asks for: the same.
        await spectator.send({"type": "resync", "id": "r", "since": start})
        assert leaks(await resync_pages(spectator, last)) == []

        # A reconnect from before the secrets, and a fresh snapshot.
        again = await watch(token, query=f"v=3&since={start}")
        assert again.first["type"] == "welcome"
        assert leaks([again.first, *await resync_pages(again, last)]) == []
        fresh = await watch(token)
        assert fresh.first["type"] == "snapshot"
        snapshot = {**fresh.first, "log": fresh.first["log"][:-1]}  # but the public roll
        assert leaks(snapshot) == []
        # The scan sees what it looks for: the GM's own snapshot carries them.
        assert set(leaks((await clients(room, "gm")).first)) >= {HIDDEN, MARK, DRAWN}
        await hang_up(again)
        await hang_up(fresh)
    finally:
        await hang_up(spectator)
