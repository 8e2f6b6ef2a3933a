"""A roll the room redacts under fog is redacted by every other reader too.

The GM rolls publicly for an NPC whose token no player sees (by the roll
intent and by "/r ... as NAME" in the chat): each player's socket gets
`redacted`. For every member, what their socket received is compared with
what each REST read and page that serves rolls gives them (the roll list
and detail, the session's check, replay and journal, the dice statistics):
the same rolls, and of those they did not see, neither the character's
name nor the dice (each throw's nonce, with which the dice are recomputed).
Then the NPC comes into view and the GM rolls for it again, and reveals a
hidden roll made while it was out of view: those reach the players that
see them, on the socket and everywhere else alike; the first ones stay
redacted, as in the room's resync pages."""

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from tests.live.conftest import make_room
from vtt import dice
from vtt.combat.services.reveal import event_reveal
from vtt.live import room_reads
from vtt.tabletop import policy, selectors, services
from vtt.tabletop.models import Membership, Role, Roll
from vtt.tabletop.services.scenes import scene_set_door
from vtt.tabletop.visibility import Viewer

pytestmark = pytest.mark.django_db(transaction=True)

CHECK = {"system": "artifice", "action": "check", "pool": 2, "difficulty": 1}
CHIEF = "Grask the Chief"  # the NPC's sheet: its name is only in its rolls
# A wall down x = 10 with a door in it from y = 8 to y = 10 (walls[1]).
WALLS = [[10, 0, 10, 8], [10, 8, 10, 10, "door"], [10, 10, 10, 20]]
MEMBERS = ("gm", "player", "other", "observer")


def lay(own_vision: bool):
    """make_room's table on a fog scene: Tenrec (the player's) west of the
    wall, the chief's token east of it, out of the party's view. `other`
    controls no token: with own vision they see nothing of the map."""
    room = make_room(prefix=f"fr{int(own_vision)}-")
    gm = get_user_model().objects.get(pk=room.users["gm"])
    if own_vision:
        services.campaign_update_settings(
            campaign_id=room.campaign_id, by=gm, settings={"own_vision": True}
        )
    chief = services.character_create(campaign_id=room.campaign_id, by=gm, name=CHIEF, kind="npc")
    services.token_move(token_id=room.tokens["tenrec"], by=gm, x=2, y=8)
    services.scene_update(scene_id=room.scene_id, by=gm, walls=WALLS, fog=True)
    services.token_create(
        scene_id=room.scene_id, by=gm, name="Goblin", x=15, y=8, character_id=chief.pk
    )
    room.characters["chief"] = chief.pk
    return room


@pytest.fixture(params=[False, True], ids=["party", "own_vision"])
def table(request, transactional_db):
    room = lay(request.param)
    room.own_vision = request.param
    return room


def _web(room, who: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(pk=room.users[who]))
    return client


def seen_on_socket(frames: list[dict]) -> dict[int, dict]:
    """The rolls a socket showed in full, by roll id: their entries, or
    the public reveal of a hidden one."""
    seen = {}
    for view in frames:
        data = view.get("data") or {}
        if view["type"] == "roll" and not data.get("blind"):
            seen[data["roll_id"]] = data
        elif view["type"] == "reveal" and data["type"] == "roll":
            seen[data["data"]["roll_id"]] = data["data"]
    return seen


def socket_views(client) -> list[dict]:
    return [f["event"] for f in client.seen if f["type"] == "event"]


@database_sync_to_async
def reads(room, who: str) -> dict:
    """Everything REST and the pages give `who` that can carry a roll."""
    client = _web(room, who)
    campaign = room.campaign_id
    api = f"/api/campaigns/{campaign}"
    listed = []
    url = f"{api}/rolls/"
    while url:
        body = client.get(url).json()
        listed.extend(body["results"])
        url = body["next"]
    details = {
        pk: client.get(f"/api/rolls/{pk}/")
        for pk in Roll.objects.filter(campaign_id=campaign).values_list("pk", flat=True)
    }
    replayed, after = [], ""
    while True:
        body = client.get(f"{api}/sessions/1/replay/{after}").json()
        replayed.extend(body["events"])
        if body["next"] is None:
            break
        after = f"?after={body['next']}"
    texts = {
        "list": json.dumps(listed),
        "details": json.dumps([r.json() for r in details.values()]),
        "check": client.get(f"{api}/sessions/1/").content.decode(),
        "replay": json.dumps(replayed),
        "journal": client.get(f"{api}/sessions/1/journal/?format=md").content.decode(),
        "stats": client.get(f"{api}/dice-stats/").content.decode(),
        "check page": client.get(f"/campaigns/{campaign}/sessions/1/").content.decode(),
        "journal page": client.get(f"/campaigns/{campaign}/sessions/1/journal/").content.decode(),
        "dice page": client.get(f"/campaigns/{campaign}/dice/").content.decode(),
        "room page": client.get(f"/campaigns/{campaign}/room/").content.decode(),
    }
    return {
        "listed": listed,
        "details": {pk: r.status_code for pk, r in details.items()},
        "check": json.loads(texts["check"]),
        "replay": {v["seq"]: v for v in replayed},
        "stats": json.loads(texts["stats"]),
        "texts": texts,
    }


