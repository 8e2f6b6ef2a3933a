"""A drawing on the GM layer, and a shared drawing under unexplored fog,
never reaches a player or an observer: not as a stroke's live preview, not
in the frames of its events, not in a snapshot, not in the pages of a
resync, not over REST, not in the session's replay or journal, not in the
room page, not in a campaign export (the GM's alone). The GM's own reads
carry them, so the scan is known to find them."""

import io
import json
import zipfile

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from tests.live.conftest import make_room
from vtt import dice
from vtt.drawings import services as drawings
from vtt.tabletop import services

pytestmark = pytest.mark.django_db(transaction=True)

GM_NOTE = "Trapdoor under the altar"  # the GM layer's
UNDER_FOG = "The hoard lies here"  # a shared note east of the wall, unseen
PREVIEW = "Sketching the secret vault"  # a GM-layer stroke's preview, never stored
NOT_GM = ("player", "other", "observer")
# A wall down x = 10 (make_room's map is 20 squares a side): the party,
# west of it, has seen nothing east of it.
WALL = [[10, 0, 10, 20]]
WEST, EAST = [[3, 8]], [[15, 8]]


def leaks(payload, secrets) -> list[str]:
    text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    return [s for s in secrets if s in text]


@pytest.fixture
def room(transactional_db):
    return make_room(prefix="dr-")


def _gm(room):
    return get_user_model().objects.get(pk=room.users["gm"])


def note(room, by, text, points, layer="shared"):
    return drawings.drawing_add(
        scene_id=room.scene_id, by=by, shape="text", layer=layer, color="#112233", width=1,
        points=points, text=text,
    )  # fmt: skip


@database_sync_to_async
def draw_in_secret(room) -> list[int]:
    """The GM's notes on the GM layer (one moved, one erased, then the
    layer cleared and one drawn again) and a shared note everyone sees:
    the secret ones' ids."""
    gm = _gm(room)
    kept = note(room, gm, GM_NOTE, WEST, "gm")
    drawings.drawing_move(drawing_id=kept.pk, by=gm, dx=1, dy=1)
    erased = note(room, gm, GM_NOTE + "!", WEST, "gm")
    drawings.drawing_remove(drawing_id=erased.pk, by=gm)
    note(room, gm, GM_NOTE + "?", WEST, "gm")
    drawings.drawing_clear(scene_id=room.scene_id, by=gm, layer="gm")
    again = note(room, gm, GM_NOTE, WEST, "gm")
    note(room, gm, "Everyone sees this", WEST)
    return [again.pk]


@database_sync_to_async
def reads(room, who: str) -> dict[str, str]:
    """Everything `who` reads of the campaign over HTTP, as text."""
    client = Client()
    client.force_login(get_user_model().objects.get(pk=room.users[who]))
    cid = room.campaign_id
    api = f"/api/campaigns/{cid}"
    replayed, after = [], ""
    while True:
        body = client.get(f"{api}/sessions/1/replay/{after}").json()
        replayed.extend(body["events"])
        if body["next"] is None:
            break
        after = f"?after={body['next']}"
    backup = client.get(f"/campaigns/{cid}/gm/backup/")
    export = ""
    if backup.status_code == 200:
        with zipfile.ZipFile(io.BytesIO(backup.content)) as archive:
            export = "".join(archive.read(n).decode("utf-8", "replace") for n in archive.namelist())
    return {
        "drawings": client.get(f"/api/scenes/{room.scene_id}/drawings/").content.decode(),
        "replay": json.dumps(replayed, ensure_ascii=False),
        "journal": client.get(f"{api}/sessions/1/journal/?format=md").content.decode(),
        "journal page": client.get(f"/campaigns/{cid}/sessions/1/journal/").content.decode(),
        "room page": client.get(f"/campaigns/{cid}/room/").content.decode(),
        "export": export,
        "export status": str(backup.status_code),
    }


@database_sync_to_async
def refused(room, who: str, drawing_id: int) -> str:
    """A member's attempts to move and erase a secret drawing: the codes."""
    user = get_user_model().objects.get(pk=room.users[who])
    codes = []
    for act in (
        lambda: drawings.drawing_move(drawing_id=drawing_id, by=user, dx=1, dy=0),
        lambda: drawings.drawing_remove(drawing_id=drawing_id, by=user),
    ):
        try:
            act()
            codes.append("done")
        except services.ServiceError as refusal:
            codes.append(refusal.code)
    return ",".join(codes)


async def everything_seen(room, clients, who: str, since: int, secrets) -> None:
    """A fresh snapshot, a resync's pages and the HTTP reads of `who` hold
    none of `secrets`."""
    fresh = await clients(room, who)
    assert leaks(fresh.first, secrets) == [], who
    resynced = await clients(room, who, query=f"since={since}")
    pages = [resynced.first]
    while True:
        page = await resynced.until(lambda f: f["type"] == "resync")
        pages.append(page)
        if not page["more"]:
            break
    assert leaks(pages, secrets) == [], who
    for name, text in (await reads(room, who)).items():
        assert leaks(text, secrets) == [], (who, name)


