"""An attack against every token in an area template: the server picks the
targets (inside the template, seen by the attacker's member, never the
attacker), adjudicates each once through the one attack service, passes
over those the rules cannot attack, and keeps nothing when it refuses."""

import pytest
from django.test import Client

from tests import factories
from vtt.areas import services as areas
from vtt.combat.models import Attack
from vtt.combat.services import area_attacks
from vtt.combat.services.area_attacks import area_attack
from vtt.tabletop.models import RoomEvent
from vtt.tabletop.services.errors import NotFound, ServiceError

from .battle import ARTIFICE_SHEETS, ARTIFICE_WEAPONS, make_battle

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle():
    """Tenrec (4, 4), the zombie (5, 5), Kobor (2, 2); a ghoul (6, 5) and a
    sheetless crate (5, 6) beside the zombie, a hidden wight at (6, 6)."""
    b = make_battle("artifice", sheets=ARTIFICE_SHEETS, weapons=ARTIFICE_WEAPONS)
    gm = b.users["gm"]
    ghoul = factories.character(
        b.campaign, gm, "Ghoul", kind="npc", sheet=ARTIFICE_SHEETS["zombie"]
    )
    wight = factories.character(
        b.campaign, gm, "Wight", kind="npc", sheet=ARTIFICE_SHEETS["zombie"]
    )
    b.tokens["ghoul"] = factories.token(b.scene, gm, "Ghoul", 6, 5, character_id=ghoul.pk)
    b.tokens["crate"] = factories.token(b.scene, gm, "Crate", 5, 6)
    b.tokens["wight"] = factories.token(
        b.scene, gm, "Wight", 6, 6, character_id=wight.pk, hidden=True
    )
    return b


def burst(b, by="other", **fields):
    """A 10-ft burst on the corner (6, 6): the zombie, the ghoul, the crate
    and the wight stand in it; Tenrec and Kobor do not."""
    spec = {"shape": "circle", "x": 6, "y": 6, "size": 2, **fields}
    return areas.template_place(scene_id=b.scene.pk, by=b.users[by], **spec)


def kobor_casts(b, template, by="other", **kwargs):
    return area_attack(
        by=b.users[by],
        attacker_token_id=b.tokens["kobor"].pk,
        template_id=template.pk,
        weapon="Frost ray",
        **kwargs,
    )


def test_each_token_seen_in_the_template_is_attacked_once(battle):
    template = burst(battle)
    made = kobor_casts(battle, template)
    targets = sorted(a.target_token.name for a in made.attacks)
    # The wight is hidden from the player: never a target of theirs.
    assert targets == ["Ghoul", "Zombie"]
    assert [p["name"] for p in made.passed_over] == ["Crate"]
    assert made.passed_over[0]["code"] == "no_character"
    attacks = Attack.objects.filter(attacker_token=battle.tokens["kobor"])
    assert attacks.count() == 2
    # One adjudication per target: each its own steps, draw and event.
    for attack in attacks:
        assert attack.steps and attack.steps[0]["step"] == "attack"
        assert attack.event.kind == "combat.attack"
    assert len({a.draw["roll"] for a in attacks}) == 2


def test_the_gm_attacks_what_the_gm_sees_and_never_the_attacker(battle):
    template = burst(battle, by="gm", x=5, y=5, size=4)
    made = area_attack(
        by=battle.users["gm"],
        attacker_token_id=battle.tokens["zombie"].pk,
        template_id=template.pk,
        weapon="Claws",
    )
    hit = {a.target_token.name for a in made.attacks}
    passed = {p["name"]: p["code"] for p in made.passed_over}
    # The zombie's claws reach the squares beside it: the ghoul, Tenrec
    # and the wight; Kobor is out of reach, the crate has no sheet.
    assert "Zombie" not in hit | set(passed)
    assert hit == {"Ghoul", "Tenrec", "Wight"}
    assert passed == {"Crate": "no_character", "Kobor": "out_of_range"}


def test_a_refusal_keeps_nothing(battle):
    template = burst(battle)
    before = RoomEvent.objects.filter(campaign=battle.campaign).count()
    with pytest.raises(ServiceError) as refused:
        # Tenrec is not Kobor's player's to attack with.
        area_attack(
            by=battle.users["other"],
            attacker_token_id=battle.tokens["tenrec"].pk,
            template_id=template.pk,
        )
    assert refused.value.field == "attacker_token"
    empty = burst(battle, x=20, y=20)
    with pytest.raises(ServiceError) as nobody:
        kobor_casts(battle, empty)
    assert nobody.value.code == "no_targets"
    assert not Attack.objects.exists()
    # Only the second template's placing was logged.
    assert RoomEvent.objects.filter(campaign=battle.campaign).count() == before + 1


def test_a_template_the_player_does_not_see_is_no_such_template(battle):
    secret = burst(battle, by="gm", gm_only=True)
    with pytest.raises(NotFound) as refused:
        kobor_casts(battle, secret)
    assert refused.value.field == "template"
    assert not Attack.objects.exists()


def test_rest_attacks_a_template_and_refuses_a_bad_id(battle):
    template = burst(battle)
    client = Client()
    client.force_login(battle.users["other"])
    body = {
        "attacker_token": battle.tokens["kobor"].pk,
        "template": template.pk,
        "weapon": "Frost ray",
    }
    made = client.post("/api/combat/attacks/area/", body, content_type="application/json")
    assert made.status_code == 201, made.content
    answer = made.json()
    assert sorted(a["target"]["name"] for a in answer["attacks"]) == ["Ghoul", "Zombie"]
    assert answer["passed_over"][0]["name"] == "Crate"
    bad = client.post(
        "/api/combat/attacks/area/", {**body, "template": "all"}, content_type="application/json"
    )
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "template"
    assert Attack.objects.count() == 2


def test_a_crowd_past_the_bound_is_refused_whole(battle, monkeypatch):
    # The bound lowered to two: the player sees three tokens in the burst.
    monkeypatch.setattr(area_attacks, "MAX_TARGETS", 2)
    with pytest.raises(ServiceError) as refused:
        kobor_casts(battle, burst(battle))
    assert refused.value.code == "too_many" and refused.value.field == "template"
    assert "holds 3 tokens" in refused.value.message
    assert not Attack.objects.exists()