@database_sync_to_async
def rolls_of(room) -> dict[int, Roll]:
    rolls = Roll.objects.filter(campaign_id=room.campaign_id).select_related("event")
    return {roll.pk: roll for roll in rolls}


def compare(who: str, frames: list[dict], got: dict, rolls: dict[int, Roll]) -> dict[int, dict]:
    """What `who`'s socket showed of the rolls against every other reader;
    the rolls the socket showed, by id."""
    seen = seen_on_socket(frames)
    live = {v["seq"]: v for v in frames}
    # The roll list and each roll's page: exactly the rolls the socket showed.
    assert {r["id"] for r in got["listed"]} == set(seen), who
    for listed in got["listed"]:
        assert listed["character"] == seen[listed["id"]]["character"], who
        assert listed["result"] == seen[listed["id"]]["result"], who
    assert got["details"] == {pk: 200 if pk in seen else 404 for pk in rolls}, who
    # The replay renders each roll's entry as the socket did.
    for roll in rolls.values():
        seq = roll.event.seq
        assert got["replay"][seq]["type"] == live[seq]["type"], (who, roll.pk)
    # The session's check and the dice statistics count the rolls shown.
    shown = {rolls[pk].draw["roll"] for pk in seen}
    assert {r["roll"] for r in got["check"]["rolls"]} == shown, who
    assert got["stats"]["everyone"]["throws"] == len(seen), who
    characters = {d["character"]["name"] for d in seen.values() if d["character"]}
    assert {g["name"] for g in got["stats"]["characters"]} == characters, who
    # Of a roll not shown: no name, no dice anywhere.
    unseen = [roll for pk, roll in rolls.items() if pk not in seen]
    for name, text in got["texts"].items():
        for roll in unseen:
            assert roll.draw["nonce"] not in text, (who, name, roll.pk)
        if CHIEF not in characters:
            assert CHIEF not in text, (who, name)
    for name in ("list", "journal", "stats"):
        assert (CHIEF in got["texts"][name]) == (CHIEF in characters), (who, name)
    return seen


async def everyone_has(sockets, seq: int):
    for client in sockets.values():
        await client.until(lambda f: f["type"] == "event" and f["event"]["seq"] >= seq)


async def resynced(table, clients, who: str) -> list[dict]:
    """The room's log as a socket reconnecting from the start reads it now."""
    back = await clients(table, who, query="since=0")
    views = []
    while True:
        page = await back.until(lambda f: f["type"] == "resync")
        views.extend(page["events"])
        if not page["more"]:
            return views


