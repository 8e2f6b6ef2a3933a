"""Combat through the live room's websocket: the seed's zombie fight end to
end with a pinned tape, every client seeing one event; undo, hidden attacks
and reveals, the turn order, and refusals as error frames."""

import asyncio
import contextlib
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from vtt.tabletop.models import Character

from .battle import (
    ARTIFICE_SHEETS,
    ARTIFICE_WEAPONS,
    ZOMBIE_FIGHT,
    log_in_everyone,
    make_battle,
)

ORIGIN = (b"origin", b"http://testserver")
HOST = (b"host", b"testserver")
TIMEOUT = 3


@pytest.fixture
def table(transactional_db):
    battle = make_battle("artifice", sheets=ARTIFICE_SHEETS, weapons=ARTIFICE_WEAPONS)
    return log_in_everyone(battle)


class Seat:
    """One member's socket: reads frames, keeps what it has not matched yet."""

    def __init__(self, ws):
        self.ws = ws
        self.unread: list[dict] = []

    async def frame(self, predicate, timeout=TIMEOUT) -> dict:
        for i, frame in enumerate(self.unread):
            if predicate(frame):
                return self.unread.pop(i)
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            assert left > 0, f"no matching frame; unread: {self.unread[-5:]}"
            frame = json.loads(await self.ws.receive_from(left))
            if predicate(frame):
                return frame
            self.unread.append(frame)

    async def ask(self, intent: dict) -> dict:
        await self.ws.send_to(text_data=json.dumps(intent))
        return await self.frame(
            lambda f: f["type"] in ("ack", "error") and f.get("id") == intent["id"]
        )

    async def events(self, count: int, quiet=0.2) -> list[dict]:
        """The next `count` room events, then a check that no other follows."""
        is_event = lambda f: f["type"] == "event"  # noqa: E731
        events = [(await self.frame(is_event))["event"] for _ in range(count)]
        await self.settle(quiet)
        extra = [f for f in self.unread if is_event(f)]
        assert not extra, f"more events than expected: {extra}"
        return events

    async def settle(self, quiet=0.1) -> None:
        while not await self.ws.receive_nothing(quiet):
            self.unread.append(json.loads(await self.ws.receive_from(1)))


@contextlib.asynccontextmanager
async def seating(battle):
    """Seats members of the battle's room, each past its snapshot; every
    socket opened is closed on the way out, and the test's connections."""
    opened = []

    async def sit(name):
        ws = WebsocketCommunicator(
            _application(),
            f"/ws/campaigns/{battle.campaign.pk}/",
            headers=[ORIGIN, HOST, (b"cookie", f"sessionid={battle.cookies[name]}".encode())],
        )
        connected, _ = await ws.connect(timeout=TIMEOUT)
        assert connected
        opened.append(ws)
        seat = Seat(ws)
        await seat.frame(lambda f: f["type"] == "snapshot")
        return seat

    try:
        yield sit
    finally:
        for ws in opened:
            with contextlib.suppress(Exception):
                await ws.disconnect()
        await database_sync_to_async(connections.close_all)()


@pytest.fixture
async def seats(table):
    async with seating(table) as sit:

        async def sit_all(*names):
            return [await sit(name) for name in names]

        yield sit_all


def _application():
    from vtt.asgi import application

    return application


@pytest.mark.django_db(transaction=True)
async def test_the_zombie_fight_through_the_websocket(table, seats):
    gm, player, other, observer = await seats("gm", "player", "other", "observer")
    everyone = (gm, player, other, observer)
    ack = await player.ask(
        {
            "type": "attack",
            "id": "swing",
            "attacker_token": table.tokens["tenrec"].pk,
            "target_token": table.tokens["zombie"].pk,
            "weapon": "Long sword",
            "faces": ZOMBIE_FIGHT,
        }
    )
    assert ack["type"] == "ack", ack
    for seat in everyone:
        (event,) = await seat.events(1)  # one event, nothing else
        assert event["type"] == "combat.attack" and event["seq"] == ack["attack"]["seq"]
        attack = event["data"]["attack"]
        result = attack["steps"][0]["result"]
        combat, wound = result["combat"], result["wound"]
        assert (combat["actor_successes"], combat["opponent_successes"]) == (3, 1)
        assert combat["cascade"] == 2
        assert (wound["actor_pool"], wound["opponent_pool"]) == (6, 3)
        assert (wound["actor_successes"], wound["opponent_successes"]) == (4, 1)
        assert result["condition_steps"] == 3
        assert attack["changes"][0]["before"] == "Healthy"
        assert attack["changes"][0]["after"] == "Wounded"
    zombie = await database_sync_to_async(Character.objects.get)(pk=table.characters["zombie"].pk)
    assert zombie.resources["condition"] == "Wounded"

    # The GM takes it back: one compensating event for everyone.
    refused = await player.ask({"type": "undo", "id": "u0"})
    assert refused["type"] == "error" and refused["code"] == "forbidden"
    ack = await gm.ask({"type": "undo", "id": "u1", "seq": ack["attack"]["seq"]})
    assert ack["type"] == "ack"
    for seat in everyone:
        (event,) = await seat.events(1)
        assert event["type"] == "undo"
        assert event["data"]["changes"][0]["after"] == "Healthy"


