"""Character sheets: one editor for every game, the services' limits shown on
the field they concern, and who may edit what."""

import pytest

from tests import factories
from vtt.tabletop import services
from vtt.tabletop.models import Character

pytestmark = pytest.mark.django_db


@pytest.fixture
def tenrec(campaign, users):
    return services.character_create(
        campaign_id=campaign.pk,
        by=users["gm"],
        name="Tenrec",
        owner_id=users["player"].pk,
        gm_notes="secretly royal",
    )


def url(campaign, character=None):
    base = f"/campaigns/{campaign.pk}/characters/"
    return f"{base}{character.pk}/" if character else base


def form_data(page):
    """The editor's current values, as a browser would post them."""
    data = {}
    for field in page.context["form"]:
        if field.value() is not None:
            data[field.html_name] = field.value()

    def walk(node):
        if node.node == "section":
            for item in node.items:
                walk(item)
        elif node.node == "table":
            for row in node.rows:
                for cell in row:
                    walk(cell)
        elif node.kind == "check":
            if node.value:
                data[node.name] = "on"
        else:
            data[node.name] = "" if node.value is None else node.value

    for section in page.context["sections"]:
        walk(section)
    return data


def test_the_list_shows_player_characters_to_players(campaign, users, tenrec, as_user):
    services.character_create(campaign_id=campaign.pk, by=users["gm"], name="Lich", kind="npc")
    page = as_user("player").get(url(campaign)).content.decode()
    assert "Tenrec" in page and "Lich" not in page
    assert "Lich" in as_user("gm").get(url(campaign)).content.decode()


def test_a_player_saves_their_sheet(campaign, tenrec, as_user):
    client = as_user("player")
    page = client.get(url(campaign, tenrec))
    assert b"secretly royal" not in page.content  # GM notes stay with the GM
    data = form_data(page)
    data["sheet.abilities.Might.dice"] = "3"
    data["sheet.skills"] = "Climb\nSwim"
    data["weapons[0].name"] = "Bow"
    data["weapons[0].kind"] = "missile"
    data["weapons[0].range_ft"] = "60"
    saved = client.post(url(campaign, tenrec), data)
    assert saved.status_code == 302
    tenrec.refresh_from_db()
    assert tenrec.sheet["abilities"]["Might"]["dice"] == 3
    assert tenrec.sheet["skills"] == ["Climb", "Swim"]
    assert tenrec.weapons[0]["name"] == "Bow" and tenrec.weapons[0]["range_ft"] == 60
    assert tenrec.gm_notes == "secretly royal"


def test_the_games_limits_come_back_on_the_field(campaign, tenrec, as_user):
    client = as_user("player")
    data = form_data(client.get(url(campaign, tenrec)))
    data["sheet.abilities.Might.dice"] = "5"  # a standard ability stops at 3D
    page = client.post(url(campaign, tenrec), data)
    assert page.status_code == 400
    html = page.content.decode()
    assert 'aria-invalid="true"' in html
    assert "3D" in html
    tenrec.refresh_from_db()
    assert tenrec.sheet["abilities"]["Might"]["dice"] == 1  # nothing was written


def test_words_where_numbers_belong_are_refused_not_crashed(campaign, tenrec, as_user):
    client = as_user("player")
    data = form_data(client.get(url(campaign, tenrec)))
    data["sheet.level"] = "twelve"
    page = client.post(url(campaign, tenrec), data)
    assert page.status_code == 400
    assert b"sheet.level" in page.content or b'aria-invalid="true"' in page.content


def test_another_player_may_look_but_not_save(campaign, tenrec, as_user):
    client = as_user("other")
    page = client.get(url(campaign, tenrec))
    assert page.status_code == 200 and b"Only its player or the GM" in page.content
    data = form_data(page)
    data["name"] = "Stolen"
    assert client.post(url(campaign, tenrec), data).status_code == 400
    tenrec.refresh_from_db()
    assert tenrec.name == "Tenrec"


def test_the_gm_sets_resources_and_notes(campaign, tenrec, as_user):
    client = as_user("gm")
    page = client.get(url(campaign, tenrec))
    assert b"secretly royal" in page.content
    data = form_data(page)
    data["resources.condition"] = "Wounded"
    data["gm_notes"] = "knows the password"
    assert client.post(url(campaign, tenrec), data).status_code == 302
    tenrec.refresh_from_db()
    assert tenrec.resources["condition"] == "Wounded"
    assert tenrec.gm_notes == "knows the password"


def test_a_player_creates_a_character(campaign, users, as_user):
    client = as_user("player")
    page = client.get(f"/campaigns/{campaign.pk}/characters/new/")
    data = form_data(page)
    data["name"] = "Kobor"
    saved = client.post(f"/campaigns/{campaign.pk}/characters/new/", data)
    assert saved.status_code == 302
    kobor = Character.objects.get(name="Kobor")
    assert kobor.owner == users["player"] and kobor.kind == "pc"


@pytest.mark.parametrize("game", ["fgr", "xerosum", "rd6", "apocalyptia"])
def test_every_game_has_an_editor_that_round_trips(game, users, as_user):
    campaign = factories.campaign(users["gm"], name=f"{game} table", game=game)
    client = as_user("gm")
    new = f"/campaigns/{campaign.pk}/characters/new/"
    data = form_data(client.get(new))
    data["name"] = "Hero"
    assert client.post(new, data).status_code == 302
    hero = Character.objects.get(campaign=campaign)
    page = client.get(url(campaign, hero))
    again = form_data(page)
    assert client.post(url(campaign, hero), again).status_code == 302
    before = hero.sheet
    hero.refresh_from_db()
    assert hero.sheet == before


def test_named_rows_add_entries(users, as_user):
    campaign = factories.campaign(users["gm"], name="Rd6 table", game="rd6")
    client = as_user("gm")
    new = f"/campaigns/{campaign.pk}/characters/new/"
    data = form_data(client.get(new))
    data.update(
        {
            "name": "Ace",
            "sheet.attributes[0].name": "Reflexes",
            "sheet.attributes[0].value": "3D+1",
            "sheet.skills[0].name": "Dodge",
            "sheet.skills[0].attribute": "Reflexes",
            "sheet.skills[0].code": "4D",
        }
    )
    assert client.post(new, data).status_code == 302
    ace = Character.objects.get(name="Ace")
    assert ace.sheet["attributes"] == {"Reflexes": "3D+1"}
    assert ace.sheet["skills"]["Dodge"] == {"attribute": "Reflexes", "code": "4D"}


def test_observers_and_strangers(campaign, users, tenrec, as_user):
    assert as_user("stranger").get(url(campaign, tenrec)).status_code == 404
    invite = services.invite_create(campaign=campaign, by=users["gm"], role="observer")
    services.invite_accept(code=invite.code, user=users["stranger"])
    assert as_user("stranger").get(f"/campaigns/{campaign.pk}/characters/new/").status_code == 404
