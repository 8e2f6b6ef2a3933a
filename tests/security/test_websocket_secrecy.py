"""The live room (/ws/campaigns/<id>/) as a curious player and an observer
see it: the snapshot, the pages of a reconnect, live events while the GM
does secret things, presence, and the error frames of probing intents.
Every frame is scanned for the GM's secrets."""

from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async

from tests.live.conftest import session_cookie
from vtt.combat.models import Combatant
from vtt.tabletop import services
from vtt.tabletop.models import RoomEvent, Token

from .conftest import CHECK, DRAGON, LAIR, LURKER, NOT_GM, NOTE, VAMPIRE, leaks, make_secrets

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def room(transactional_db):
    secrets = make_secrets("ws-")
    return SimpleNamespace(
        campaign_id=secrets.campaign.pk,
        cookies={name: session_cookie(user) for name, user in secrets.users.items()},
        s=secrets,
    )


def contiguous(frames: list[dict], after: int) -> int:
    """The log entries in `frames` number after+1, after+2, ... with no gap;
    returns the last."""
    for frame in frames:
        events = frame["events"] if frame["type"] == "resync" else []
        if frame["type"] == "event":
            events = [frame["event"]]
        for event in events:
            assert event["seq"] == after + 1, (event, after)
            after = event["seq"]
    return after


@pytest.mark.parametrize("who", NOT_GM)
async def test_a_fresh_snapshot_carries_no_secret(room, clients, who):
    member = await clients(room, who)
    assert member.first["type"] == "snapshot"
    assert leaks(member.first) == []
    names = {t["name"] for t in member.first["tokens"]}
    assert names == {"Tenrec", "Kobor", "Zombie"}
    # The log tail has every number, the GM's entries redacted.
    log = member.first["log"]
    assert [e["seq"] for e in log] == list(range(log[0]["seq"], member.first["seq"] + 1))


async def test_the_gms_snapshot_has_what_the_scan_looks_for(room, clients):
    gm = await clients(room, "gm")
    assert {LURKER, VAMPIRE} <= set(leaks(gm.first))


@pytest.mark.parametrize("who", ("player", "observer"))
async def test_a_reconnect_from_an_old_seq_pages_no_secret(room, clients, who):
    # From just after the room came to the crypt: every secret lies beyond.
    since = await database_sync_to_async(
        lambda: RoomEvent.objects.get(campaign_id=room.campaign_id, kind="scene.activated").seq
    )()
    member = await clients(room, who, query=f"since={since}")
    assert member.first["type"] == "welcome"
    frames = [member.first]
    while True:
        frame = await member.until(lambda f: f["type"] == "resync")
        frames.append(frame)
        if not frame["more"]:
            break
    assert leaks(frames) == []
    assert contiguous(frames[1:], since) == member.first["seq"]
    # The GM's own history of the same log does carry the secrets.
    gm = await clients(room, "gm", query=f"since={since}")
    page = await gm.until(lambda f: f["type"] == "resync")
    assert {LURKER, VAMPIRE, DRAGON, LAIR} <= set(leaks(page))


async def test_what_the_gm_does_in_secret_reaches_no_player_frame(room, clients):
    s = room.s
    gm = await clients(room, "gm")
    watchers = {who: await clients(room, who) for who in NOT_GM}
    start = gm.first["seq"]
    asks = [
        {"type": "roll", "id": 1, "request": CHECK, "visibility": "gm", "character": s.characters.vampire.pk},
        {"type": "token.create", "id": 2, "name": LURKER + " II", "x": 15, "y": 15, "hidden": True},
        {"type": "token.move", "id": 3, "token": s.tokens.lurker.pk, "x": 1, "y": 2},
        {"type": "token.update", "id": 4, "token": s.tokens.lurker.pk, "changes": {"color": "#000000"}},
        {"type": "token.create", "id": 5, "scene": s.lair.pk, "name": DRAGON + " whelp", "x": 9, "y": 9},
        {"type": "token.move", "id": 6, "token": s.tokens.dragon.pk, "x": 6, "y": 6},
        {"type": "token.update", "id": 7, "token": s.tokens.dragon.pk, "changes": {"name": DRAGON + "!"}},
        {"type": "attack", "id": 8, "attacker_token": s.tokens.lurker.pk,
         "target_token": s.tokens.tenrec.pk, "weapon": "Bite"},
        {"type": "encounter.start", "id": 9},
        {"type": "encounter.initiative", "id": 10},
        {"type": "encounter.next", "id": 11},
        {"type": "undo", "id": 12},  # the dragon's move, on the map still being prepared
        {"type": "token.delete", "id": 13, "token": s.tokens.dragon.pk},
        {"type": "token.hide", "id": 14, "token": s.tokens.zombie.pk},
        {"type": "chat", "id": 15, "text": "The crypt is quiet."},
    ]  # fmt: skip
    for ask in asks:
        reply = await gm.ask(ask)
        assert reply["type"] == "ack", reply
    await database_sync_to_async(services.character_update)(
        character_id=s.characters.vampire.pk, by=s.users["gm"], resources={"condition": "Hurt"}
    )
    await database_sync_to_async(services.character_update)(
        character_id=s.characters.zombie.pk, by=s.users["gm"], gm_notes=NOTE + " (again)"
    )
    last = (await gm.event("character.updated"))["seq"]
    for who, member in watchers.items():
        await member.until(lambda f, last=last: f.get("event", {}).get("seq") == last)
        frames = member.seen
        assert leaks(frames) == [], who
        assert contiguous(frames[1:], start) == last, who
        kinds = [f["event"]["type"] for f in frames if f["type"] == "event"]
        # What players may know of it: the zombie vanishes, the turn order
        # (without the lurker) starts, the chat line.
        assert "token.removed" in kinds and "chat" in kinds and "encounter.started" in kinds
        encounter = next(
            f["event"]["data"]["encounter"]
            for f in frames
            if f["type"] == "event" and f["event"]["type"] == "encounter.started"
        )
        assert s.tokens.lurker.pk not in {c["token_id"] for c in encounter["order"]}
    assert {LURKER, VAMPIRE, DRAGON} <= set(leaks(gm.seen))


