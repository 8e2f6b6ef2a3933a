"""Placing tokens over the websocket: `token.create` from a player when the
campaign lets players place their own characters, refused as error frames
that name the field and keep the connection; `token.update` that links a
token to a character and cuts the link again."""

import pytest
from channels.db import database_sync_to_async

from vtt.tabletop.models import Campaign, Token
from vtt.tabletop.services import campaign_update_settings, character_create, scene_create

from .conftest import make_room

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def room(transactional_db):
    """The live tests' room, with Wren (the player's), Kobor (the other
    player's), a rat (an NPC) and a scene the room is not on."""
    room = make_room(wren={})
    gm = Campaign.objects.get(pk=room.campaign_id).memberships.get(role="gm").user
    room.characters["kobor"] = character_create(
        campaign_id=room.campaign_id, by=gm, name="Kobor", owner_id=room.users["other"]
    ).pk
    room.characters["rat"] = character_create(
        campaign_id=room.campaign_id, by=gm, name="Rat", kind="npc"
    ).pk
    room.spare = scene_create(campaign_id=room.campaign_id, by=gm, name="Cellar").pk
    return room


@database_sync_to_async
def allow_players(room, on=True):
    campaign = Campaign.objects.get(pk=room.campaign_id)
    gm = campaign.memberships.get(role="gm").user
    campaign_update_settings(
        campaign_id=room.campaign_id, by=gm, settings={"players_place_tokens": on}
    )


@database_sync_to_async
def tokens_of(character_id):
    return list(Token.objects.filter(character_id=character_id))


def placing(room, character="wren", **extra):
    return {
        "type": "token.create",
        "id": f"place-{character}",
        "name": character.title(),
        "x": 4,
        "y": 5,
        "character_id": room.characters[character],
        **extra,
    }


async def test_a_player_places_their_own_character_when_the_gm_allows_it(room, clients):
    player = await clients(room, "player")
    other = await clients(room, "other")
    refused = await player.ask(placing(room))
    assert (refused["type"], refused["code"]) == ("error", "forbidden")
    assert await tokens_of(room.characters["wren"]) == []

    await allow_players(room)
    made = await player.ask(dict(placing(room), id="again"))
    assert made["type"] == "ack", made
    token = made["token"]
    assert (token["scene_id"], token["x"], token["y"]) == (room.scene_id, 4, 5)
    assert token["controllers"] == [room.users["player"]] and token["hidden"] is False
    seen = await other.event("token.created")
    assert seen["data"]["token"]["id"] == token["id"]
    # The placer moves it like any token of theirs.
    moved = await player.ask(
        {"type": "token.move", "id": "m", "token": token["id"], "x": 5, "y": 5, "version": 1}
    )
    assert moved["type"] == "ack"


@pytest.mark.parametrize(
    ("character", "extra", "code", "field"),
    [
        ("kobor", {}, "forbidden", "character_id"),
        ("rat", {}, "invalid", "character_id"),
        ("wren", {"hidden": True}, "forbidden", "hidden"),
        ("wren", {"controllers": ["other"]}, "forbidden", "controllers"),
        ("wren", {"scene": "spare"}, "not_found", "scene"),
    ],
)
async def test_a_player_is_refused_field_by_field(room, clients, character, extra, code, field):
    await allow_players(room)
    player = await clients(room, "player")
    frame = placing(room, character, **extra)
    if "controllers" in extra:
        frame["controllers"] = [room.users["other"]]
    if extra.get("scene") == "spare":
        frame["scene"] = room.spare
    reply = await player.ask(frame)
    assert (reply["type"], reply["code"], reply["field"]) == ("error", code, field)
    assert await tokens_of(room.characters[character]) == []
    # The connection stays: the same socket places Wren properly next.
    assert (await player.ask(dict(placing(room), id="fine")))["type"] == "ack"


async def test_an_observer_never_places(room, clients):
    await allow_players(room)
    observer = await clients(room, "observer")
    reply = await observer.ask(placing(room))
    assert (reply["code"], reply["message"]) == ("forbidden", "an observer may not place tokens")


async def test_the_gm_links_a_token_to_a_character_and_cuts_the_link(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    token_id = room.tokens["tenrec"]
    linked = await gm.ask(
        {
            "type": "token.update",
            "id": "link",
            "token": token_id,
            "changes": {"character_id": room.characters["wren"], "controllers": []},
        }
    )
    assert linked["token"]["character_id"] == room.characters["wren"]
    assert linked["token"]["controllers"] == []
    assert (await player.event("token.updated"))["data"]["token"]["character_id"] == (
        room.characters["wren"]
    )
    cut = await gm.ask(
        {"type": "token.update", "id": "cut", "token": token_id, "changes": {"character_id": None}}
    )
    assert cut["token"]["character_id"] is None
    bad = await gm.ask(
        {"type": "token.update", "id": "bad", "token": token_id, "changes": {"character_id": "x"}}
    )
    assert (bad["code"], bad["field"]) == ("invalid", "changes.character_id")


async def test_a_player_may_not_relink_or_reassign_a_token(room, clients):
    await allow_players(room)
    player = await clients(room, "player")
    reply = await player.ask(
        {
            "type": "token.update",
            "id": "steal",
            "token": room.tokens["tenrec"],
            "changes": {"character_id": room.characters["wren"]},
        }
    )
    assert reply["code"] == "forbidden"
    row = await database_sync_to_async(Token.objects.get)(pk=room.tokens["tenrec"])
    assert (row.character_id, row.version) == (None, 1)
