import pytest

from tests import factories


@pytest.fixture
def users(db):
    make = factories.person
    return {
        "gm": make("gm", password="pw-gm-12345"),
        "player": make("player", password="pw-pl-12345"),
        "other": make("other", password="pw-ot-12345"),
        "stranger": make("stranger", password="pw-st-12345"),
    }


@pytest.fixture
def campaign(users):
    gm, player, other = users["gm"], users["player"], users["other"]
    campaign = factories.campaign(gm)
    for user in (player, other):
        factories.invited(campaign, gm, user)
    return campaign


@pytest.fixture
def as_user(client, users):
    def log_in(name):
        client.force_login(users[name])
        return client

    return log_in