async def test_probing_intents_are_answered_without_naming_the_secret(room, clients):
    s = room.s
    gm = await clients(room, "gm")
    await gm.ask({"type": "encounter.start", "id": "e"})
    hidden_combatant = await database_sync_to_async(
        lambda: Combatant.objects.get(token_id=s.tokens.lurker.pk).pk
    )()
    player = await clients(room, "player")
    probes = [
        {"type": "token.move", "token": s.tokens.lurker.pk, "x": 5, "y": 5},
        {"type": "token.drag", "token": s.tokens.lurker.pk, "x": 5, "y": 5},
        {"type": "token.reset", "token": s.tokens.lurker.pk},
        {"type": "attack", "attacker_token": s.tokens.tenrec.pk, "target_token": s.tokens.lurker.pk},
        {"type": "attack.preview", "attacker_token": s.tokens.tenrec.pk,
         "target_token": s.tokens.lurker.pk},
        {"type": "attack.damage", "attack": s.hidden_attack.pk},
        {"type": "reaction", "reaction": "reduce_damage", "attack": s.hidden_attack.pk,
         "values": {"action_points": 0}},
        {"type": "encounter.initiative", "combatants": [hidden_combatant]},
        {"type": "roll", "request": CHECK, "character": s.characters.vampire.pk},
        {"type": "token.move", "token": s.tokens.dragon.pk, "x": 2, "y": 2},
        {"type": "token.move", "token": s.tokens.waiting.pk, "x": 2, "y": 2},
        {"type": "token.drag", "token": s.tokens.waiting.pk, "x": 2, "y": 2},
        {"type": "attack.preview", "attacker_token": s.tokens.waiting.pk,
         "target_token": s.tokens.dragon.pk},
        {"type": "encounter.initiative", "encounter": s.lair_fight.pk},
        {"type": "token.move", "token": s.elsewhere.token.pk, "x": 2, "y": 2},
        {"type": "roll", "request": CHECK, "character": s.elsewhere.character.pk},
    ]  # fmt: skip
    for i, probe in enumerate(probes):
        reply = await player.ask({**probe, "id": i})
        assert reply["type"] == "error", (probe, reply)
        assert reply["code"] == "not_found", (probe, reply)
        assert leaks(reply) == [], (probe, reply)
    assert leaks(player.seen) == []
    await player.send({"type": "ping", "id": "still-here"})
    pong = await player.until(lambda f: f["type"] == "pong")
    assert pong["id"] == "still-here"


async def test_a_player_cannot_move_their_token_on_a_scene_the_room_is_not_on(room, clients):
    s = room.s
    player = await clients(room, "player")
    reply = await player.ask(
        {"type": "token.move", "id": "m", "token": s.tokens.waiting.pk, "x": 4, "y": 4}
    )
    assert reply["code"] == "not_found"
    waiting = await database_sync_to_async(Token.objects.get)(pk=s.tokens.waiting.pk)
    assert (waiting.x, waiting.y, waiting.version) == (1, 1, s.tokens.waiting.version)
    # Once the room is there, the token is theirs to move again.
    gm = await clients(room, "gm")
    assert (await gm.ask({"type": "scene.activate", "id": "a", "scene": s.lair.pk}))[
        "type"
    ] == "ack"
    again = await clients(room, "player")
    reply = await again.ask(
        {"type": "token.move", "id": "m", "token": s.tokens.waiting.pk, "x": 4, "y": 4}
    )
    assert reply["type"] == "ack" and reply["token"]["x"] == 4


async def test_presence_frames_name_only_members(room, clients):
    player = await clients(room, "player")
    await clients(room, "gm")
    await clients(room, "other")
    joined = []
    for _ in range(2):
        frame = await player.until(lambda f: f["type"] == "presence")
        assert set(frame) == {"type", "state", "user"}
        assert set(frame["user"]) == {"id", "name"}
        joined.append(frame["user"]["name"])
    assert sorted(joined) == ["ws-gm", "ws-other"]


async def test_a_stranger_is_closed_before_any_frame_of_the_room(room, clients):
    stranger = await clients(room, "stranger", expect=False)
    closed = await stranger.ws.receive_output(3)
    assert closed == {"type": "websocket.close", "code": 4403}