@pytest.mark.django_db(transaction=True)
async def test_a_hidden_attack_reaches_players_when_revealed(table, seats):
    gm, player = await seats("gm", "player")
    ack = await gm.ask(
        {
            "type": "attack",
            "id": 1,
            "attacker_token": table.tokens["zombie"].pk,
            "target_token": table.tokens["tenrec"].pk,
            "weapon": "Claws",
            "visibility": "gm",
        }
    )
    seq = ack["attack"]["seq"]
    (seen,) = await player.events(1)
    assert seen == {"seq": seq, "type": "redacted"}
    (gm_seen,) = await gm.events(1)
    assert gm_seen["type"] == "combat.attack"
    refused = await player.ask({"type": "reveal", "id": 2, "seq": seq})
    assert refused["code"] == "forbidden"
    await gm.ask({"type": "reveal", "id": 3, "seq": seq})
    (shown,) = await player.events(1)
    assert shown["type"] == "reveal" and shown["data"]["of_seq"] == seq
    assert shown["data"]["data"]["attack"]["id"] == ack["attack"]["id"]


@pytest.mark.django_db(transaction=True)
async def test_turn_order_is_broadcast(table, seats):
    gm, player = await seats("gm", "player")
    refused = await player.ask({"type": "encounter.start", "id": 1})
    assert refused["type"] == "error" and refused["code"] == "forbidden"
    started = await gm.ask({"type": "encounter.start", "id": 2})
    assert started["type"] == "ack" and started["encounter"]["round"] == 1
    rolled = await gm.ask({"type": "encounter.initiative", "id": 3, "faces": [4, 2, 1, 2, 5, 5]})
    assert [c["name"] for c in rolled["encounter"]["order"]] == ["Kobor", "Tenrec", "Zombie"]
    for i in range(3):  # each its own id: a repeated id is answered, not carried out again
        await gm.ask({"type": "encounter.next", "id": f"n{i}"})
    turned = await gm.ask({"type": "encounter.next", "id": "n4"})
    assert turned["encounter"]["round"] == 2
    kinds = [e["type"] for e in await player.events(6)]
    assert kinds == ["encounter.started", "encounter.initiative"] + ["encounter.turn"] * 4


@pytest.mark.django_db(transaction=True)
async def test_combat_intents_are_checked_like_any_other(table, seats):
    (player,) = await seats("player")
    unknown = await player.ask({"type": "attack", "id": 1, "attacker_token": 1, "dice": 3})
    assert (unknown["type"], unknown["code"]) == ("error", "unknown_field")
    far = await player.ask(
        {
            "type": "attack",
            "id": 2,
            "attacker_token": table.tokens["tenrec"].pk,
            "target_token": table.tokens["kobor"].pk,
        }
    )
    assert (far["code"], far["field"]) == ("out_of_range", "target_token")
    moved = await player.ask(
        {"type": "token.move", "id": 3, "token": table.tokens["tenrec"].pk, "x": 6, "y": 6}
    )
    assert moved["type"] == "ack"
    reset = await player.ask({"type": "token.reset", "id": 4, "token": table.tokens["tenrec"].pk})
    assert (reset["token"]["x"], reset["token"]["y"]) == (4, 4)
    events = await player.events(2)
    assert [e["type"] for e in events] == ["token.moved", "token.moved"]
    assert events[1]["data"]["reset"] is True
