"""Sign up, log in, log out, the landing page and the lobby."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from vtt.tabletop.models import Campaign, Membership

pytestmark = pytest.mark.django_db


def test_visitors_get_the_landing_page_with_log_in_and_sign_up(client):
    page = client.get("/")
    assert page.status_code == 200
    assert b"Sign up" in page.content and b"Log in" in page.content
    assert b"Your campaigns" not in page.content


def test_sign_up_logs_the_new_user_in_and_shows_the_lobby(client):
    page = client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "a-long-pass-987", "password2": "a-long-pass-987"},
    )
    assert page.status_code == 302
    lobby = client.get("/")
    assert b"Your campaigns" in lobby.content
    assert get_user_model().objects.filter(username="newbie").exists()


def test_sign_up_shows_field_errors(client):
    page = client.post(
        "/accounts/signup/", {"username": "x", "password1": "abc", "password2": "abd"}
    )
    assert page.status_code == 200
    assert b'class="error"' in page.content
    assert not get_user_model().objects.filter(username="x").exists()


def test_log_in_and_log_out_by_post(users):
    client = Client(enforce_csrf_checks=True)
    form = client.get("/accounts/login/")
    token = form.cookies["csrftoken"].value
    page = client.post(
        "/accounts/login/",
        {"username": "gm", "password": "pw-gm-12345", "csrfmiddlewaretoken": token},
    )
    assert page.status_code == 302
    assert client.get("/").context["user"].is_authenticated
    # Logging out is a POST with the CSRF token; a GET does not log out.
    assert client.get("/accounts/logout/").status_code == 405
    token = client.cookies["csrftoken"].value
    assert client.post("/accounts/logout/", {"csrfmiddlewaretoken": token}).status_code == 302
    assert not client.get("/").context["user"].is_authenticated


def test_forms_refuse_a_post_without_the_csrf_token(users):
    client = Client(enforce_csrf_checks=True)
    client.force_login(users["gm"])
    page = client.post("/campaigns/new/", {"name": "X", "game": "rd6"})
    assert page.status_code == 403
    assert not Campaign.objects.filter(name="X").exists()


def test_lobby_lists_my_campaigns_with_my_role(campaign, as_user):
    page = as_user("player").get("/")
    text = page.content.decode()
    assert "The Tomb" in text and "Player" in text
    assert f"/campaigns/{campaign.pk}/room/" in text
    assert f"/campaigns/{campaign.pk}/gm/" not in text  # no GM console for a player
    gm_page = as_user("gm").get("/").content.decode()
    assert f"/campaigns/{campaign.pk}/gm/" in gm_page


def test_lobby_hides_other_peoples_campaigns(campaign, as_user):
    assert b"The Tomb" not in as_user("stranger").get("/").content


def test_create_a_campaign_makes_me_its_gm(users, as_user):
    page = as_user("stranger").post("/campaigns/new/", {"name": "Red Sands", "game": "rd6"})
    campaign = Campaign.objects.get(name="Red Sands")
    assert page.status_code == 302 and page.url == f"/campaigns/{campaign.pk}/room/"
    assert campaign.game == "rd6"
    assert Membership.objects.get(campaign=campaign, user=users["stranger"]).role == "gm"


def test_create_a_campaign_with_an_unknown_game_shows_the_error(as_user):
    page = as_user("stranger").post("/campaigns/new/", {"name": "Bad", "game": "chess"})
    assert page.status_code == 400
    assert b"Select a valid choice" in page.content
    assert not Campaign.objects.filter(name="Bad").exists()


def test_join_by_invite_code(campaign, users, as_user):
    from vtt.tabletop import services

    invite = services.invite_create(campaign=campaign, by=users["gm"], role="observer")
    page = as_user("stranger").post("/join/", {"code": invite.code})
    assert page.status_code == 302 and page.url == f"/campaigns/{campaign.pk}/room/"
    assert Membership.objects.get(campaign=campaign, user=users["stranger"]).role == "observer"


def test_pages_name_the_campaigns_game(campaign, as_user):
    from vtt import games

    name = games.kit(campaign.game).name
    gm = as_user("gm")
    for path in ("/", f"/campaigns/{campaign.pk}/room/", f"/campaigns/{campaign.pk}/gm/"):
        assert (
            f"{name} ·".encode() in gm.get(path).content
            or f"{name}.".encode() in gm.get(path).content
        ), path


def test_an_invite_link_fills_the_code_in_and_joins_nobody(campaign, users, as_user):
    from vtt.tabletop import services

    invite = services.invite_create(campaign=campaign, by=users["gm"], role="player")
    console = as_user("gm").get(f"/campaigns/{campaign.pk}/gm/")
    link = f"http://testserver/join/?code={invite.code}"
    assert link.encode() in console.content and b"data-copy=" in console.content
    page = as_user("stranger").get(f"/join/?code={invite.code}")
    assert page.status_code == 200
    assert f'value="{invite.code}"'.encode() in page.content
    assert not Membership.objects.filter(campaign=campaign, user=users["stranger"]).exists()


def test_join_with_a_wrong_code_says_so(campaign, users, as_user):
    page = as_user("stranger").post("/join/", {"code": "not-a-code"})
    assert page.status_code == 400
    assert b"no such invite" in page.content
    assert not Membership.objects.filter(campaign=campaign, user=users["stranger"]).exists()


def test_lobby_actions_need_a_login(client):
    assert client.post("/campaigns/new/", {"name": "X", "game": "rd6"}).status_code == 302
    assert client.post("/join/", {"code": "abc"}).status_code == 302