async def test_the_gm_layer_reaches_no_player_over_any_channel(room, clients):
    gm = await clients(room, "gm")
    gm_tab = await clients(room, "gm")
    watchers = {who: await clients(room, who) for who in NOT_GM}
    start = gm.first["seq"]
    # A stroke's preview on the GM layer: the GM's other tab sees it.
    await gm.ask(
        {"type": "drawing.stroke", "id": "s", "stroke": "v", "shape": "text", "layer": "gm",
         "color": "#000000", "width": 1, "points": WEST, "text": PREVIEW}
    )  # fmt: skip
    assert (await gm_tab.until(lambda f: f["type"] == "drawing.stroke"))["text"] == PREVIEW
    secret_ids = await draw_in_secret(room)
    while not any(
        f.get("event", {}).get("data", {}).get("drawing", {}).get("text") == "Everyone sees this"
        for f in gm.seen
    ):
        await gm.event("drawing.added")
    last = max(f["event"]["seq"] for f in gm.seen if f["type"] == "event")
    secrets = (GM_NOTE, PREVIEW)
    assert set(leaks(gm.seen, secrets)) == {GM_NOTE}
    for who, member in watchers.items():
        await member.until(lambda f, last=last: f.get("event", {}).get("seq") == last)
        member.seen.extend(await member.drain(0.2))
        assert leaks(member.seen, secrets) == [], who
        kinds = [f["event"]["type"] for f in member.seen if f["type"] == "event"]
        # Every number arrives; only the shared note is theirs.
        assert kinds.count("drawing.added") == 1 and "drawing.cleared" not in kinds, (who, kinds)
        assert not [f for f in member.seen if f["type"] == "drawing.stroke"], who
    for who in NOT_GM:
        await everything_seen(room, clients, who, start, secrets)
        assert (await reads(room, who))["export status"] == "404", who
        for drawing_id in secret_ids:
            assert await refused(room, who, drawing_id) == "not_found,not_found", who
    # An archive is made between sessions; the GM's reads carry the notes.
    await database_sync_to_async(dice.session_end)(
        campaign_id=room.campaign_id, by=await database_sync_to_async(_gm)(room)
    )
    mine = await reads(room, "gm")
    for name in ("drawings", "replay", "journal", "export"):
        assert GM_NOTE in mine[name], name
    assert "GM layer" in mine["journal"]
    assert GM_NOTE in json.dumps((await clients(room, "gm")).first["scene"]["drawings"])


@database_sync_to_async
def fog_down(room) -> None:
    gm = _gm(room)
    services.token_move(token_id=room.tokens["tenrec"], by=gm, x=2, y=8)
    services.scene_update(scene_id=room.scene_id, by=gm, walls=WALL, fog=True)


@database_sync_to_async
def draw_under_fog(room) -> int:
    """The GM's shared note east of the wall, moved there and erased; one
    left there; then a note west of it everyone sees."""
    gm = _gm(room)
    moved = note(room, gm, UNDER_FOG + "!", EAST)
    drawings.drawing_move(drawing_id=moved.pk, by=gm, dx=1, dy=1)
    drawings.drawing_remove(drawing_id=moved.pk, by=gm)
    kept = note(room, gm, UNDER_FOG, EAST)
    note(room, gm, "By the door", WEST)
    return kept.pk


async def test_a_drawing_under_fog_reaches_no_player_over_any_channel(room, clients):
    await fog_down(room)
    gm = await clients(room, "gm")
    gm_tab = await clients(room, "gm")
    watchers = {who: await clients(room, who) for who in NOT_GM}
    start = gm.first["seq"]
    # A preview of a stroke into the dark: the GMs alone.
    await gm.ask(
        {"type": "drawing.stroke", "id": "s", "stroke": "v", "shape": "text",
         "color": "#000000", "width": 1, "points": EAST, "text": PREVIEW}
    )  # fmt: skip
    assert (await gm_tab.until(lambda f: f["type"] == "drawing.stroke"))["text"] == PREVIEW
    hidden = await draw_under_fog(room)
    while not any(
        f.get("event", {}).get("data", {}).get("drawing", {}).get("text") == "By the door"
        for f in gm.seen
    ):
        await gm.event("drawing.added")
    last = max(f["event"]["seq"] for f in gm.seen if f["type"] == "event")
    secrets = (UNDER_FOG, PREVIEW)
    assert set(leaks(gm.seen, secrets)) == {UNDER_FOG}
    for who, member in watchers.items():
        await member.until(lambda f, last=last: f.get("event", {}).get("seq") == last)
        member.seen.extend(await member.drain(0.2))
        assert leaks(member.seen, secrets) == [], who
        kinds = [f["event"]["type"] for f in member.seen if f["type"] == "event"]
        assert kinds.count("drawing.added") == 1, (who, kinds)
        assert "drawing.moved" not in kinds and "drawing.removed" not in kinds, (who, kinds)
        assert not [f for f in member.seen if f["type"] == "drawing.stroke"], who
        fresh = await clients(room, who)
        assert [d["text"] for d in fresh.first["scene"]["drawings"]] == ["By the door"], who
    for who in NOT_GM:
        await everything_seen(room, clients, who, start, secrets)
    players_tries = await refused(room, "player", hidden)
    assert players_tries == "not_found,not_found"
    mine = await reads(room, "gm")
    for name in ("drawings", "replay", "journal"):
        assert UNDER_FOG in mine[name], name