async def test_every_reader_hides_the_rolls_the_room_redacts_under_fog(table, clients):
    sockets = {who: await clients(table, who) for who in MEMBERS}
    gm, chief = sockets["gm"], table.characters["chief"]
    ack = await gm.ask(
        {"type": "roll", "id": "r1", "request": CHECK, "visibility": "public", "character": chief}
    )
    by_intent = ack["roll_id"]
    ack = await gm.ask({"type": "chat", "id": "r2", "text": f"/r 2D diff 1 as {CHIEF}"})
    by_chat = ack["roll_id"]
    ack = await gm.ask(
        {"type": "roll", "id": "r3", "request": CHECK, "visibility": "gm", "character": chief}
    )
    hidden = ack["roll_id"]
    await sockets["player"].ask({"type": "roll", "id": "r4", "request": CHECK})
    await everyone_has(
        sockets, await database_sync_to_async(room_reads.current_seq)(table.campaign_id)
    )

    rolls = await rolls_of(table)
    assert rolls[by_chat].visibility == "public" and rolls[by_chat].character_id == chief
    shown = {}
    for who in MEMBERS:
        got = await reads(table, who)
        shown[who] = compare(who, socket_views(sockets[who]), got, rolls)
    assert {by_intent, by_chat, hidden} <= set(shown["gm"])
    for who in ("player", "other", "observer"):
        assert not {by_intent, by_chat, hidden} & set(shown[who]), who
        assert len(shown[who]) == 1, who  # the player's own public roll

    # The door opens: the goblin comes into the party's view (with own
    # vision, into the player's, whose Tenrec sees it, not the other's).
    await gm.ask({"type": "door.set", "id": "d", "wall": 1, "state": "open"})
    ack = await gm.ask(
        {"type": "roll", "id": "r5", "request": CHECK, "visibility": "public", "character": chief}
    )
    in_view = ack["roll_id"]
    rolls = await rolls_of(table)
    await gm.ask({"type": "reveal", "id": "v", "seq": rolls[hidden].event.seq})
    await everyone_has(
        sockets, await database_sync_to_async(room_reads.current_seq)(table.campaign_id)
    )

    rolls = await rolls_of(table)
    # Observers look through the party's eyes; with own vision the other
    # player looks through their own, and they have none.
    sees_it = {"gm", "player", "observer"} | (set() if table.own_vision else {"other"})
    for who in MEMBERS:
        got = await reads(table, who)
        shown = compare(who, socket_views(sockets[who]), got, rolls)
        assert (in_view in shown) == (who in sees_it), who
        assert hidden in shown, who  # revealed: everyone's, fog or not
        if who != "gm":
            assert by_intent not in shown and by_chat not in shown, who
        # A reconnect's pages read the room's decision now: the same.
        assert seen_on_socket(await resynced(table, clients, who)) == shown, who


def test_the_roll_lists_filter_is_the_rule_itself(table):
    """visible_rolls_q (the list's SQL) picks exactly the rolls roll_sight
    shows, for every member and visibility, in view and out of it, revealed
    or not, for a group the table did not have when they were made, and
    for a roll kept from before rolls had log entries."""
    User = get_user_model()
    gm, player = (User.objects.get(pk=table.users[who]) for who in ("gm", "player"))
    campaign, chief = table.campaign_id, table.characters["chief"]
    # The player's character has a token too, hidden beyond the wall: it
    # sees for nobody, so its rolls are out of everyone's view but the GM's.
    own = services.character_create(campaign_id=campaign, by=player, name="Tenrec")
    services.token_create(
        scene_id=table.scene_id, by=gm, name="Shadow", x=16, y=2, hidden=True, character_id=own.pk
    )

    def roll_all():
        made = []
        for visibility in ("public", "gm", "self", "blind"):
            for by, character in ((gm, chief), (player, own.pk), (player, None)):
                made.append(
                    dice.roll_adjudicate(
                        campaign_id=campaign,
                        by=by,
                        request=CHECK,
                        visibility=visibility,
                        character_id=character,
                    )
                )
        return made

    out_of_view = roll_all()
    scene_set_door(scene_id=table.scene_id, by=gm, wall=1, state="open")
    roll_all()
    for roll in out_of_view[3:5]:  # the gm rolls for the chief and for Tenrec
        event_reveal(campaign_id=campaign, by=gm, seq=roll.event.seq)
    Roll.objects.create(campaign_id=campaign, roller=gm, visibility="public", own_request=CHECK)
    Roll.objects.create(campaign_id=campaign, roller=gm, visibility="gm", own_request=CHECK)

    members = Membership.objects.filter(campaign_id=campaign).select_related("campaign")
    viewers = [selectors.viewer_of(m) for m in members]
    viewers.append(Viewer(player.pk, Role.PLAYER, group="u0"))  # a group nobody had
    every = list(Roll.objects.filter(campaign_id=campaign).select_related("event"))
    sights = set()
    for viewer in viewers:
        shown = {r.pk for r in every if policy.roll_sight(viewer, r)}
        assert {r.pk for r in selectors.rolls_for(viewer, campaign)} == shown, viewer
        sights.update((viewer.role, policy.roll_sight(viewer, r)) for r in every)
    # Each answer is there to be told apart: none, the announcement, all.
    assert {("player", None), ("player", policy.AS_MADE), ("player", policy.IN_FULL)} <= sights
