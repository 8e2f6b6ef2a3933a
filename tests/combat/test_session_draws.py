"""Combat throws its dice from the play session as every roll does
(docs/dice.md): an attack is one draw across its steps, each combatant's
initiative its own."""

import pytest

from vtt.combat.services.encounters import encounter_roll_initiative, encounter_start
from vtt.combat.services.reactions import react
from vtt.dice import roll_adjudicate
from vtt.rules.session_dice import faces
from vtt.tabletop.models import PlaySession, RoomEvent
from vtt.tabletop.services.errors import ServiceError

from .battle import attack
from .test_attacks_games import fgr  # noqa: F401 (fixture)

NONCE = "feedfacecafebeef0011223344556677"


def seed(battle) -> bytes:
    return bytes(PlaySession.objects.get(campaign=battle.campaign, ended_at=None).seed)


def thrown(steps) -> list[int]:
    return [d["face"] for step in steps for d in step["result"]["dice"]]


def test_an_attacks_steps_are_one_draw_in_order(battle):
    roll_adjudicate(
        campaign_id=battle.campaign.pk,
        by=battle.users["player"],
        request={"system": "artifice", "action": "check", "pool": 2, "difficulty": 1},
    )
    made = attack(battle, weapon="Long sword", nonce=NONCE)
    assert made.draw == {"session": 1, "roll": 2, "nonce": NONCE, "nonce_by": "roller"}
    dice = thrown(made.steps)
    assert dice and dice == faces(seed(battle), 1, 2, NONCE, len(dice))
    event = RoomEvent.objects.get(kind="combat.attack")
    assert event.data["attack"]["draw"] == made.draw


def test_an_attack_without_a_nonce_gets_the_servers(battle):
    made = attack(battle, weapon="Long sword")
    assert made.draw["nonce_by"] == "server" and len(made.draw["nonce"]) == 32


def test_an_attack_on_physical_dice_is_not_derived(battle):
    # A miss: the Combat Test alone, Tenrec's 4D of ones against the zombie's 2D.
    made = attack(battle, weapon="Long sword", faces=[1, 1, 1, 1, 6, 6])
    assert made.outcome == "miss"
    assert made.physical and made.draw == {"session": 1, "roll": 1, "physical": True}


def test_a_bad_nonce_stops_the_attack(battle):
    with pytest.raises(ServiceError) as refused:
        attack(battle, weapon="Long sword", nonce="nope")
    assert refused.value.field == "nonce"
    assert not RoomEvent.objects.filter(kind="combat.attack").exists()


def test_each_combatants_initiative_is_its_own_draw(battle):
    encounter = encounter_start(scene_id=battle.scene.pk, by=battle.users["gm"])
    encounter_roll_initiative(encounter_id=encounter.pk, by=battle.users["gm"], nonce=NONCE)
    rolls = RoomEvent.objects.get(kind="encounter.initiative").data["rolls"]
    assert [r["draw"]["roll"] for r in rolls] == [1, 2, 3]
    for r in rolls:
        dice = [d["face"] for d in r["result"]["dice"]]
        assert r["draw"]["nonce"] == NONCE
        assert dice == faces(seed(battle), 1, r["draw"]["roll"], NONCE, len(dice))


def test_reducing_damage_throws_no_dice_and_takes_no_number(fgr):  # noqa: F811
    made = attack(
        fgr, by="gm", attacker="zombie", target="tenrec", weapon="Bite", faces=[3, 4, 1, 3, 4]
    )
    done = react(
        reaction="reduce_damage",
        attack_id=made.pk,
        by=fgr.users["player"],
        values={"action_points": 2},
    )
    assert done.steps[-1]["result"]["dice"] == []
    assert PlaySession.objects.get(campaign=fgr.campaign).rolls == 1
