"""A GM-only marker, and any marker on a hidden token, never reaches a
player or an observer: not in the frames of the live room as the GM adds
and removes them, not in a snapshot, not in the pages of a resync, not over
REST (the markers list, the tokens), not in the session's replay or
journal, not in the room page, not in a campaign export (the GM's alone).
The GM's own reads carry them, so the scan is known to find them."""

import io
import json
import zipfile

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from tests.live.conftest import make_room
from vtt import dice
from vtt.markers import services as markers
from vtt.tabletop import services

pytestmark = pytest.mark.django_db(transaction=True)

GM_ONLY = "Doomed by the prophecy"  # a GM-only marker on a token everyone sees
ON_HIDDEN = "Waiting in ambush"  # a marker on the hidden zombie
SECRETS = (GM_ONLY, ON_HIDDEN)
NOT_GM = ("player", "other", "observer")


def leaks(payload) -> list[str]:
    text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    return [s for s in SECRETS if s in text]


@pytest.fixture
def room(transactional_db):
    return make_room(prefix="mk-")


def _gm(room):
    return get_user_model().objects.get(pk=room.users["gm"])


@database_sync_to_async
def mark_in_secret(room) -> list[int]:
    """The GM's secret markers, a condition everyone sees, then the
    secret one on Tenrec taken off again: their ids."""
    gm, cid = _gm(room), room.campaign_id
    secret = markers.marker_add(
        campaign_id=cid, token_id=room.tokens["tenrec"], by=gm, icon="skull", label=GM_ONLY,
        gm_only=True,
    )  # fmt: skip
    hidden = markers.marker_add(
        campaign_id=cid, token_id=room.tokens["zombie"], by=gm, icon="eye", label=ON_HIDDEN
    )
    markers.marker_add(campaign_id=cid, token_id=room.tokens["zombie"], by=gm, condition_id="prone")
    markers.marker_add(campaign_id=cid, token_id=room.tokens["tenrec"], by=gm, condition_id="prone")
    again = markers.marker_add(
        campaign_id=cid, token_id=room.tokens["tenrec"], by=gm, icon="flag", label=GM_ONLY + "!",
        gm_only=True,
    )  # fmt: skip
    markers.marker_remove(marker_id=again.pk, by=gm)
    return [secret.pk, hidden.pk]


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
        "markers": client.get(f"{api}/markers/").content.decode(),
        "scene markers": client.get(f"{api}/markers/?scene={room.scene_id}").content.decode(),
        "tokens": client.get(f"/api/scenes/{room.scene_id}/tokens/").content.decode(),
        "replay": json.dumps(replayed, ensure_ascii=False),
        "journal": client.get(f"{api}/sessions/1/journal/?format=md").content.decode(),
        "journal page": client.get(f"/campaigns/{cid}/sessions/1/journal/").content.decode(),
        "room page": client.get(f"/campaigns/{cid}/room/").content.decode(),
        "export": export,
        "export status": str(backup.status_code),
    }


@database_sync_to_async
def refused_removal(room, who: str, marker_id: int) -> str:
    """A member's attempt to take a secret marker off: its refusal's code."""
    try:
        markers.marker_remove(
            marker_id=marker_id, by=get_user_model().objects.get(pk=room.users[who])
        )
    except services.ServiceError as refused:
        return refused.as_dict()["code"] + ":" + refused.message
    return "removed"


async def test_secret_markers_reach_no_player_over_any_channel(room, clients):
    gm = await clients(room, "gm")
    watchers = {who: await clients(room, who) for who in NOT_GM}
    start = gm.first["seq"]
    secret_ids = await mark_in_secret(room)
    last = (await gm.event("marker.removed"))["seq"]
    assert {GM_ONLY, ON_HIDDEN} <= set(leaks(gm.seen))
    for who, member in watchers.items():
        await member.until(lambda f, last=last: f.get("event", {}).get("seq") == last)
        assert leaks(member.seen) == [], who
        kinds = [f["event"]["type"] for f in member.seen if f["type"] == "event"]
        # Every number arrives; only the condition on Tenrec is theirs.
        assert len(kinds) == last - start and kinds.count("marker.added") == 1, (who, kinds)
    for who in NOT_GM:
        fresh = await clients(room, who)
        assert leaks(fresh.first) == [], who
        assert [m["label"] for m in fresh.first["markers"]] == ["Prone"], who
        resynced = await clients(room, who, query=f"since={start}")
        pages = [resynced.first]
        while True:
            page = await resynced.until(lambda f: f["type"] == "resync")
            pages.append(page)
            if not page["more"]:
                break
        assert leaks(pages) == [], who
        got = await reads(room, who)
        for name, text in got.items():
            assert leaks(text) == [], (who, name)
        assert got["export status"] == "404", who
        for marker_id in secret_ids:
            assert (await refused_removal(room, who, marker_id)).startswith("not_found"), who
    # An archive is made between sessions.
    await database_sync_to_async(dice.session_end)(
        campaign_id=room.campaign_id, by=await database_sync_to_async(_gm)(room)
    )
    mine = await reads(room, "gm")
    for name in ("markers", "scene markers", "replay", "journal", "export"):
        assert set(leaks(mine[name])) == {GM_ONLY, ON_HIDDEN}, name
    assert "GM only" in mine["journal"]


UNSEEN = "Lurks past the wall"  # a marker on a token out of the party's view
# A wall down x = 10 (make_room's map is 20 squares a side).
WALL = [[10, 0, 10, 20]]


@database_sync_to_async
def fog_and_a_goblin(room) -> int:
    """Fog comes down; Tenrec stays west of the wall, a goblin stands east
    of it, out of the party's view."""
    gm = _gm(room)
    services.token_move(token_id=room.tokens["tenrec"], by=gm, x=2, y=8)
    services.scene_update(scene_id=room.scene_id, by=gm, walls=WALL, fog=True)
    goblin = services.token_create(scene_id=room.scene_id, by=gm, name="Goblin", x=15, y=8)
    return goblin.pk


async def test_a_marker_on_a_token_out_of_view_reaches_no_player(room, clients):
    goblin = await fog_and_a_goblin(room)
    gm = await clients(room, "gm")
    watchers = {who: await clients(room, who) for who in NOT_GM}
    mark = database_sync_to_async(markers.marker_add)
    await mark(
        campaign_id=room.campaign_id, token_id=goblin, by=await database_sync_to_async(_gm)(room),
        icon="eye", label=UNSEEN,
    )  # fmt: skip
    last = (await gm.event("marker.added"))["seq"]
    for who, member in watchers.items():
        await member.until(lambda f, last=last: f.get("event", {}).get("seq") == last)
        assert UNSEEN not in json.dumps(member.seen), who
        fresh = await clients(room, who)
        assert UNSEEN not in json.dumps(fresh.first), who
        # The goblin is out of their view indeed (the GM's snapshot has it).
        assert "Goblin" not in json.dumps(fresh.first["tokens"]), who
        got = await reads(room, who)
        assert UNSEEN not in got["markers"] + got["scene markers"], who
    assert UNSEEN in (await reads(room, "gm"))["markers"]
    assert "Goblin" in json.dumps(gm.first["tokens"])
