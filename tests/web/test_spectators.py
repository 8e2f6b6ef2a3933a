"""Spectator links on the site: the watch page a link opens (no account,
no controls, the address kept out of caches and referrers), one 404 page
for every link that opens nothing, and the GM console's making (shown
once) and revoking."""

import re

import pytest

from vtt.spectators.models import SpectatorLink
from vtt.spectators.services import link_create, link_revoke
from vtt.spectators.tokens import token_hash

pytestmark = pytest.mark.django_db


@pytest.fixture
def link(campaign, users):
    return link_create(campaign_id=campaign.pk, by=users["gm"], delay_seconds=20)


def test_the_watch_page_is_the_room_read_only(client, campaign, link):
    _, token = link
    page = client.get(f"/watch/{token}/")
    assert page.status_code == 200
    assert page["Cache-Control"] == "no-store" and page["Referrer-Policy"] == "same-origin"
    html = page.content.decode()
    assert f'"/ws/watch/{token}/"' in html and "20 s behind the table" in html
    for control in ('id="tray"', 'id="chat-form"', "csrfmiddlewaretoken", 'id="tab-gm"'):
        assert control not in html, control


def test_a_link_that_opens_nothing_is_one_404(client, campaign, users, link):
    revoked, token = link
    link_revoke(link_id=revoked.pk, by=users["gm"])
    for guess in (token, "x" * 43, "x" * 70):
        page = client.get(f"/watch/{guess}/")
        assert page.status_code == 404
        assert "no longer valid" in page.content.decode()


def test_the_gm_makes_a_link_shown_once(as_user, campaign):
    client = as_user("gm")
    made = client.post(
        f"/campaigns/{campaign.pk}/gm/spectators/",
        {"label": "Stream", "delay_seconds": "10", "expires_minutes": ""},
    )
    assert made.status_code == 200
    (token,) = re.findall(r'value="http://testserver/watch/([^/"]+)/"', made.content.decode())
    link = SpectatorLink.objects.get()
    assert link.token_hash == token_hash(token) and link.label == "Stream"
    console = client.get(f"/campaigns/{campaign.pk}/gm/").content.decode()
    assert token not in console and "Stream" in console


@pytest.mark.parametrize(
    ("data", "field"),
    [({"delay_seconds": "601"}, "delay_seconds"), ({"expires_minutes": "0"}, "expires_minutes")],
)
def test_bad_input_is_a_400_naming_its_field(as_user, campaign, data, field):
    answer = as_user("gm").post(
        f"/campaigns/{campaign.pk}/gm/spectators/", {"delay_seconds": "0", **data}
    )
    assert answer.status_code == 400
    assert field in answer.context["spectator_form"].errors
    assert not SpectatorLink.objects.exists()


def test_the_gm_revokes_a_link_and_others_cannot(as_user, campaign, link):
    made, token = link
    url = f"/campaigns/{campaign.pk}/gm/spectators/{made.pk}/revoke/"
    assert as_user("player").post(url).status_code == 404
    assert as_user("stranger").post(url).status_code == 404
    made.refresh_from_db()
    assert made.revoked_at is None
    assert as_user("gm").post(url).status_code == 302
    made.refresh_from_db()
    assert made.revoked_at is not None
    assert as_user("player").post(f"/campaigns/{campaign.pk}/gm/spectators/").status_code == 404


def test_a_link_of_another_campaign_is_a_404(as_user, campaign, users, link):
    made, _ = link
    from tests import factories

    mine = factories.campaign(users["stranger"])
    answer = as_user("stranger").post(f"/campaigns/{mine.pk}/gm/spectators/{made.pk}/revoke/")
    assert answer.status_code == 404
    made.refresh_from_db()
    assert made.revoked_at is None
