"""The REST door to placing: `POST /api/scenes/{s}/tokens/` gives a player
what the websocket gives them (the token service decides for both)."""

import pytest

from vtt.tabletop import services
from vtt.tabletop.models import Token

pytestmark = pytest.mark.django_db


@pytest.fixture
def wren(table):
    return services.character_create(campaign_id=table.campaign.pk, by=table.player, name="Wren")


def test_a_player_posts_a_token_of_their_own_character_only_when_allowed(table, client_for, wren):
    url = f"/api/scenes/{table.scene.pk}/tokens/"
    body = {"name": "Wren", "x": 4, "y": 4, "character_id": wren.pk}
    player = client_for("player")
    assert player.post(url, body, format="json").status_code == 403
    services.campaign_update_settings(
        campaign_id=table.campaign.pk, by=table.gm, settings={"players_place_tokens": True}
    )
    made = player.post(url, body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["controllers"] == [table.player.pk]
    for extra, status, field in (
        ({"character_id": table.kobor.pk}, 403, "character_id"),
        ({"character_id": table.zombie.pk}, 400, "character_id"),
        ({"hidden": True}, 403, "hidden"),
        ({}, 400, "character_id"),  # Wren is on this map already
    ):
        refused = player.post(url, body | extra, format="json")
        assert (refused.status_code, refused.json()["error"]["field"]) == (status, field)
    spare = f"/api/scenes/{table.spare_scene.pk}/tokens/"
    assert player.post(spare, body, format="json").status_code == 404
    assert Token.objects.filter(character=wren).count() == 1
