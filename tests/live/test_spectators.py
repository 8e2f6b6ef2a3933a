"""A spectator's socket (vtt.live.spectating): it enters by its link, sees
the room as the party does, may not act (every intent refused, the socket
kept, nothing stored), is counted in the room's presence and not named,
and is closed when its link is revoked or expires."""

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils import timezone

from vtt.live import protocol
from vtt.live.limits import INTENT_BURST
from vtt.live.spectating import REFUSAL, SPECTATOR
from vtt.rules.schema import MISSING
from vtt.spectators.models import SpectatorLink
from vtt.spectators.services import link_revoke
from vtt.tabletop.models import RoomEvent, Token

from .spectating import closed_code, hang_up, make_link, watch

pytestmark = pytest.mark.django_db(transaction=True)

CHECK = {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2, "faces": [5, 3, 6]}

RATE_BURST = INTENT_BURST // 2
CANDIDATES = (1, "open", 1.5, True, {}, [], "a")


def required_value(field, name: str):
    """A value the field takes, for a frame that parses (what a service
    would then decide is never asked: the spectator is refused first)."""
    for value in (*getattr(field, "choices", ()), *CANDIDATES):
        try:
            field.clean(value, name)
        except Exception:
            continue
        return value
    raise AssertionError(f"no value for {name}")


def a_frame_of(kind: str) -> dict:
    fields = protocol.INTENTS[kind]
    body = {n: required_value(f, n) for n, f in fields.items() if f.default is MISSING}
    frame = {"type": kind, "id": f"x-{kind}", **body}
    protocol.parse_frame(json.dumps(frame))  # well-formed: only the seat refuses it
    return frame


# Every intent of the protocol but the two that only read (a ping, a resync),
# and the chat's commands, which are intents too.
ACTS = sorted(set(protocol.INTENTS) - {"ping", "resync"})
FRAMES = [a_frame_of(kind) for kind in ACTS] + [
    {"type": "roll", "id": "x-roll-full", "request": CHECK, "visibility": "public"},
    {"type": "chat", "id": "x-whisper", "text": "/w gm psst"},
    {"type": "chat", "id": "x-chat-roll", "text": "/r 3D diff 2"},
]


@database_sync_to_async
def stored(room) -> tuple:
    """What the room holds: its log's length and its tokens' places."""
    tokens = sorted(Token.objects.filter(scene_id=room.scene_id).values_list("pk", "x", "y"))
    return RoomEvent.objects.filter(campaign_id=room.campaign_id).count(), tokens


@database_sync_to_async
def revoke(room, link_id: int) -> None:
    gm = get_user_model().objects.get(pk=room.users["gm"])
    link_revoke(link_id=link_id, by=gm)


async def test_a_spectator_gets_the_partys_snapshot_and_no_hidden_token(room, clients):
    await clients(room, "gm")
    _, token = await make_link(room)
    spectator = await watch(token)
    try:
        snapshot = spectator.first
        assert snapshot["type"] == "snapshot"
        assert snapshot["you"] == {"id": SPECTATOR, "name": "Spectator", "role": "observer"}
        assert snapshot["campaign"]["id"] == room.campaign_id
        raw = json.dumps(snapshot)
        assert "Tenrec" in raw
        assert "Zombie" not in raw  # hidden from players: hidden from spectators
        # A spectator is counted, not named.
        assert snapshot["spectators"] == 1
        assert all(person["id"] != SPECTATOR for person in snapshot["online"])
    finally:
        await hang_up(spectator)


async def test_every_intent_of_a_spectator_is_refused_and_the_socket_kept(room, clients):
    await clients(room, "gm")
    _, token = await make_link(room)
    before = await stored(room)
    # A socket per few frames: the intent rate limit is a member's, too.
    for start in range(0, len(FRAMES), RATE_BURST):
        spectator = await watch(token)
        try:
            for frame in FRAMES[start : start + RATE_BURST]:
                reply = await spectator.ask(frame)
                assert reply["type"] == "error", frame
                assert (reply["code"], reply["message"]) == ("forbidden", REFUSAL), frame
            # The socket is still there: it answers a ping.
            await spectator.send({"type": "ping", "id": "p"})
            assert (await spectator.until(lambda f: f["type"] == "pong"))["id"] == "p"
        finally:
            await hang_up(spectator)
    assert await stored(room) == before  # nothing stored


async def test_a_bad_frame_is_answered_and_the_socket_kept(room, clients):
    _, token = await make_link(room)
    spectator = await watch(token)
    try:
        await spectator.ws.send_to(text_data="{nope")
        error = await spectator.until(lambda f: f["type"] == "error")
        assert error["code"] == "bad_json"
        await spectator.send({"type": "ping", "id": "p"})
        assert (await spectator.until(lambda f: f["type"] == "pong"))["id"] == "p"
    finally:
        await hang_up(spectator)


async def test_an_unknown_token_is_closed_4404(room):
    spectator = await watch("not-a-link-" + "x" * 32, expect=False)
    assert await closed_code(spectator) == protocol.CLOSE_LINK_CLOSED == 4404


