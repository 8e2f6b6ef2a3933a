"""The table is laid once per test module and every test runs in a
savepoint inside it (as Django's setUpTestData does), so the permission
matrix's few hundred requests each start from the same state cheaply."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.laid_once import laid_once_per_module
from tests.tabletop.table import make_table
from vtt import dice
from vtt.handouts import services as handouts
from vtt.markers import services as markers
from vtt.spectators.services import link_create
from vtt.tabletop import services


def lay_table():
    table = make_table()
    services.character_update(
        character_id=table.tenrec.pk, by=table.gm, resources={"experience": 5}
    )
    table.invite = services.invite_create(campaign=table.campaign, by=table.gm, role="player")
    check = {"system": "artifice", "action": "check", "pool": 2, "difficulty": 1}
    table.public_roll = dice.roll_adjudicate(
        campaign_id=table.campaign.pk, by=table.other, request=check
    )
    table.gm_roll = dice.roll_adjudicate(
        campaign_id=table.campaign.pk, by=table.player, request=check, visibility="gm"
    )
    table.blind_roll = dice.roll_adjudicate(
        campaign_id=table.campaign.pk, by=table.player, request=check, visibility="blind"
    )
    # A letter handed to the player, and one the GM keeps.
    table.letter = handouts.handout_create(
        campaign_id=table.campaign.pk, by=table.gm, title="A letter", text="Come alone."
    )
    handouts.handout_share(handout_id=table.letter.pk, by=table.gm, members=[table.player.pk])
    table.sealed = handouts.handout_create(
        campaign_id=table.campaign.pk, by=table.gm, title="Sealed", text="Not yet."
    )
    # Status markers: a condition on Tenrec, and the GM's secret one.
    table.marker = markers.marker_add(
        campaign_id=table.campaign.pk, token_id=table.tenrec_token.pk, by=table.gm,
        condition_id="stunned",
    )  # fmt: skip
    table.secret_marker = markers.marker_add(
        campaign_id=table.campaign.pk, token_id=table.tenrec_token.pk, by=table.gm,
        icon="skull", label="Doomed", gm_only=True,
    )  # fmt: skip
    # A spectator link of the GM's.
    table.spectator_link, _ = link_create(campaign_id=table.campaign.pk, by=table.gm)
    return table


laid_once, table = laid_once_per_module(lay_table, "table")


@pytest.fixture
def client_for(table):
    """An API client signed in (by session) as one of the table's people;
    "anonymous" is not signed in at all."""

    def make(role: str) -> APIClient:
        client = APIClient()
        if role != "anonymous":
            # Fresh from the database: a test may have changed the shared object.
            user = get_user_model().objects.get(pk=getattr(table, role).pk)
            client.force_login(user)
        return client

    return make
