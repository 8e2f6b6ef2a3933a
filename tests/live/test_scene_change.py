"""Changing scenes. The `scene.activated` event carries the new map and the
tokens each member may see; it comes in log order with the events around
it, live or in the pages of a resync, and the socket stays open. A client
that applies the events it received to what it held ends up with what a
fresh snapshot shows."""

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from vtt.tabletop import services
from vtt.tabletop.serialize import moved_token, table_tokens

pytestmark = pytest.mark.django_db(transaction=True)

LURKER = "Lurker-behind-the-arras"  # hidden, on the hall: the GM's alone


@database_sync_to_async
def make_hall(room) -> dict:
    """A second scene with a hidden lurker, a statue and the player's own token."""
    gm = get_user_model().objects.get(pk=room.users["gm"])
    hall = services.scene_create(
        campaign_id=room.campaign_id, by=gm, name="Hall", width=10, height=8
    )

    def token(name, x, y, **extra):
        return services.token_create(scene_id=hall.pk, by=gm, name=name, x=x, y=y, **extra).pk

    return {
        "scene": hall.pk,
        "lurker": token(LURKER, 1, 1, hidden=True),
        "statue": token("Statue", 3, 3),
        "scout": token("Scout", 5, 5, controllers=[room.users["player"]]),
    }


@database_sync_to_async
def as_gm(room, action: str, **kwargs):
    gm = get_user_model().objects.get(pk=room.users["gm"])
    return getattr(services, action)(by=gm, **kwargs)


def table_of(frame: dict) -> dict:
    """The scene and tokens a snapshot gives (its scene's drawings are the
    snapshot's alone: a scene change carries none, docs/protocol.md)."""
    scene = frame["scene"] and {k: v for k, v in frame["scene"].items() if k != "drawings"}
    return {"scene": scene, "tokens": {t["id"]: t for t in frame["tokens"]}}


def apply(table: dict, event: dict) -> None:
    """What protocol.md tells a client to do with an event, for the map."""
    data = event.get("data") or {}
    kind = event["type"]
    if kind == "scene.activated":
        table["scene"] = data["scene"]
        table["tokens"] = {t["id"]: t for t in data["tokens"]}
    elif kind in ("token.deleted",):
        table["tokens"].pop(data["token"]["id"], None)
    elif kind == "token.removed":
        table["tokens"].pop(data["token_id"], None)
    elif kind.startswith("token."):
        held = table["tokens"].get(data["token"]["id"])
        token = moved_token(data["token"], held)  # a move carries what it changed
        if token is None:
            return
        on_map = table["scene"] and token["scene_id"] == table["scene"]["id"]
        if on_map and (held is None or held["version"] < token["version"]):
            table["tokens"][token["id"]] = token


async def events_through(client, last_seq: int) -> list[dict]:
    """Log entries from live events and resync pages, until `last_seq`."""
    got: list[dict] = []
    while not got or got[-1]["seq"] < last_seq:
        frame = await client.until(lambda f: f["type"] in ("event", "resync"))
        got += frame["events"] if frame["type"] == "resync" else [frame["event"]]
    return got


def frames_text(client) -> str:
    return json.dumps(client.seen + [client.first])


async def test_a_scene_change_reaches_each_member_with_their_tokens_in_log_order(room, clients):
    hall = await make_hall(room)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    observer = await clients(room, "observer")
    start = gm.first["seq"]
    held = {who: table_of(c.first) for who, c in (("gm", gm), ("player", player))}

    reply = await gm.ask({"type": "scene.activate", "id": "s", "scene": hall["scene"]})
    assert reply["type"] == "ack"
    # Straight after it: a move on the new map, the hidden lurker's move,
    # the player's own token moved by the player.
    assert (await gm.ask({"type": "token.move", "id": 1, "token": hall["statue"], "x": 4, "y": 3}))[
        "type"
    ] == "ack"
    assert (await gm.ask({"type": "token.move", "id": 2, "token": hall["lurker"], "x": 2, "y": 1}))[
        "type"
    ] == "ack"
    moved = await player.ask(
        {"type": "token.move", "id": 3, "token": hall["scout"], "x": 6, "y": 5}
    )
    assert moved["type"] == "ack", moved
    last = start + 4

    seen = {who: await events_through(c, last) for who, c in (("gm", gm), ("player", player))}
    seen["observer"] = await events_through(observer, last)
    for who, events in seen.items():
        assert [e["seq"] for e in events] == list(range(start + 1, last + 1)), who
        change = events[0]
        assert change["type"] == "scene.activated"
        assert change["data"]["scene"]["id"] == hall["scene"]
        names = {t["name"] for t in change["data"]["tokens"]}
        if who == "gm":
            assert names == {LURKER, "Statue", "Scout"}
            assert [e["type"] for e in events[1:]] == ["token.moved"] * 3
        else:
            assert names == {"Statue", "Scout"}
            assert [e["type"] for e in events[1:]] == ["token.moved", "redacted", "token.moved"]
            assert "players_view" not in change["data"]
    for client in (player, observer):
        assert LURKER not in frames_text(client)

    # Nothing reconnected: the same sockets answer, in step with the room.
    for client in (gm, player, observer):
        await client.send({"type": "ping", "id": "p"})
        pong = await client.until(lambda f: f["type"] == "pong")
        assert pong["seq"] == last
    # What each held, with the events applied, is what a fresh page gets.
    for who in ("gm", "player"):
        for event in seen[who]:
            apply(held[who], event)
        fresh = await clients(room, who)
        assert held[who] == table_of(fresh.first), who