async def test_a_revoked_link_closes_its_sockets_and_admits_nobody(room, clients):
    member = await clients(room, "player")
    link_id, token = await make_link(room)
    other_id, other_token = await make_link(room, label="other")
    spectator = await watch(token)
    other = await watch(other_token)
    try:
        await revoke(room, link_id)
        assert await closed_code(spectator) == protocol.CLOSE_LINK_CLOSED
        # The other link's socket stays, and so does the member's.
        await other.send({"type": "ping", "id": "p"})
        assert (await other.until(lambda f: f["type"] == "pong"))["id"] == "p"
        await member.send({"type": "ping", "id": "p"})
        assert (await member.until(lambda f: f["type"] == "pong"))["id"] == "p"
        again = await watch(token, expect=False)
        assert await closed_code(again) == protocol.CLOSE_LINK_CLOSED
    finally:
        await hang_up(spectator)
        await hang_up(other)


@database_sync_to_async
def expire_in(link_id: int, seconds: float) -> None:
    SpectatorLink.objects.filter(pk=link_id).update(
        expires_at=timezone.now() + timedelta(seconds=seconds)
    )


async def test_an_expired_link_admits_nobody_and_closes_at_its_expiry(room, clients):
    link_id, token = await make_link(room, expires_in_minutes=1)
    await expire_in(link_id, 0.5)
    spectator = await watch(token)
    try:
        assert spectator.first["type"] == "snapshot"
        assert await closed_code(spectator) == protocol.CLOSE_LINK_CLOSED
    finally:
        await hang_up(spectator)
    again = await watch(token, expect=False)
    assert await closed_code(again) == protocol.CLOSE_LINK_CLOSED


async def test_members_see_the_count_of_spectators_and_never_a_name(room, clients):
    gm = await clients(room, "gm")
    _, token = await make_link(room)
    spectator = await watch(token)
    counted = await gm.until(lambda f: f["type"] == "presence" and f["state"] == "spectators")
    assert counted["count"] == 1
    second = await watch(token)
    assert second.first["spectators"] == 2
    assert (await gm.until(lambda f: f.get("state") == "spectators"))["count"] == 2
    await hang_up(second)
    assert (await gm.until(lambda f: f.get("state") == "spectators"))["count"] == 1
    await hang_up(spectator)
    assert (await gm.until(lambda f: f.get("state") == "spectators"))["count"] == 0
    joins = [f for f in gm.seen if f["type"] == "presence" and f["state"] == "join"]
    assert all(f["user"]["id"] != SPECTATOR for f in joins)


async def test_a_delayed_link_holds_the_room_back_and_keeps_the_order(room, clients):
    player = await clients(room, "player")
    _, token = await make_link(room, delay_seconds=1)
    spectator = await watch(token, expect=False)
    try:
        # The snapshot is held back too: nothing of the room comes at once,
        # yet the socket answers pings at once.
        await spectator.send({"type": "ping", "id": "p"})
        assert (await spectator.recv())["type"] == "pong"
        snapshot = await spectator.until(lambda f: f["type"] == "snapshot", timeout=5)
        for n in range(3):
            await player.ask(
                {"type": "roll", "id": f"r{n}", "request": CHECK, "visibility": "public"}
            )
        await player.event("roll")
        # The table has it; the spectator not yet.
        assert not [f for f in await spectator.drain(0.2) if f["type"] == "event"]
        seqs = []
        for _ in range(3):
            seqs.append((await spectator.event("roll", timeout=5))["seq"])
        assert seqs == sorted(seqs) and seqs[0] > snapshot["seq"]
    finally:
        await hang_up(spectator)


@database_sync_to_async
def revoke_quietly(link_id: int) -> None:
    """Revoked with no word to the rooms, as if pub/sub had lost it."""
    SpectatorLink.objects.filter(pk=link_id).update(revoked_at=timezone.now())


async def test_a_revocation_whose_word_was_lost_still_closes_the_socket(room, clients, monkeypatch):
    from vtt.live import spectating

    monkeypatch.setattr(spectating, "LINK_CHECK", 0.2)
    link_id, token = await make_link(room)
    spectator = await watch(token)
    await revoke_quietly(link_id)
    assert await closed_code(spectator) == protocol.CLOSE_LINK_CLOSED


def scope_from(address: str, query: bytes = b"v=3") -> dict:
    return {"client": (address, 50000), "headers": [], "query_string": query}


async def test_admission_by_link_version_and_address(room, settings):
    from vtt.live import admission
    from vtt.live.handshake import Refused
    from vtt.live.spectating import admit

    link_id, token = await make_link(room, delay_seconds=5)
    admitted = await admit(scope_from("10.9.0.1", b"v=3&since=4"), token)
    assert (admitted.link["id"], admitted.link["delay_seconds"]) == (link_id, 5)
    assert (admitted.version, admitted.since) == (3, 4)
    assert await admit(scope_from("10.9.0.1", b"v=9"), token) == Refused(protocol.CLOSE_BAD_VERSION)
    unknown = await admit(scope_from("10.9.0.1"), token + "x")
    assert unknown.code == protocol.CLOSE_LINK_CLOSED
    # The connect limit per address is a member's: a loop of reconnects is refused.
    settings.LIVE_CONNECTS_PER_SECOND_PER_ADDRESS = 1
    settings.LIVE_CONNECT_BURST_PER_ADDRESS = 2
    admission.connect_limits.buckets.pop("10.9.0.2", None)
    answers = [await admit(scope_from("10.9.0.2"), token) for _ in range(4)]
    assert [getattr(a, "code", None) for a in answers][-1] == protocol.CLOSE_FLOODING
    assert answers[0].link["id"] == link_id
