"""The room page: members only, and what it hands its modules."""

import json

import pytest

from tests import factories
from vtt.tabletop import services
from vtt.tabletop.models import Character

pytestmark = pytest.mark.django_db


def config_of(page):
    html = page.content.decode()
    start = html.index('id="room-config"')
    body = html[html.index(">", start) + 1 : html.index("</script>", start)]
    return json.loads(body)


def tray_of(page):
    html = page.content.decode()
    start = html.index('id="tray-spec"')
    return json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])


def test_members_get_the_room(campaign, as_user):
    page = as_user("player").get(f"/campaigns/{campaign.pk}/room/")
    assert page.status_code == 200
    config = config_of(page)
    assert config["campaign"] == {"id": campaign.pk, "name": "The Tomb", "game": "artifice"}
    assert config["me"]["role"] == "player"
    assert config["socket"] == f"/ws/campaigns/{campaign.pk}/"
    assert config["api"]["odds"] == "/api/odds/"


def test_non_members_and_visitors_get_nothing(campaign, as_user, client):
    assert as_user("stranger").get(f"/campaigns/{campaign.pk}/room/").status_code == 404
    client.logout()
    assert client.get(f"/campaigns/{campaign.pk}/room/").status_code == 404
    assert as_user("gm").get("/campaigns/999999/room/").status_code == 404


def test_room_never_carries_gm_notes_or_npcs_to_players(campaign, users, as_user):
    services.character_create(
        campaign_id=campaign.pk,
        by=users["gm"],
        name="Lich",
        kind=Character.Kind.NPC,
        gm_notes="the phylactery is in the well",
    )
    services.character_create(
        campaign_id=campaign.pk,
        by=users["gm"],
        name="Tenrec",
        owner_id=users["player"].pk,
        gm_notes="secretly royal",
    )
    page = as_user("player").get(f"/campaigns/{campaign.pk}/room/")
    text = page.content.decode()
    assert "phylactery" not in text and "secretly royal" not in text and "Lich" not in text
    names = [c["name"] for c in config_of(page)["characters"]]
    assert names == ["Tenrec"]
    gm_names = [
        c["name"]
        for c in config_of(as_user("gm").get(f"/campaigns/{campaign.pk}/room/"))["characters"]
    ]
    assert sorted(gm_names) == ["Lich", "Tenrec"]


def test_the_tray_speaks_the_campaigns_game(campaign, as_user):
    tray = tray_of(as_user("gm").get(f"/campaigns/{campaign.pk}/room/"))
    assert tray["game"] == "artifice"
    offered = [a["id"] for a in tray["actions"] if a["tray"]]
    assert {"check", "test", "attack"} <= set(offered)


def test_gm_console_link_only_for_the_gm(campaign, as_user):
    gm = as_user("gm").get(f"/campaigns/{campaign.pk}/room/").content.decode()
    assert f"/campaigns/{campaign.pk}/gm/" in gm and 'id="token-hide"' in gm
    player = as_user("player").get(f"/campaigns/{campaign.pk}/room/").content.decode()
    assert f"/campaigns/{campaign.pk}/gm/" not in player and 'id="token-hide"' not in player


def test_every_tray_control_has_a_label(campaign, as_user):
    html = as_user("player").get(f"/campaigns/{campaign.pk}/room/").content.decode()
    for control in (
        "tray-action",
        "tray-character",
        "tray-visibility",
        "tray-physical",
        "tray-faces",
        "chat-input",
        "band-range",
    ):
        assert f'for="{control}"' in html, control


@pytest.mark.parametrize(
    ("game", "reroll", "defenses"),
    [("xerosum", "reroll", []), ("apocalyptia", None, ["dodge", "block"]), ("rd6", None, [])],
)
def test_the_page_offers_what_the_games_kit_declares(users, as_user, game, reroll, defenses):
    campaign = factories.campaign(users["gm"], name="Kit", game=game)
    page = as_user("gm").get(f"/campaigns/{campaign.pk}/room/")
    spec = page.context["tray"]
    assert (spec["reroll"] or {}).get("action") == reroll
    assert spec["defenses"] == defenses
    html = page.content.decode()
    assert ('id="attack-defense"' in html) is bool(defenses)
    if reroll:
        assert "opposed" not in spec["reroll"]["of"] and "check" in spec["reroll"]["of"]
