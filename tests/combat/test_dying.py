"""Xero Sum: at 0 Wound Points a character is Dying, and its player (or the
GM) may give up every Insight Die to recover one Wound Point and one
Resilience Point per die and be saved: through the service, REST and the
websocket, one transaction and one room event, refused with a field error
when the character is not Dying or has no Insight Die; undo puts it back."""

import pytest
from rest_framework.test import APIClient

from vtt.combat.services.reactions import react
from vtt.combat.services.undo import undo_last
from vtt.tabletop.models import Character, RoomEvent
from vtt.tabletop.services import character_update
from vtt.tabletop.services.errors import NotAllowed, NotFound, ServiceError

from .battle import log_in_everyone, make_battle
from .test_live import seating

SAVE = "save_from_dying"  # Xero Sum's reaction on a Dying character
DYING = {"insight_dice": 3, "wound_points": 0, "resilience_points": 1, "experience": 4}


def set_resources(battle, key, **resources):
    """The GM sets them, as at the table (so undo knows what came before)."""
    character_update(
        character_id=battle.characters[key].pk, by=battle.users["gm"], resources=resources
    )


def resources(battle, key):
    return Character.objects.get(pk=battle.characters[key].pk).resources


@pytest.fixture
def wasteland(db):
    battle = make_battle("xerosum")
    set_resources(battle, "tenrec", **DYING)
    set_resources(battle, "zombie", **DYING)
    return battle


def save(battle, who, key="tenrec"):
    return react(
        reaction="save_from_dying", character_id=battle.characters[key].pk, by=battle.users[who]
    )


def test_the_owner_spends_every_insight_die_to_be_saved(wasteland):
    before = RoomEvent.objects.count()
    saved = save(wasteland, "player")
    assert saved.resources == {
        "insight_dice": 0,
        "wound_points": 3,
        "resilience_points": 4,
        "experience": 4,
    }
    assert resources(wasteland, "tenrec") == saved.resources
    (event,) = RoomEvent.objects.all()[before:]
    assert event.kind == "character.updated" and event.visibility == "public"
    assert event.data["character"]["wounds"]["state"] == "Wounded"
    assert event.data["character"]["resources"]["insight_dice"] == 0


def test_the_gm_may_save_anyone_and_undo_it(wasteland):
    save(wasteland, "gm", "zombie")
    event = RoomEvent.objects.latest("seq")
    assert event.visibility == "gm"  # an NPC's resources are the GM's
    undo_last(campaign_id=wasteland.campaign.pk, by=wasteland.users["gm"])
    assert resources(wasteland, "zombie") == DYING


@pytest.mark.parametrize(
    ("who", "key", "refusal"),
    [
        ("other", "tenrec", NotAllowed),  # another player's character
        ("observer", "tenrec", NotAllowed),
        ("player", "zombie", NotFound),  # NPCs do not exist for players
        ("stranger", "tenrec", NotFound),
    ],
)
def test_only_the_owner_or_a_gm(wasteland, who, key, refusal):
    with pytest.raises(refusal):
        save(wasteland, who, key)
    assert resources(wasteland, key) == DYING


@pytest.mark.parametrize(
    ("change", "code"),
    [({"wound_points": 2}, "not_dying"), ({"insight_dice": 0}, "insufficient_insight_dice")],
)
def test_refused_with_a_field_error_and_nothing_written(wasteland, change, code):
    set_resources(wasteland, "tenrec", **{**DYING, **change})
    before = RoomEvent.objects.count()
    with pytest.raises(ServiceError) as caught:
        save(wasteland, "player")
    assert (caught.value.code, caught.value.field) == (code, "character")
    assert resources(wasteland, "tenrec") == {**DYING, **change}
    assert RoomEvent.objects.count() == before


def test_a_game_without_a_rescue_refuses(battle):
    with pytest.raises(ServiceError) as caught:
        react(
            reaction="save_from_dying",
            character_id=battle.characters["tenrec"].pk,
            by=battle.users["player"],
        )
    assert (caught.value.code, caught.value.field) == ("no_reaction", "reaction")
    client = APIClient()
    client.force_authenticate(battle.users["player"])
    url = f"/api/combat/characters/{battle.characters['tenrec'].pk}/save-from-dying/"
    answer = client.post(url)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "no_reaction"


def test_over_rest(wasteland):
    url = f"/api/combat/characters/{wasteland.characters['tenrec'].pk}/save-from-dying/"
    client = APIClient()
    client.force_authenticate(wasteland.users["other"])
    assert client.post(url).status_code == 403
    client.force_authenticate(wasteland.users["player"])
    answer = client.post(url)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["resources"]["wound_points"] == 3 and "gm_notes" not in body
    assert body["wounds"] == {"state": "Wounded", "out": False, "dead": False, "hurt": True}
    again = client.post(url)
    assert again.status_code == 400
    assert again.json()["error"] == {
        "code": "not_dying",
        "message": again.json()["error"]["message"],
        "field": "character",
    }
    zombie = f"/api/combat/characters/{wasteland.characters['zombie'].pk}/save-from-dying/"
    assert client.post(zombie).status_code == 404


@pytest.fixture
def live_wasteland(transactional_db):
    battle = make_battle("xerosum")
    set_resources(battle, "tenrec", **DYING)
    return log_in_everyone(battle)


@pytest.fixture
async def seat(live_wasteland):
    async with seating(live_wasteland) as sit:
        yield sit


@pytest.mark.django_db(transaction=True)
async def test_over_the_websocket(live_wasteland, seat):
    player, other = await seat("player"), await seat("other")
    tenrec = live_wasteland.characters["tenrec"].pk
    refused = await other.ask(
        {"type": "reaction", "id": "o1", "reaction": SAVE, "character": tenrec}
    )
    assert (refused["type"], refused["code"]) == ("error", "forbidden")
    bad = await player.ask({"type": "reaction", "id": "p0", "reaction": SAVE, "character": "me"})
    assert (bad["type"], bad["field"]) == ("error", "character")
    ack = await player.ask({"type": "reaction", "id": "p1", "reaction": SAVE, "character": tenrec})
    assert ack["type"] == "ack", ack
    assert ack["character"]["wounds"]["state"] == "Wounded"
    for seated in (player, other):
        (event,) = await seated.events(1)
        assert event["type"] == "character.updated"
        assert event["data"]["character"]["resources"]["insight_dice"] == 0
    # Not Dying any more: an error frame, and the socket stays open.
    again = await player.ask(
        {"type": "reaction", "id": "p2", "reaction": SAVE, "character": tenrec}
    )
    assert (again["type"], again["code"], again["field"]) == ("error", "not_dying", "character")
    still = await player.ask({"type": "chat", "id": "p3", "text": "still here"})
    assert still["type"] == "ack"
