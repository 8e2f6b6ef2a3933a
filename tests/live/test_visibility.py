"""Roll visibility and hidden tokens, decided on the server per recipient:
a socket never carries what its member may not see."""

import json

import pytest

from .conftest import TIMEOUT

pytestmark = pytest.mark.django_db(transaction=True)

CHECK = {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2, "faces": [5, 3, 6]}
ROLES = ("gm", "player", "other", "observer")

# visibility -> what each member gets of the player's roll: full, blind (the
# bare announcement) or redacted.
EXPECTED = {
    "public": {"gm": "full", "player": "full", "other": "full", "observer": "full"},
    "gm": {"gm": "full", "player": "redacted", "other": "redacted", "observer": "redacted"},
    "self": {"gm": "full", "player": "full", "other": "redacted", "observer": "redacted"},
    "blind": {"gm": "full", "player": "blind", "other": "redacted", "observer": "redacted"},
}


def kind_of(view: dict) -> str:
    if view["type"] == "redacted":
        return "redacted"
    assert view["type"] == "roll"
    return "blind" if view["data"].get("blind") else "full"


@pytest.mark.parametrize("visibility", list(EXPECTED))
async def test_each_role_sees_a_players_roll_as_its_visibility_allows(room, clients, visibility):
    members = {role: await clients(room, role) for role in ROLES}
    reply = await members["player"].ask(
        {"type": "roll", "id": "r", "request": CHECK, "visibility": visibility}
    )
    assert reply["type"] == "ack" and isinstance(reply["roll_id"], int)
    # Every member receives the same sequence number, whatever they may see of it.
    views = {
        role: (await client.until(lambda f: f["type"] == "event" and f["event"]["seq"] > 0))[
            "event"
        ]
        for role, client in members.items()
    }
    assert len({v["seq"] for v in views.values()}) == 1
    for role, view in views.items():
        assert kind_of(view) == EXPECTED[visibility][role], role
        if kind_of(view) == "full":
            assert view["data"]["result"]["successes"] == 3
            assert view["data"]["visibility"] == visibility
            assert view["data"]["physical"] is True
            assert "3 successes" in view["data"]["sentence"]
        if kind_of(view) == "blind":
            assert view["data"] == {
                "blind": True,
                "roller": {"id": room.users["player"], "name": "player"},
                "system": "artifice",
                "action": "check",
            }
    # Nothing of the result travels in any frame a member may not see in full.
    for role, client in members.items():
        if EXPECTED[visibility][role] != "full":
            raw = json.dumps(client.seen)
            assert '"successes"' not in raw and '"dice"' not in raw, role
            assert '"sentence"' not in raw, role


async def test_a_gm_hidden_check_reaches_the_gm_only(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    await gm.ask({"type": "roll", "id": "h", "request": CHECK, "visibility": "gm"})
    assert (await gm.event("roll"))["data"]["result"]["outcome"] == "success"
    seen = await player.until(lambda f: f["type"] == "event")
    assert seen["event"]["type"] == "redacted"


async def test_hidden_tokens_never_reach_players(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    zombie = room.tokens["zombie"]
    await gm.ask(
        {"type": "token.create", "id": "c", "name": "Ghoul", "x": 5, "y": 5, "hidden": True}
    )
    await gm.ask({"type": "token.move", "id": "m", "token": zombie, "x": 8, "y": 8})
    await gm.ask(
        {"type": "token.update", "id": "u", "token": zombie, "changes": {"name": "Rotting"}}
    )
    gm_events = [await gm.event(k) for k in ("token.created", "token.moved", "token.updated")]
    player_events = [
        (await player.until(lambda f: f["type"] == "event"))["event"] for _ in range(3)
    ]
    assert [e["seq"] for e in gm_events] == [e["seq"] for e in player_events]
    assert all(e == {"seq": e["seq"], "type": "redacted"} for e in player_events)
    raw = json.dumps(player.seen)
    assert "Ghoul" not in raw and "Rotting" not in raw and "Zombie" not in raw


async def test_hiding_a_token_removes_it_for_players_and_revealing_shows_it(room, clients):
    gm = await clients(room, "gm")
    player = await clients(room, "player")
    tenrec = room.tokens["tenrec"]
    await gm.ask({"type": "token.hide", "id": "h", "token": tenrec, "hidden": True})
    assert (await gm.event("token.hidden"))["data"]["token"]["hidden"] is True
    removed = await player.event("token.removed")
    assert removed["data"] == {"token_id": tenrec}
    await gm.ask({"type": "token.hide", "id": "r", "token": tenrec, "hidden": False})
    revealed = await player.event("token.revealed")
    assert (
        revealed["data"]["token"]["id"] == tenrec and revealed["data"]["token"]["hidden"] is False
    )


async def test_a_player_cannot_drag_or_move_a_hidden_token(room, clients):
    player = await clients(room, "player")
    zombie = room.tokens["zombie"]
    moved = await player.ask({"type": "token.move", "id": "m", "token": zombie, "x": 2, "y": 2})
    assert moved["code"] == "not_found"
    dragged = await player.ask({"type": "token.drag", "id": "d", "token": zombie, "x": 2, "y": 2})
    assert dragged["code"] == "not_found"


async def test_drags_of_a_hidden_token_reach_gms_only(room, clients):
    gm = await clients(room, "gm")
    gm2 = await clients(room, "gm")
    player = await clients(room, "player")
    await gm.send({"type": "token.drag", "token": room.tokens["zombie"], "x": 3, "y": 3})
    drag = await gm2.until(lambda f: f["type"] == "token.drag", TIMEOUT)
    assert drag["token"] == room.tokens["zombie"]
    frames = await player.drain(0.3)
    assert not [f for f in frames if f["type"] == "token.drag"]
