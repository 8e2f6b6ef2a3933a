"""The sheet editor offers the combat roles of the game with the sheet's
own skills, saves a mapping, and shows a refusal on its select. Artifice,
whose combat reads abilities, has no such section."""

import pytest

from tests import factories
from vtt.tabletop import services
from vtt.tabletop.models import Character

from .test_characters import form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def hero(users):
    campaign = factories.campaign(users["gm"], name="Keep", game="fgr")
    factories.invited(campaign, users["gm"], users["player"])
    return factories.character(
        campaign,
        users["gm"],
        "Bran",
        owner_id=users["player"].pk,
        sheet={"skills": {"Swordplay": 3, "Bowyer": 2}},
    )


def url(character):
    return f"/campaigns/{character.campaign_id}/characters/{character.pk}/"


def combat_inputs(page):
    (section,) = [s for s in page.context["sections"] if s.name == "sheet.combat"]
    return {item.name: item for item in section.items}


def test_the_editor_offers_each_role_with_the_sheets_skills(hero, as_user):
    page = as_user("player").get(url(hero))
    inputs = combat_inputs(page)
    assert list(inputs) == [
        "sheet.combat.melee_attack",
        "sheet.combat.missile_attack",
        "sheet.combat.spell_attack",
        "sheet.combat.initiative",
    ]
    melee = inputs["sheet.combat.melee_attack"]
    assert (melee.label, melee.kind, melee.choices) == (
        "Melee attack",
        "choice",
        ("", "Bowyer", "Swordplay"),
    )
    assert "Melee, Melee Combat, Fighting" in melee.help
    html = page.content.decode()
    assert 'name="sheet.combat.melee_attack"' in html and "Combat skills" in html


def test_a_player_maps_a_role_and_clears_it(hero, as_user):
    client = as_user("player")
    data = form_data(client.get(url(hero)))
    data["sheet.combat.melee_attack"] = "Swordplay"
    assert client.post(url(hero), data).status_code == 302
    hero.refresh_from_db()
    assert hero.sheet == {
        "skills": {"Swordplay": 3, "Bowyer": 2},
        "combat": {"melee_attack": "Swordplay"},
    }
    page = client.get(url(hero))
    assert combat_inputs(page)["sheet.combat.melee_attack"].value == "Swordplay"
    data = form_data(page)
    data["sheet.combat.melee_attack"] = ""
    assert client.post(url(hero), data).status_code == 302
    hero.refresh_from_db()
    assert hero.sheet == {"skills": {"Swordplay": 3, "Bowyer": 2}}


def test_a_mapping_to_a_skill_the_sheet_lacks_is_shown_on_its_select(hero, as_user):
    client = as_user("player")
    data = form_data(client.get(url(hero)))
    data["sheet.combat.missile_attack"] = "Archery"
    page = client.post(url(hero), data)
    assert page.status_code == 400
    assert combat_inputs(page)["sheet.combat.missile_attack"].error.startswith(
        "sheet.combat.missile_attack: must name one of the sheet's skills"
    )
    hero.refresh_from_db()
    assert "combat" not in hero.sheet


def test_artifice_has_no_combat_skills_section(campaign, users, as_user):
    tenrec = services.character_create(
        campaign_id=campaign.pk, by=users["gm"], name="Tenrec", owner_id=users["player"].pk
    )
    page = as_user("player").get(url(tenrec))
    assert not [s for s in page.context["sections"] if s.name == "sheet.combat"]
    assert Character.objects.get(pk=tenrec.pk).sheet.get("combat") is None
