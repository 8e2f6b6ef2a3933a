"""Commands in the room's chat: dice in each game's notation, hidden rolls,
help for the sender alone, whispers for their two people alone, and wrong
commands refused with nothing stored."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from vtt import games
from vtt.live import room_reads
from vtt.tabletop.models import Character, Role, Roll, RoomEvent
from vtt.tabletop.services.chat import chat_whisper
from vtt.tabletop.services.errors import NotFound
from vtt.tabletop.visibility import Viewer

from .conftest import make_room

pytestmark = pytest.mark.django_db(transaction=True)

RD6_SHEET = {"attributes": {"Reflexes": "3D"}, "skills": {}}


@database_sync_to_async
def event_count(*campaign_ids):
    return RoomEvent.objects.filter(campaign_id__in=campaign_ids).count()


@database_sync_to_async
def room_for(game, prefix="", **sheets):
    return make_room(game, prefix, **sheets)


async def room_events(client) -> list[dict]:
    """The log entries among what the client has been sent (not presence)."""
    return [f for f in await client.drain() if f["type"] == "event"]


async def say(client, text, id_="c"):
    return await client.ask({"type": "chat", "id": id_, "text": text})


# ---------------------------------------------------------------- /r in each game

EXAMPLES = [
    (
        "artifice",
        "/r 4D vs 3D",
        {"action": "test", "actor": {"pool": 4}, "opponent": {"pool": 3}},
    ),
    ("artifice", "/r 3D diff 2", {"action": "check", "pool": 3, "difficulty": 2}),
    ("artifice", "/roll 3D", {"action": "check", "pool": 3, "difficulty": 0}),
    (
        "rd6",
        "/r 4D+2 diff 3 cp 1",
        {"action": "roll", "dice": 4, "pips": 2, "difficulty": 3, "character_points": 1},
    ),
    ("fgr", "/r 3 diff 2", {"action": "roll", "skill": 3, "difficulty": 2}),
    ("xerosum", "/r 2d6+2+1", {"action": "check", "amod": 2, "smod": 1}),
    (
        "apocalyptia",
        "/r d6+3 vs 4",
        {"action": "roll", "bonus": 3, "difficulty": 4, "kind": "skill"},
    ),
]


@pytest.mark.parametrize("game, text, expected", EXAMPLES, ids=[e[1] for e in EXAMPLES])
async def test_each_games_example_is_an_adjudicated_roll(clients, game, text, expected):
    room = await room_for(game)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    reply = await say(player, text)
    assert reply["type"] == "ack" and reply["intent"] == "chat", reply
    event = await gm.event("roll")
    data = event["data"]
    assert data["roll_id"] == reply["roll_id"]
    assert data["roller"] == {"id": room.users["player"], "name": "player"}
    assert data["visibility"] == "public" and data["character"] is None
    # The request the notation made, with the campaign's house rules laid over it.
    assert data["request"]["system"] == game
    for key, value in expected.items():
        assert data["request"][key] == value, key
    assert data["sentence"] == games.kit(game).sentence(data["request"], data["result"], "player")
    roll = await database_sync_to_async(Roll.objects.select_related("event").get)(
        pk=reply["roll_id"]
    )
    assert roll.result == data["result"]
    # A roll, not a chat line.
    assert not [f for f in await room_events(gm) if f["event"]["type"] == "chat"]


async def test_a_roll_as_a_character_spends_from_it(clients):
    room = await room_for("rd6", Tenrec=RD6_SHEET)
    player = await clients(room, "player")
    tenrec = room.characters["Tenrec"]
    points = await database_sync_to_async(
        lambda: Character.objects.get(pk=tenrec).resources["character_points"]
    )()
    reply = await say(player, "/r 4D+2 diff 3 cp 1 as tenrec")
    assert reply["type"] == "ack", reply
    data = (await player.event("roll"))["data"]
    assert data["character"] == {"id": tenrec, "name": "Tenrec"}
    left = await database_sync_to_async(
        lambda: Character.objects.get(pk=tenrec).resources["character_points"]
    )()
    assert left == points - 1


async def character_points(character_id) -> int:
    return await database_sync_to_async(
        lambda: Character.objects.get(pk=character_id).resources["character_points"]
    )()


async def test_a_roll_without_as_is_for_the_members_one_character(clients):
    room = await room_for("rd6", Tenrec=RD6_SHEET)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    other = await clients(room, "other")
    tenrec = room.characters["Tenrec"]
    points = await character_points(tenrec)
    reply = await say(player, "/r 4D+2 diff 3 cp 1")
    assert reply["type"] == "ack" and reply["visibility"] == "public", reply
    for client in (gm, player, other):
        data = (await client.event("roll"))["data"]
        assert data["roll_id"] == reply["roll_id"]
        assert data["character"] == {"id": tenrec, "name": "Tenrec"}
        assert data["sentence"].startswith("Tenrec ")
        assert data["chat"] is True  # typed in the chat: the chat shows it too
    assert await character_points(tenrec) == points - 1
    # A member with no character of their own rolls as themselves.
    await say(other, "/r 3D")
    data = (await gm.event("roll"))["data"]
    assert data["roller"]["name"] == "other" and data["character"] is None


async def rolled(client, frame: dict) -> dict:
    """The roll event the chat line `frame` made, as `client` got it."""
    reply = await client.ask(frame)
    assert reply["type"] == "ack", reply
    found = await client.until(
        lambda f: (
            f["type"] == "event" and f["event"].get("data", {}).get("roll_id") == reply["roll_id"]
        )
    )
    return found["event"]["data"]


async def test_of_several_characters_the_pages_current_one_rolls(clients):
    room = await room_for("rd6", Ash=RD6_SHEET, Bram=RD6_SHEET)
    player = await clients(room, "player")
    other = await clients(room, "other")
    ash, bram = room.characters["Ash"], room.characters["Bram"]
    data = await rolled(player, {"type": "chat", "id": "c1", "text": "/r 4D", "character": bram})
    assert data["character"] == {"id": bram, "name": "Bram"}
    # No page's choice: of two, neither is guessed.
    data = await rolled(player, {"type": "chat", "id": "c2", "text": "/r 4D"})
    assert data["character"] is None
    # Another member's character named as current is not theirs to roll for.
    points = await character_points(ash)
    data = await rolled(other, {"type": "chat", "id": "c3", "text": "/r 4D cp 1", "character": ash})
    assert data["character"] is None
    assert await character_points(ash) == points
    # "as NAME" still names the character, whatever the page chose.
    data = await rolled(
        player, {"type": "chat", "id": "c4", "text": "/r 4D as ash", "character": bram}
    )
    assert data["character"] == {"id": ash, "name": "Ash"}


async def test_a_chat_gm_roll_for_a_character_reaches_the_gm_alone(clients):
    room = await room_for("rd6", Tenrec=RD6_SHEET)
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    other = await clients(room, "other")
    reply = await say(player, "/gr 3D")
    assert reply["visibility"] == "gm"
    shown = await gm.event("roll")
    assert shown["data"]["character"]["name"] == "Tenrec" and shown["data"]["chat"] is True
    for client in (player, other):
        assert await client.event("redacted") == {"seq": shown["seq"], "type": "redacted"}
        assert "Tenrec" not in str([f for f in client.seen if f["type"] == "event"])


async def test_a_player_rolls_only_for_their_own_characters(clients):
    room = await room_for("rd6", Tenrec=RD6_SHEET)
    other = await clients(room, "other")
    before = await event_count(room.campaign_id)
    reply = await say(other, "/r 4D cp 1 as Tenrec")
    assert (reply["type"], reply["code"]) == ("error", "forbidden")
    reply = await say(other, "/r 4D as Nobody")
    assert (reply["code"], reply["field"]) == ("not_found", "character")
    assert await event_count(room.campaign_id) == before


# ---------------------------------------------------------------- /gmroll


@pytest.mark.parametrize("command", ["/gmroll", "/gr"])
async def test_a_gm_roll_reaches_the_gm_alone(room, clients, command):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    other = await clients(room, "other")
    reply = await say(player, f"{command} 3D diff 2")
    assert reply["type"] == "ack"
    shown = await gm.event("roll")
    assert shown["data"]["visibility"] == "gm" and shown["data"]["request"]["pool"] == 3
    # The tray's "GM only": every player, the roller too, gets the number alone.
    for client in (player, other):
        hidden = await client.event("redacted")
        assert hidden == {"seq": shown["seq"], "type": "redacted"}


# ---------------------------------------------------------------- /help


async def test_help_answers_the_sender_alone_and_stores_nothing(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    before = await event_count(room.campaign_id)
    reply = await say(player, "/help")
    assert reply["type"] == "ack"
    assert "Rolls in Artifice" in reply["help"] and "/r 3D+1 diff 2" in reply["help"]
    assert "/w NAME TEXT" in reply["help"]
    assert await event_count(room.campaign_id) == before
    assert not await room_events(gm)


# ---------------------------------------------------------------- wrong commands

WRONG = [
    ("/dance", "unknown_command", "text"),
    ("/r", "bad_roll", "text"),
    ("/r 3X", "bad_roll", "text"),
    ("/gr 3D diff", "bad_roll", "text"),
    ("/r 99D diff 2", "invalid", "request.pool"),
    ("/w", "invalid", "to"),
    ("/w other", "invalid", "text"),
    ("/w nobody psst", "not_found", "to"),
    ("/w player talking to myself", "invalid", "to"),
]


@pytest.mark.parametrize("text, code, field", WRONG, ids=[w[0] for w in WRONG])
async def test_a_wrong_command_is_refused_and_stores_nothing(room, clients, text, code, field):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    before = await event_count(room.campaign_id)
    reply = await say(player, text)
    assert (reply["type"], reply["code"], reply["field"]) == ("error", code, field)
    if code in ("unknown_command", "bad_roll"):
        assert "/r" in reply["message"]  # it says how it is written
    assert await event_count(room.campaign_id) == before
    assert not await room_events(gm)
    # The connection stays: the next line goes through.
    assert (await say(player, "sorry", "c2"))["type"] == "ack"
    assert (await gm.event("chat"))["data"]["text"] == "sorry"


async def test_a_double_slash_says_the_line(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    await say(player, "//r is how you roll")
    assert (await gm.event("chat"))["data"]["text"] == "/r is how you roll"


# ---------------------------------------------------------------- whispers


@database_sync_to_async
def call_other(first, last):
    get_user_model().objects.filter(username="other").update(first_name=first, last_name=last)


async def test_a_whisper_reaches_its_two_people_alone(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    other = await clients(room, "other")
    since = await database_sync_to_async(room_reads.current_seq)(room.campaign_id)
    reply = await say(player, "/w OTHER the idol is fake")
    assert reply["type"] == "ack"
    for client in (player, other):
        whisper = await client.event("whisper")
        assert whisper["seq"] == reply["seq"]
        assert whisper["data"]["from"] == {"id": room.users["player"], "name": "player"}
        assert whisper["data"]["to"] == {"id": room.users["other"], "name": "other"}
        assert whisper["data"]["text"] == "the idol is fake"
    assert await gm.event("redacted") == {"seq": reply["seq"], "type": "redacted"}

    # Not in the GM's resync, nor in a fresh snapshot's log, nor on the page.
    await gm.send({"type": "resync", "id": "y", "since": since})
    page = await gm.until(lambda f: f["type"] == "resync")
    assert page["events"] == [{"seq": reply["seq"], "type": "redacted"}]
    late = await clients(room, "gm")
    assert "idol" not in str(late.first["log"])
    assert {"seq": reply["seq"], "type": "redacted"} in late.first["log"]
    again = await clients(room, "other")
    assert [e for e in again.first["log"] if e["type"] == "whisper"][0]["data"]["text"] == (
        "the idol is fake"
    )
    for who in ("gm", "observer"):
        views = await database_sync_to_async(room_reads.views_since)(
            room.campaign_id, since, Viewer(room.users[who], Role.GM if who == "gm" else who)
        )
        assert views == [{"seq": reply["seq"], "type": "redacted"}]

    def page_html():
        client = Client()
        client.force_login(get_user_model().objects.get(username="gm"))
        return client.get(f"/campaigns/{room.campaign_id}/").content.decode()

    assert "idol" not in await database_sync_to_async(page_html)()


async def test_a_whisper_to_the_gm_and_by_display_name(room, clients):
    await call_other("Ada", "Lovelace")
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    other = await clients(room, "other")
    reply = await say(other, "/whisper GM I palm the gem")
    assert (await gm.event("whisper"))["data"]["text"] == "I palm the gem"
    assert await player.event("redacted") == {"seq": reply["seq"], "type": "redacted"}
    reply = await say(gm, '/w "ada lovelace" You feel watched.')
    seen = await other.until(lambda f: f["type"] == "event" and f["event"]["seq"] == reply["seq"])
    seen = seen["event"]
    assert seen["data"]["to"] == {"id": room.users["other"], "name": "Ada Lovelace"}
    assert await player.event("redacted") == {"seq": reply["seq"], "type": "redacted"}


async def test_no_whisper_reaches_into_another_campaign(room, clients):
    elsewhere = await room_for("rd6", prefix="b-")
    player = await clients(room, "player")
    before = await event_count(room.campaign_id, elsewhere.campaign_id)
    for name in ("b-player", "stranger"):
        reply = await say(player, f"/w {name} come over")
        assert (reply["code"], reply["field"]) == ("not_found", "to")
    # Nor through the service, naming the other campaign.
    player_user = await database_sync_to_async(get_user_model().objects.get)(username="player")
    with pytest.raises(NotFound):
        await database_sync_to_async(chat_whisper)(
            campaign_id=elsewhere.campaign_id, by=player_user, to="b-player", text="hi"
        )
    assert await event_count(room.campaign_id, elsewhere.campaign_id) == before
