"""The play sessions' pages (docs/dice.md): the list with the GM's start
and end buttons, the GM console's, and one session's check page with the
rolls the viewer saw (its script runs in tests/browser/test_dice_check.py)."""

import json
import re

import pytest

from vtt import dice
from vtt.tabletop.models import PlaySession

pytestmark = pytest.mark.django_db

CHECK = {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2}
NONCE = "c0ffee00c0ffee00c0ffee00c0ffee00"


def page_data(response) -> dict:
    found = re.search(
        r'<script id="session-check" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.DOTALL,
    )
    return json.loads(found[1])


def test_the_gm_starts_and_ends_a_session_from_the_sessions_page(campaign, as_user):
    client = as_user("gm")
    page = client.get(f"/campaigns/{campaign.pk}/sessions/")
    assert page.status_code == 200 and b'id="session-start"' in page.content
    started = client.post(f"/campaigns/{campaign.pk}/sessions/start/", follow=True)
    assert b"Session 1 started" in started.content and b'id="session-end"' in started.content
    session = PlaySession.objects.get(campaign=campaign)
    assert session.digest.encode() in started.content
    ended = client.post(f"/campaigns/{campaign.pk}/sessions/end/", follow=True)
    assert b"Session 1 ended" in ended.content
    session.refresh_from_db()
    assert not session.is_open


def test_the_gm_console_has_the_session_button(campaign, as_user):
    client = as_user("gm")
    assert b'id="console-session-start"' in client.get(f"/campaigns/{campaign.pk}/gm/").content
    dice.session_start(campaign_id=campaign.pk, by=campaign.memberships.get(role="gm").user)
    page = client.get(f"/campaigns/{campaign.pk}/gm/").content
    assert b'id="console-session-end"' in page and b"Session 1 is open" in page


def test_a_player_has_no_buttons_and_cannot_start_one(campaign, as_user):
    client = as_user("player")
    page = client.get(f"/campaigns/{campaign.pk}/sessions/")
    assert page.status_code == 200 and b"session-start" not in page.content
    refused = client.post(f"/campaigns/{campaign.pk}/sessions/start/", follow=True)
    assert b"only a GM may start a session" in refused.content
    assert not PlaySession.objects.exists()


@pytest.mark.parametrize("path", ["", "1/"])
def test_strangers_find_nothing(campaign, users, as_user, path):
    dice.roll_adjudicate(campaign_id=campaign.pk, by=users["player"], request=CHECK)
    assert as_user("stranger").get(f"/campaigns/{campaign.pk}/sessions/{path}").status_code == 404


def test_the_check_page_lists_what_the_viewer_saw(campaign, users, as_user):
    seen = dice.roll_adjudicate(
        campaign_id=campaign.pk, by=users["player"], request=CHECK, nonce=NONCE
    )
    dice.roll_adjudicate(campaign_id=campaign.pk, by=users["gm"], request=CHECK, visibility="gm")
    physical = dice.roll_adjudicate(
        campaign_id=campaign.pk, by=users["player"], request={**CHECK, "faces": [1, 2, 3]}
    )
    page = as_user("other").get(f"/campaigns/{campaign.pk}/sessions/1/")
    assert page.status_code == 200
    assert b"not revealed yet" in page.content  # still open: nothing to check
    data = page_data(page)
    assert data["seed"] is None
    assert [r["roll"] for r in data["rolls"]] == [seen.draw["roll"], physical.draw["roll"]]
    assert data["rolls"][0]["nonce"] == NONCE
    assert b"physical dice: not derived" in page.content
    dice.session_end(campaign_id=campaign.pk, by=users["gm"])
    data = page_data(as_user("other").get(f"/campaigns/{campaign.pk}/sessions/1/"))
    assert data["seed"] == bytes(PlaySession.objects.get().seed).hex()
    assert as_user("other").get(f"/campaigns/{campaign.pk}/sessions/2/").status_code == 404


def test_the_room_links_its_sessions(campaign, as_user):
    page = as_user("player").get(f"/campaigns/{campaign.pk}/room/").content.decode()
    assert f'href="/campaigns/{campaign.pk}/sessions/"' in page


def replay_config(response) -> dict:
    found = re.search(
        r'<script id="replay-config" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.DOTALL,
    )
    return json.loads(found[1])


def test_the_replay_page_is_the_viewers_and_the_gm_picks_whose(campaign, as_user, users):
    dice.session_start(campaign_id=campaign.pk, by=users["gm"])
    url = f"/campaigns/{campaign.pk}/sessions/1/replay/"
    listed = as_user("player").get(f"/campaigns/{campaign.pk}/sessions/").content.decode()
    assert f'href="{url}"' in listed
    mine = as_user("player").get(url)
    assert mine.status_code == 200 and b'id="replay-as"' not in mine.content
    assert replay_config(mine)["api"] == f"/api/campaigns/{campaign.pk}/sessions/1/replay/"
    # A player asking for another's view is told no and shown their own.
    refused = as_user("player").get(f"{url}?as={users['other'].pk}", follow=True)
    assert b"only a GM may replay" in refused.content
    assert replay_config(refused)["watched"]["id"] == users["player"].pk
    gm = as_user("gm").get(f"{url}?as={users['other'].pk}")
    assert b'id="replay-as"' in gm.content
    assert replay_config(gm)["watched"] == {"id": users["other"].pk, "role": "player"}
    assert replay_config(gm)["api"].endswith(f"?as={users['other'].pk}")
    assert as_user("stranger").get(url).status_code == 404
    assert as_user("gm").get(f"/campaigns/{campaign.pk}/sessions/4/replay/").status_code == 404
