"""The wound state reaches the browser: with each character's data in the
room page (and the track's description, so the page can read it again
after an attack), and through the API; never an NPC's to a player."""

import json

import pytest
from rest_framework.test import APIClient

from vtt.tabletop import services

pytestmark = pytest.mark.django_db


def config_of(page):
    html = page.content.decode()
    start = html.index('id="room-config"')
    return json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])


@pytest.fixture
def xerosum(users):
    campaign = services.campaign_create(owner=users["gm"], name="Wasteland", game="xerosum")
    invite = services.invite_create(campaign=campaign, by=users["gm"], role="player")
    services.invite_accept(code=invite.code, user=users["player"])
    hero = services.character_create(
        campaign_id=campaign.pk, by=users["gm"], name="Kira", owner_id=users["player"].pk
    )
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
