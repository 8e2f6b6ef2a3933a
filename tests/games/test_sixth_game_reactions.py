"""A game's reactions are its kit's alone: Strain Sixes (tests/games/sixes.py)
declares two, Grit spent against a hit ("brace") and all Grit spent to come
back from Broken ("steady"), on a wound track of a kind of its own, and the
table's one reaction service, REST endpoint and intent carry them out with
nothing outside that module changed."""

import pytest
from rest_framework.test import APIClient

from tests.combat.battle import log_in_everyone, make_battle
from tests.combat.test_live import seating
from vtt import games
from vtt.combat.services.attacks import attack_make
from vtt.combat.services.reactions import react
from vtt.combat.services.undo import undo_last
from vtt.tabletop.models import Character, RoomEvent
from vtt.tabletop.services import character_update
from vtt.tabletop.services.errors import NotAllowed, ServiceError

from . import sixes

CLUB = [{"name": "Club", "kind": "melee", "damage": 0}]
TWO_HITS = [6, 6]  # the zombie's Fight 2: both dice hit, a club adds nothing


def strain_battle():
    return make_battle(
        sixes.STRAIN_KIT.id, sheets={"zombie": {"skills": {"Fight": 2}}}, weapons={"zombie": CLUB}
    )


@pytest.fixture
def strain_game():
    unregister = games.register(sixes.STRAIN_KIT)
    yield sixes.STRAIN_KIT
    unregister()


@pytest.fixture
def pit(strain_game, db):
    return strain_battle()


def hit_tenrec(battle):
    return attack_make(
        by=battle.users["gm"],
        attacker_token_id=battle.tokens["zombie"].pk,
        target_token_id=battle.tokens["tenrec"].pk,
        weapon="Club",
        faces=TWO_HITS,
    )


def resources(battle, key="tenrec"):
    return Character.objects.get(pk=battle.characters[key].pk).resources


def broken(battle, grit=2, key="tenrec"):
    """A character Broken (Strain 6, out of the fight) with some Grit left."""
    character_update(
        character_id=battle.characters[key].pk,
        by=battle.users["gm"],
        resources={"grit": grit, "strain": 6},
    )


def test_the_kit_declares_both_for_the_browser(strain_game):
    spec = strain_game.browser()
    assert spec["reaction"]["id"] == "brace" and spec["reaction"]["field"] == "grit"
    assert spec["reaction"]["label"] == "Grit"
    assert [action["id"] for action in spec["turn_actions"]] == ["steady"]
    assert spec["wound_track"]["kind"] == "strain"


def test_grit_against_a_hit_through_the_service(pit):
    made = hit_tenrec(pit)
    assert (made.status, made.damage) == ("awaiting_defender", 2)
    for who in ("other", "observer"):
        with pytest.raises(NotAllowed):
            react(reaction="brace", attack_id=made.pk, by=pit.users[who], values={"grit": 1})
    for values, code, field in (
        ({"grit": 3}, "invalid", "grit"),  # more than the damage
        ({"grit": 51}, "invalid", "grit"),  # past the declared bound
        ({"grit": "one"}, "invalid", "grit"),
        ({"luck": 1}, "unknown_field", "values.luck"),
    ):
        with pytest.raises(ServiceError) as caught:
            react(reaction="brace", attack_id=made.pk, by=pit.users["player"], values=values)
        assert (caught.value.code, caught.value.field) == (code, field), values
    with pytest.raises(ServiceError) as caught:
        react(reaction="steady", attack_id=made.pk, by=pit.users["player"])
    assert caught.value.field == "attack"
    character_update(
        character_id=pit.characters["tenrec"].pk, by=pit.users["gm"], resources={"grit": 1}
    )
    with pytest.raises(ServiceError) as caught:
        react(reaction="brace", attack_id=made.pk, by=pit.users["player"], values={"grit": 2})
    assert (caught.value.code, caught.value.field) == ("insufficient_grit", "grit")
    assert resources(pit) == {"grit": 1, "strain": 0}
    before = RoomEvent.objects.count()
    done = react(reaction="brace", attack_id=made.pk, by=pit.users["player"], values={"grit": 1})
    assert done.status == "applied"
    assert done.steps[-1] == {
        "step": "reduce",
        "request": {"damage": 2, "grit": 1},
        "result": {"damage": 1},
    }
    assert resources(pit) == {"grit": 0, "strain": 1}
    (event,) = RoomEvent.objects.all()[before:]
    assert event.kind == "combat.damage"
    assert "Tenrec takes 1 damage after spending 1 Grit." in event.data["attack"]["sentence"]
    # Undo puts the Grit and the Strain back, and the attack waits again.
    undo_last(campaign_id=pit.campaign.pk, by=pit.users["gm"])
    assert resources(pit) == {"grit": 1, "strain": 0}
    made.refresh_from_db()
    assert made.status == "awaiting_defender" and made.steps[-1]["step"] == "attack"


