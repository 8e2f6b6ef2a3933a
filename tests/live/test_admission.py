"""Who gets into a room, what they get first, and who is online."""

import pytest
from channels.testing import WebsocketCommunicator

from tests.tabletop.helpers import chat_data
from vtt.live import protocol
from vtt.tabletop.events import append_event
from vtt.tabletop.models import Campaign

from .conftest import ORIGIN, application, connect

pytestmark = pytest.mark.django_db(transaction=True)


async def closed_with(room, who, query="", campaign_id=None) -> int:
    client = await connect(room, who, query, expect=False, campaign_id=campaign_id)
    try:
        output = await client.ws.receive_output(3)
        assert output["type"] == "websocket.close"
        return output["code"]
    finally:
        await client.ws.disconnect()


async def test_anonymous_is_closed_4401(room):
    assert await closed_with(room, None) == protocol.CLOSE_UNAUTHENTICATED == 4401


async def test_non_member_is_closed_4403(room):
    assert await closed_with(room, "stranger") == protocol.CLOSE_NOT_MEMBER == 4403


async def test_unknown_campaign_is_closed_like_a_forbidden_one(room):
    assert await closed_with(room, "gm", campaign_id=room.campaign_id + 999) == 4403


async def test_unsupported_protocol_version_is_closed_4406(room):
    assert await closed_with(room, "gm", query="v=4") == protocol.CLOSE_BAD_VERSION


async def test_protocol_version_1_is_accepted(room, clients):
    gm = await clients(room, "gm", query="v=1")
    assert gm.first["type"] == "snapshot" and gm.first["protocol"] == 1


async def test_foreign_origin_is_refused_at_the_handshake(room):
    headers = [
        (b"origin", b"http://evil.example"),
        (b"cookie", f"sessionid={room.cookies['gm']}".encode()),
    ]
    communicator = WebsocketCommunicator(
        application(), f"/ws/campaigns/{room.campaign_id}/", headers=headers
    )
    connected, _ = await communicator.connect(3)
    assert not connected
    await communicator.disconnect()


async def test_missing_origin_is_refused(room):
    communicator = WebsocketCommunicator(
        application(),
        f"/ws/campaigns/{room.campaign_id}/",
        headers=[(b"cookie", f"sessionid={room.cookies['gm']}".encode())],
    )
    connected, _ = await communicator.connect(3)
    assert not connected
    await communicator.disconnect()
    assert ORIGIN[0] == b"origin"


async def test_snapshot_for_the_gm_has_every_token(room, clients):
    gm = await clients(room, "gm")
    snap = gm.first
    assert snap["you"] == {"id": room.users["gm"], "name": "gm", "role": "gm"}
    assert snap["campaign"]["id"] == room.campaign_id
    assert snap["scene"]["id"] == room.scene_id
    assert {t["id"] for t in snap["tokens"]} == set(room.tokens.values())
    assert snap["seq"] == snap["log"][-1]["seq"]
    assert [e["seq"] for e in snap["log"]] == list(range(1, snap["seq"] + 1))
    assert snap["online"] == [{"id": room.users["gm"], "name": "gm"}]


async def test_snapshot_for_a_player_has_no_hidden_token_anywhere(room, clients):
    player = await clients(room, "player")
    snap = player.first
    assert [t["id"] for t in snap["tokens"]] == [room.tokens["tenrec"]]
    created = [e for e in snap["log"] if e["type"] == "token.created"]
    assert len(created) == 1
    assert {"seq": created[0]["seq"] + 1, "type": "redacted"} in snap["log"]
    assert "Zombie" not in str(snap)


async def test_snapshot_log_is_the_last_fifty_entries(room, clients):
    def add_chat():
        from django.db import transaction

        campaign = Campaign.objects.get(pk=room.campaign_id)
        with transaction.atomic():
            for i in range(60):
                append_event(campaign=campaign, kind="chat", data=chat_data(str(i)))

    from channels.db import database_sync_to_async

    await database_sync_to_async(add_chat)()
    gm = await clients(room, "gm")
    log = gm.first["log"]
    assert len(log) == 50
    assert [e["seq"] for e in log] == list(range(gm.first["seq"] - 49, gm.first["seq"] + 1))
    assert log[-1]["data"]["text"] == "59"


async def test_two_tabs_count_once_in_presence(room, clients):
    gm = await clients(room, "gm")
    tab1 = await clients(room, "player")
    joined = await gm.until(lambda f: f["type"] == "presence")
    assert joined == {
        "type": "presence",
        "state": "join",
        "user": {"id": room.users["player"], "name": "player"},
    }
    tab2 = await clients(room, "player")
    assert [u["id"] for u in tab2.first["online"]] == sorted(
        [room.users["gm"], room.users["player"]]
    )
    assert await gm.quiet(0.2)  # the second tab announces nothing
    await tab1.close()
    assert await gm.quiet(0.2)  # still online in the other tab
    await tab2.close()
    left = await gm.until(lambda f: f["type"] == "presence")
    assert left["state"] == "leave" and left["user"]["id"] == room.users["player"]


async def test_a_member_removed_from_the_campaign_is_closed(room, clients):
    from channels.db import database_sync_to_async
    from django.contrib.auth import get_user_model

    from vtt.tabletop.services import membership_remove

    player = await clients(room, "player")

    def remove():
        gm = get_user_model().objects.get(pk=room.users["gm"])
        membership_remove(campaign_id=room.campaign_id, by=gm, user_id=room.users["player"])

    await database_sync_to_async(remove)()
    await player.until(lambda f: f["type"] == "event" and f["event"]["type"] == "member.removed")
    output = await player.ws.receive_output(3)
    assert output == {"type": "websocket.close", "code": 4403}


async def test_a_role_change_brings_a_fresh_snapshot(room, clients):
    from channels.db import database_sync_to_async
    from django.contrib.auth import get_user_model

    from vtt.tabletop.services import membership_set_role

    player = await clients(room, "player")

    def promote():
        gm = get_user_model().objects.get(pk=room.users["gm"])
        membership_set_role(
            campaign_id=room.campaign_id, by=gm, user_id=room.users["player"], role="gm"
        )

    await database_sync_to_async(promote)()
    snap = await player.until(lambda f: f["type"] == "snapshot")
    assert snap["reason"] == "role_changed" and snap["you"]["role"] == "gm"
    assert room.tokens["zombie"] in {t["id"] for t in snap["tokens"]}
