"""An intent sent again with the same id (its socket died before the answer
came) is answered with the first answer and carried out only once."""

import asyncio
import datetime

import pytest
from channels.db import database_sync_to_async

from vtt.live.models import IntentReceipt
from vtt.live.receipts import RECEIPT_TTL
from vtt.tabletop.models import RoomEvent, Token

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def chats(room, text) -> list[int]:
    return [
        e.seq
        for e in RoomEvent.objects.filter(campaign_id=room.campaign_id, kind="chat")
        if e.data["text"] == text
    ]


async def test_a_repeated_chat_is_posted_once_and_answered_twice_alike(room, clients):
    gm = await clients(room, "gm")
    first = await gm.ask({"type": "chat", "id": "line-1", "text": "once"})
    again = await gm.ask({"type": "chat", "id": "line-1", "text": "once"})
    assert first["type"] == again["type"] == "ack"
    assert again["seq"] == first["seq"] and again["repeat"] is True
    assert "repeat" not in first
    assert await chats(room, "once") == [first["seq"]]


async def test_the_same_member_on_another_socket_gets_the_first_answer(room, clients):
    """Another socket stands for another worker: the receipt is in the database."""
    before = await clients(room, "player")
    first = await before.ask({"type": "chat", "id": "tab-a-7", "text": "hello"})
    await before.close()
    after = await clients(room, "player")
    again = await after.ask({"type": "chat", "id": "tab-a-7", "text": "hello"})
    assert (again["seq"], again["repeat"]) == (first["seq"], True)
    assert await chats(room, "hello") == [first["seq"]]


async def test_ids_are_remembered_per_member(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    mine = await gm.ask({"type": "chat", "id": "same", "text": "from the gm"})
    theirs = await player.ask({"type": "chat", "id": "same", "text": "from a player"})
    assert theirs["type"] == "ack" and theirs["seq"] != mine["seq"] and "repeat" not in theirs


async def test_an_integer_id_and_a_string_id_differ(room, clients):
    gm = await clients(room, "gm")
    number = await gm.ask({"type": "chat", "id": 1, "text": "number"})
    string = await gm.ask({"type": "chat", "id": "1", "text": "string"})
    assert "repeat" not in number and "repeat" not in string
    assert string["seq"] == number["seq"] + 1


async def test_an_id_given_to_another_intent_is_refused(room, clients):
    gm = await clients(room, "gm")
    await gm.ask({"type": "chat", "id": "x", "text": "a line"})
    refused = await gm.ask({"type": "token.hide", "id": "x", "token": room.tokens["tenrec"]})
    assert (refused["type"], refused["code"], refused["field"]) == ("error", "invalid", "id")
    assert (
        await database_sync_to_async(lambda: Token.objects.get(pk=room.tokens["tenrec"]).hidden)()
        is False
    )


async def test_a_repeated_move_answers_with_the_first_move_not_a_stale_version(room, clients):
    """The token moved on since (the first attempt bumped its version): the
    repeat is still the first move's answer, and nothing moves again."""
    player = await clients(room, "player")
    tenrec = room.tokens["tenrec"]
    version = player.first["tokens"][0]["version"]
    first = await player.ask(
        {"type": "token.move", "id": "m-1", "token": tenrec, "x": 4, "y": 4, "version": version}
    )
    await player.ask({"type": "token.move", "id": "m-2", "token": tenrec, "x": 6, "y": 6})
    again = await player.ask(
        {"type": "token.move", "id": "m-1", "token": tenrec, "x": 4, "y": 4, "version": version}
    )
    assert again["type"] == "ack" and again["repeat"] is True
    assert again["token"] == first["token"]
    token = await database_sync_to_async(Token.objects.get)(pk=tenrec)
    assert (token.x, token.y) == (6, 6)


async def test_a_refused_intent_leaves_no_receipt(room, clients):
    player = await clients(room, "player")
    refused = await player.ask({"type": "token.hide", "id": "h-1", "token": room.tokens["tenrec"]})
    assert refused["type"] == "error" and refused["code"] == "forbidden"
    assert not await database_sync_to_async(IntentReceipt.objects.exists)()


async def test_an_expired_receipt_no_longer_holds_its_id(room, clients):
    gm = await clients(room, "gm")
    first = await gm.ask({"type": "chat", "id": "old", "text": "long ago"})
    await database_sync_to_async(
        lambda: IntentReceipt.objects.update(
            created=datetime.datetime.now(datetime.UTC) - RECEIPT_TTL - datetime.timedelta(1)
        )
    )()
    again = await gm.ask({"type": "chat", "id": "old", "text": "long ago"})
    assert "repeat" not in again and again["seq"] > first["seq"]
    assert len(await chats(room, "long ago")) == 2


async def test_the_same_id_sent_at_once_on_two_sockets_acts_once(room, clients, postgres):
    """Two workers carrying out one intent at the same moment: the second
    insert of the receipt waits for the first transaction, then answers
    with its answer."""
    tabs = [await clients(room, "gm") for _ in range(4)]
    for round_ in range(5):
        frame = {"type": "chat", "id": f"race-{round_}", "text": f"race {round_}"}
        await asyncio.gather(*(tab.send(frame) for tab in tabs))
        answers = [await tab.reply(frame["id"]) for tab in tabs]
        assert {a["type"] for a in answers} == {"ack"}
        assert len({a["seq"] for a in answers}) == 1
        assert sorted(bool(a.get("repeat")) for a in answers) == [False, True, True, True]
        assert await chats(room, frame["text"]) == [answers[0]["seq"]]