def test_steady_from_broken_through_the_service(pit):
    broken(pit)
    with pytest.raises(NotAllowed):
        react(reaction="steady", character_id=pit.characters["tenrec"].pk, by=pit.users["other"])
    saved = react(
        reaction="steady", character_id=pit.characters["tenrec"].pk, by=pit.users["player"]
    )
    assert saved.resources == {"grit": 0, "strain": 2}
    event = RoomEvent.objects.latest("seq")
    assert event.kind == "character.updated"
    assert event.data["character"]["wounds"]["state"] == "Shaken"
    with pytest.raises(ServiceError) as caught:
        react(reaction="steady", character_id=pit.characters["tenrec"].pk, by=pit.users["gm"])
    assert (caught.value.code, caught.value.field) == ("not_broken", "character")
    undo_last(campaign_id=pit.campaign.pk, by=pit.users["gm"])
    assert resources(pit) == {"grit": 2, "strain": 6}


def test_over_rest(pit):
    client = APIClient()
    client.force_authenticate(pit.users["player"])
    made = hit_tenrec(pit)
    url = "/api/combat/reactions/"
    bad = client.post(
        url, {"reaction": "brace", "attack": made.pk, "values": {"grit": 9}}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "grit"
    unknown = client.post(url, {"reaction": "dodge", "attack": made.pk}, format="json")
    assert unknown.status_code == 400
    assert (unknown.json()["error"]["code"], unknown.json()["error"]["field"]) == (
        "no_reaction",
        "reaction",
    )
    assert resources(pit) == {"grit": 3, "strain": 0}
    answer = client.post(
        url, {"reaction": "brace", "attack": made.pk, "values": {"grit": 2}}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "applied"
    assert resources(pit) == {"grit": 1, "strain": 0}
    # The older per-attack URL takes the game's reaction on an attack, the
    # body being its values.
    again = hit_tenrec(pit)
    older = client.post(f"/api/combat/attacks/{again.pk}/reduce/", {"grit": 1}, format="json")
    assert older.status_code == 200, older.content
    assert resources(pit) == {"grit": 0, "strain": 1}
    broken(pit)
    steadied = client.post(
        url, {"reaction": "steady", "character": pit.characters["tenrec"].pk}, format="json"
    )
    assert steadied.status_code == 200, steadied.content
    body = steadied.json()
    assert body["resources"] == {"grit": 0, "strain": 2} and "gm_notes" not in body
    assert body["wounds"]["state"] == "Shaken"


@pytest.fixture
def live_pit(strain_game, transactional_db):
    """Tenrec's hit waiting for his player, and Kobor (the other player's)
    Broken, before anyone sits down."""
    battle = log_in_everyone(strain_battle())
    battle.attack = hit_tenrec(battle)
    broken(battle, key="kobor")
    return battle


@pytest.fixture
async def seat(live_pit):
    async with seating(live_pit) as sit:
        yield sit


@pytest.mark.django_db(transaction=True)
async def test_over_the_websocket(live_pit, seat):
    player, other = await seat("player"), await seat("other")
    ask = {"type": "reaction", "reaction": "brace", "attack": live_pit.attack.pk}
    refused = await other.ask({**ask, "id": "o1", "values": {"grit": 1}})
    assert (refused["type"], refused["code"]) == ("error", "forbidden")
    bad = await player.ask({**ask, "id": "p0", "values": {"grit": 5}})
    assert (bad["type"], bad["field"]) == ("error", "grit")
    ack = await player.ask({**ask, "id": "p1", "values": {"grit": 1}})
    assert ack["type"] == "ack", ack
    assert ack["attack"]["status"] == "applied"
    for seated in (player, other):
        (event,) = await seated.events(1)
        assert event["type"] == "combat.damage"
    kobor = live_pit.characters["kobor"].pk
    steady = {"type": "reaction", "reaction": "steady", "character": kobor}
    mine = await player.ask({**steady, "id": "p2"})
    assert (mine["type"], mine["code"]) == ("error", "forbidden")
    steadied = await other.ask({**steady, "id": "o2"})
    assert steadied["type"] == "ack", steadied
    assert steadied["character"]["wounds"]["state"] == "Shaken"
    for seated in (player, other):
        (event,) = await seated.events(1)
        assert event["type"] == "character.updated"
    # Not Broken any more: an error frame, and the socket stays open.
    again = await other.ask({**steady, "id": "o3"})
    assert (again["type"], again["code"], again["field"]) == ("error", "not_broken", "character")
    still = await other.ask({"type": "chat", "id": "o4", "text": "still here"})
    assert still["type"] == "ack"
