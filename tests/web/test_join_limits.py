"""Invite codes cannot be guessed one after another: past its limit of
wrong codes, per user and per address, a client is refused with 429 and
told when to come back, on the join page and the API's invite endpoint
alike (vtt/accounts/join_limits.py)."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F
from django.test import Client

from tests import factories
from vtt.accounts.models import JoinFailure
from vtt.tabletop import services
from vtt.tabletop.models import Membership

pytestmark = pytest.mark.django_db

HOME = "198.51.100.20"
CAFE = "203.0.113.5"
PER_USER = 4
PER_ADDRESS = 6
COOL_OFF = 15
LOCKED = f"too many wrong invite codes; try again in {COOL_OFF} minutes"


@pytest.fixture(autouse=True)
def limits(settings):
    settings.JOIN_FAILURES_PER_USER = PER_USER
    settings.JOIN_FAILURES_PER_ADDRESS = PER_ADDRESS
    settings.JOIN_COOL_OFF_MINUTES = COOL_OFF
    settings.TRUSTED_PROXY_COUNT = 0


@pytest.fixture
def invite(users):
    campaign = factories.campaign(users["gm"], name="The Tomb", game="artifice")
    return services.invite_create(campaign=campaign, by=users["gm"], role="player")


def signed_in(users, name) -> Client:
    client = Client()
    client.force_login(users[name])
    return client


def join(client, code, address=HOME):
    return client.post("/join/", {"code": code}, REMOTE_ADDR=address)


def api_join(client, code, address=HOME):
    return client.post(
        "/api/invites/accept/", {"code": code}, content_type="application/json", REMOTE_ADDR=address
    )


def guess(client, times, address=HOME, door=join):
    return [door(client, f"guess-{i}", address).status_code for i in range(times)]


def member(users, name) -> bool:
    return Membership.objects.filter(user=users[name]).exists()


def test_wrong_codes_then_429_with_the_message_and_retry_after(users, invite):
    player = signed_in(users, "player")
    assert guess(player, PER_USER) == [400] * PER_USER
    page = join(player, "one-more")
    assert page.status_code == 429
    assert COOL_OFF * 60 - 5 <= int(page["Retry-After"]) <= COOL_OFF * 60
    assert page.context["join_form"].errors["code"] == [LOCKED]
    assert LOCKED in page.content.decode()


def test_the_right_code_is_refused_while_locked_and_counts_nothing(users, invite):
    player = signed_in(users, "player")
    guess(player, PER_USER)
    assert join(player, invite.code).status_code == 429
    assert not member(users, "player")
    invite.refresh_from_db()
    assert invite.uses == 0
    assert JoinFailure.objects.count() == PER_USER


def test_the_right_code_works_after_the_cool_off(users, invite):
    player = signed_in(users, "player")
    guess(player, PER_USER)
    JoinFailure.objects.update(at=F("at") - timedelta(minutes=COOL_OFF))
    page = join(player, invite.code)
    assert page.status_code == 302
    assert member(users, "player")


def test_per_user_whatever_the_address(users, invite):
    player = signed_in(users, "player")
    for i in range(PER_USER):
        assert join(player, f"guess-{i}", address=f"192.0.2.{i + 1}").status_code == 400
    assert join(player, invite.code, address="192.0.2.200").status_code == 429
    # Someone else at one of those addresses is not locked by it.
    assert join(signed_in(users, "other"), invite.code, address="192.0.2.1").status_code == 302


def test_per_address_whatever_the_user(users, invite):
    make = get_user_model().objects.create_user
    accounts = [signed_in({"u": make(f"sock{i}")}, "u") for i in range(PER_ADDRESS)]
    for client in accounts:
        assert guess(client, 1, address=CAFE) == [400]
    # A fresh account at that address: locked; the same account elsewhere is not.
    fresh = signed_in(users, "other")
    assert join(fresh, invite.code, address=CAFE).status_code == 429
    assert join(fresh, invite.code, address=HOME).status_code == 302


def test_a_code_that_is_no_longer_good_is_not_a_guess(users, invite):
    services.invite_revoke(invite_id=invite.pk, by=users["gm"])
    player = signed_in(users, "player")
    assert join(player, invite.code).status_code == 400
    assert JoinFailure.objects.count() == 1  # revoked: no such invite now
    used_up = services.invite_create(
        campaign=invite.campaign, by=users["gm"], role="player", max_uses=1
    )
    services.invite_accept(code=used_up.code, user=users["other"])
    for _ in range(PER_USER + 2):
        assert join(player, used_up.code).status_code == 400
    assert JoinFailure.objects.count() == 1


def test_the_api_counts_with_the_page(users, invite):
    player = signed_in(users, "player")
    guess(player, PER_USER - 1)
    assert api_join(player, "guess-api").status_code == 404
    refused = api_join(player, invite.code)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_attempts"
    assert refused.json()["error"]["message"] == LOCKED
    assert COOL_OFF * 60 - 5 <= int(refused["Retry-After"]) <= COOL_OFF * 60
    assert join(player, invite.code).status_code == 429
    assert not member(users, "player")
    JoinFailure.objects.update(at=F("at") - timedelta(minutes=COOL_OFF))
    assert api_join(player, invite.code).status_code == 200
    assert member(users, "player")


def test_the_api_alone_locks_too(users, invite):
    player = signed_in(users, "player")
    assert guess(player, PER_USER, door=api_join) == [404] * PER_USER
    assert api_join(player, invite.code).status_code == 429
