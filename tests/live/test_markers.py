"""Status markers over the websocket: `marker.add` and `marker.remove`,
their events as each member receives them, and bad input answered with an
error frame that names its field and keeps the connection."""

import pytest
from channels.db import database_sync_to_async

from tests.live.conftest import carried_markers
from vtt.tabletop.models import Marker

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "Marked for the altar"  # the GM's secret marker's words


@database_sync_to_async
def markers():
    return list(Marker.objects.values_list("label", flat=True).order_by("id"))


async def test_a_condition_reaches_everyone_who_sees_the_token(room, clients):
    gm, player = await clients(room, "gm"), await clients(room, "player")
    reply = await gm.ask(
        {"type": "marker.add", "id": 1, "token": room.tokens["tenrec"], "condition_id": "prone"}
    )
    assert reply["type"] == "ack", reply
    added = reply["marker"]
    seen = await player.event("marker.added")
    assert seen["data"]["marker"] == added
    assert seen["data"]["token"]["id"] == room.tokens["tenrec"]
    # The player controls Tenrec: they may take the condition off.
    removed = await player.ask({"type": "marker.remove", "id": 2, "marker": added["id"]})
    assert removed["type"] == "ack", removed
    assert (await gm.event("marker.removed"))["data"]["marker"]["id"] == added["id"]
    assert await markers() == []


async def test_a_secret_marker_and_a_hidden_tokens_reach_the_gm_only(room, clients):
    gm, player = await clients(room, "gm"), await clients(room, "player")
    asks = [
        {"type": "marker.add", "id": 1, "token": room.tokens["tenrec"], "icon": "skull",
         "label": SECRET, "gm_only": True},
        {"type": "marker.add", "id": 2, "token": room.tokens["zombie"], "condition_id": "stunned"},
        {"type": "marker.add", "id": 3, "token": room.tokens["tenrec"], "condition_id": "prone"},
    ]  # fmt: skip
    for ask in asks:
        assert (await gm.ask(ask))["type"] == "ack"
    last = await player.event("marker.added")
    assert last["data"]["marker"]["label"] == "Prone"
    text = str(player.seen)
    assert SECRET not in text and "Stunned" not in text and "Zombie" not in text
    assert [f["event"]["type"] for f in player.seen if f["type"] == "event"] == [
        "redacted",
        "redacted",
        "marker.added",
    ]
    # A fresh snapshot: the same, the GM's holds all three.
    again = await clients(room, "player")
    assert [m["label"] for m in carried_markers(again.first["tokens"])] == ["Prone"]
    gm_again = await clients(room, "gm")
    labels = {m["label"] for m in carried_markers(gm_again.first["tokens"])}
    assert labels == {"Prone", SECRET, "Stunned"}


@pytest.mark.parametrize(
    "ask, field",
    [
        ({"icon": "star", "label": "x" * 10_240}, "label"),
        ({"condition_id": "on_fire"}, "condition_id"),
        ({"icon": "rocket", "label": "Up"}, "icon"),
        ({"condition_id": ["prone"]}, "condition_id"),
    ],
)
async def test_bad_input_is_an_error_frame_and_the_socket_stays(room, clients, ask, field):
    gm = await clients(room, "gm")
    reply = await gm.ask({"type": "marker.add", "id": 1, "token": room.tokens["tenrec"], **ask})
    assert reply["type"] == "error", reply
    assert reply["field"] == field
    assert await markers() == []
    # Still connected: the next intent is carried out.
    ok = {"type": "marker.add", "id": 2, "token": room.tokens["tenrec"], "condition_id": "prone"}
    assert (await gm.ask(ok))["type"] == "ack"


@pytest.mark.parametrize("token", [999_999, "12"])
async def test_a_marker_on_an_unknown_token_is_an_error_frame(room, clients, token):
    gm = await clients(room, "gm")
    reply = await gm.ask({"type": "marker.add", "id": 1, "token": token, "condition_id": "prone"})
    assert reply["type"] == "error"
    assert reply["field"] == "token"
    assert await markers() == []
    ok = {"type": "marker.add", "id": 2, "token": room.tokens["tenrec"], "condition_id": "prone"}
    assert (await gm.ask(ok))["type"] == "ack"


async def test_a_player_may_not_mark_the_hidden_token_nor_freely(room, clients):
    player = await clients(room, "player")
    hidden = await player.ask(
        {"type": "marker.add", "id": 1, "token": room.tokens["zombie"], "condition_id": "prone"}
    )
    assert (hidden["type"], hidden["field"]) == ("error", "token")
    free = await player.ask(
        {
            "type": "marker.add",
            "id": 2,
            "token": room.tokens["tenrec"],
            "icon": "star",
            "label": "Hi",
        }
    )
    assert (free["type"], free["code"]) == ("error", "forbidden")
    assert await markers() == []
