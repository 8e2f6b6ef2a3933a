"""The wound state reaches the browser: with each character's data in the
room page (and the track's description, so the page can read it again
after an attack), and through the API; never an NPC's to a player."""

import json

import pytest
from rest_framework.test import APIClient

from tests import factories
from vtt.tabletop import services

pytestmark = pytest.mark.django_db


def config_of(page):
    html = page.content.decode()
    start = html.index('id="room-config"')
    return json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])


@pytest.fixture
def xerosum(users):
    campaign = factories.campaign(users["gm"], name="Wasteland", game="xerosum")
    factories.invited(campaign, users["gm"], users["player"])
    hero = factories.character(campaign, users["gm"], "Kira", owner_id=users["player"].pk)
    services.character_update(
        character_id=hero.pk, by=users["gm"], resources={"wound_points": 0, "insight_dice": 2}
    )
    services.character_create(
        campaign_id=campaign.pk,
        by=users["gm"],
        name="Raider",
        kind="npc",
        resources={"wound_points": 0},
    )
    return campaign


def test_the_room_hands_each_character_its_wound_state(xerosum, as_user):
    config = config_of(as_user("player").get(f"/campaigns/{xerosum.pk}/room/"))
    assert config["wound_track"] == {"kind": "dying", "reads": "wound_points"}
    assert config["settings"]["wound_states"] == ["Unhurt", "Wounded", "Dying"]
    (kira,) = config["characters"]  # the NPC is the GM's
    assert kira["wounds"] == {"state": "Dying", "out": True, "dead": False, "hurt": True}
    gm = config_of(as_user("gm").get(f"/campaigns/{xerosum.pk}/room/"))
    assert {c["name"]: c["wounds"]["state"] for c in gm["characters"]} == {
        "Kira": "Dying",
        "Raider": "Dying",
    }


def test_artifice_describes_its_condition_track(campaign, as_user):
    config = config_of(as_user("player").get(f"/campaigns/{campaign.pk}/room/"))
    assert config["wound_track"] == {"kind": "condition", "reads": "condition"}


def test_the_api_serves_the_state_with_the_character(xerosum, users):
    client = APIClient()
    client.force_authenticate(users["player"])
    listed = client.get(f"/api/campaigns/{xerosum.pk}/characters/").json()["results"]
    assert [(c["name"], c["wounds"]["state"]) for c in listed] == [("Kira", "Dying")]


def test_the_gm_sets_the_track_in_the_settings_form(users, as_user):
    campaign = factories.campaign(users["gm"], name="Keep", game="fgr")
    client = as_user("gm")
    page = client.get(f"/campaigns/{campaign.pk}/gm/").content.decode()
    assert "Wound states, best to worst" in page and "Wounds for each state down" in page
    data = {
        "diagonal": "uniform",
        "starting_action_points": "5",
        "wound_states": "Up\nDown\nGone",
        "wounds_per_state": "0",
        "skip_fallen": "on",
    }
    refused = client.post(f"/campaigns/{campaign.pk}/gm/settings/", data)
    assert refused.status_code == 400
    assert refused.context["settings_form"].errors.get("wounds_per_state")
    data["wounds_per_state"] = "10"
    assert client.post(f"/campaigns/{campaign.pk}/gm/settings/", data).status_code == 302
    campaign.refresh_from_db()
    assert campaign.settings["wound_states"] == ["Up", "Down", "Gone"]
    assert campaign.settings["wounds_per_state"] == 10 and campaign.settings["skip_fallen"] is True
