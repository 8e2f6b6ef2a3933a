import pytest
from django.contrib.auth import get_user_model

from vtt.tabletop import services


@pytest.fixture(autouse=True)
def quick_passwords(settings):
    # The default hasher is slow on purpose; these tests log in dozens of times.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def users(db):
    make = get_user_model().objects.create_user
    return {
        "gm": make("gm", password="pw-gm-12345"),
        "player": make("player", password="pw-pl-12345"),
        "other": make("other", password="pw-ot-12345"),
        "stranger": make("stranger", password="pw-st-12345"),
    }


@pytest.fixture
def campaign(users):
    gm, player, other = users["gm"], users["player"], users["other"]
    campaign = services.campaign_create(owner=gm, name="The Tomb", game="artifice")
    for user in (player, other):
        invite = services.invite_create(campaign=campaign, by=gm, role="player")
        services.invite_accept(code=invite.code, user=user)
    return campaign


@pytest.fixture
def as_user(client, users):
    def log_in(name):
        client.force_login(users[name])
        return client

    return log_in
