"""A player's replay of a dark fog scene tells nothing of a map light their
group never saw: the GM placing, moving and switching a lamp beyond a
closed door reaches the player's replay as numbered `redacted` entries,
and no colour, place or reach of the lamp is anywhere in the answer. The
replay draws light from what the viewer's own events gave them (the
tokens they held: docs/replay.md), so nothing lit only for another group,
or for the GM, is in it."""

import json
import re

import pytest
from rest_framework.test import APIClient

from vtt.dice.sessions import session_end, session_start
from vtt.maps.light_edits import light_place, light_update
from vtt.tabletop import services

from .test_light_secrecy import Table

pytestmark = pytest.mark.django_db

LAMP = "#3366ff"


def replay(client: APIClient, campaign_id: int) -> list[dict]:
    """Every page of session 1's replay as the client reads it."""
    events, after = [], ""
    while True:
        answer = client.get(f"/api/campaigns/{campaign_id}/sessions/1/replay/{after}")
        assert answer.status_code == 200, answer.content
        body = answer.json()
        events.extend(body["events"])
        if body["next"] is None:
            return events
        after = f"?after={body['next']}"


def test_a_lamp_beyond_a_closed_door_is_not_in_the_players_replay():
    t = Table()
    hero = t.token("Hero", 2, 5, controllers=[t.player.pk], light_ft=10)
    t.darken()
    session_start(campaign_id=t.campaign.pk, by=t.gm)
    lamp = light_place(
        scene_id=t.scene.pk, by=t.gm, x=9.5, y=6.5, bright=2.25, dim=4.75, color=LAMP
    )
    light_update(light_id=lamp.pk, by=t.gm, x=10.5, y=3.5)
    light_update(light_id=lamp.pk, by=t.gm, on=False)
    services.token_move(token_id=hero.pk, by=t.player, x=3, y=5)
    session_end(campaign_id=t.campaign.pk, by=t.gm)

    gm = APIClient()
    gm.force_login(t.gm)
    theirs = replay(gm, t.campaign.pk)
    told = [e for e in theirs if e["type"] == "light.changed"]
    assert len(told) == 3 and LAMP in json.dumps(told)  # the GM's replay has the lamp

    mine = replay(t.rest, t.campaign.pk)
    text = json.dumps(mine)
    assert {e["seq"] for e in told} <= {e["seq"] for e in mine if e["type"] == "redacted"}
    assert LAMP not in text
    for number in ("9.5", "10.5", "2.25", "4.75"):
        # As a number of its own: a timestamp's "19.54" holds "9.5" too.
        assert not re.search(rf"(?<![\d.]){re.escape(number)}(?!\d)", text), number
    moved = [e for e in mine if e["type"] == "token.moved"]
    assert moved and moved[-1]["data"]["token"]["id"] == hero.pk  # the player's own play is there