async def test_a_member_who_missed_the_scene_change_catches_up_in_the_pages(room, clients):
    hall = await make_hall(room)
    player = await clients(room, "player")
    held = table_of(player.first)
    last = player.first["seq"]
    await player.close()

    # While the player is away: a move on the hall before the room goes there
    # (the GM's alone), the change, and moves on the new map.
    await as_gm(room, "token_move", token_id=hall["statue"], x=2, y=2)
    await as_gm(room, "scene_activate", scene_id=hall["scene"])
    await as_gm(room, "token_move", token_id=hall["lurker"], x=1, y=2)
    await as_gm(room, "token_move", token_id=hall["statue"], x=2, y=3)

    back = await clients(room, "player", query=f"since={last}")
    assert back.first["type"] == "welcome"
    events = await events_through(back, last + 4)
    assert [e["type"] for e in events] == [
        "redacted",
        "scene.activated",
        "redacted",
        "token.moved",
    ]
    # The change carries the statue where the GM's earlier move left it.
    statue = next(t for t in events[1]["data"]["tokens"] if t["id"] == hall["statue"])
    assert (statue["x"], statue["y"]) == (2, 2)
    assert LURKER not in frames_text(back)
    for event in events:
        apply(held, event)
    fresh = await clients(room, "player")
    assert held == table_of(fresh.first)
    # Live events follow on the same socket.
    await as_gm(room, "token_move", token_id=hall["statue"], x=3, y=3)
    assert (await back.event("token.moved"))["seq"] == last + 5


async def test_a_resync_intent_replays_the_scene_change(room, clients):
    hall = await make_hall(room)
    player = await clients(room, "player")
    start = player.first["seq"]
    await as_gm(room, "scene_activate", scene_id=hall["scene"])
    await player.event("scene.activated")
    await player.send({"type": "resync", "id": "y", "since": start})
    page = await player.until(lambda f: f["type"] == "resync")
    [change] = page["events"]
    assert change["type"] == "scene.activated"
    assert {t["name"] for t in change["data"]["tokens"]} == {"Statue", "Scout"}
    assert LURKER not in frames_text(player)


@pytest.mark.parametrize("rejoin", [False, True])
async def test_drag_previews_follow_the_new_map(room, clients, rejoin):
    """The socket's own table of tokens (what a member may drag) changes with
    the scene, live or through the pages of a reconnect."""
    hall = await make_hall(room)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    last = player.first["seq"]
    if rejoin:
        await player.close()
    await as_gm(room, "scene_activate", scene_id=hall["scene"])
    if rejoin:
        player = await clients(room, "player", query=f"since={last}")
        await events_through(player, last + 1)
    else:
        await player.event("scene.activated")
    await gm.event("scene.activated")

    await player.send({"type": "token.drag", "token": hall["scout"], "x": 7, "y": 5})
    drag = await gm.until(lambda f: f["type"] == "token.drag")
    assert (drag["token"], drag["x"]) == (hall["scout"], 7)
    # The old map's token is gone from the room, the lurker was never there.
    for token in (room.tokens["tenrec"], hall["lurker"]):
        await player.send({"type": "token.drag", "id": "d", "token": token, "x": 1, "y": 1})
        refused = await player.reply("d")
        assert refused["code"] == "not_found"
    assert LURKER not in frames_text(player)


async def test_protocol_3_gets_the_scene_change_as_a_table_and_older_pages_a_list(room, clients):
    """Version 3 reads the new map's tokens as a table (docs/protocol.md,
    "Tokens as a table"), live and in resync pages; a page of version 2 or
    1 still gets a list of the same tokens. A player's never holds the
    hidden lurker, whatever the version."""
    hall = await make_hall(room)
    everyone = {LURKER, "Statue", "Scout"}
    sockets = {
        (who, version): await clients(room, who, query=f"v={version}")
        for who in ("gm", "player")
        for version in (1, 2, 3)
    }
    start = sockets[("gm", 3)].first["seq"]
    await as_gm(room, "scene_activate", scene_id=hall["scene"])
    for (who, version), client in sockets.items():
        live = (await client.event("scene.activated"))["data"]
        await client.send({"type": "resync", "id": "y", "since": start})
        [paged] = (await client.until(lambda f: f["type"] == "resync"))["events"]
        for data in (live, paged["data"]):
            tokens = data["tokens"]
            if version == 3:
                assert set(tokens) == {"fields", "defaults", "rows"}
                tokens = table_tokens(tokens)
            else:
                assert isinstance(tokens, list)
            names = {t["name"] for t in tokens}
            assert names == (everyone if who == "gm" else everyone - {LURKER}), (who, version)
            assert "players_view" not in data
        if who == "player":
            assert LURKER not in frames_text(client)
    # A snapshot's log keeps the change's scene, not its tokens.
    fresh = await clients(room, "gm", query="v=3")
    changes = [e for e in fresh.first["log"] if e["type"] == "scene.activated"]
    assert changes[-1]["data"] == {"scene": live["scene"]}
    assert all(set(change["data"]) == {"scene"} for change in changes)
