"""Hostile input on every channel gets a clear refusal and changes nothing:
a 400 naming the field over REST, exit code 2 from the rules commands. The
websocket's share is test_websocket_hostile.py."""

import json
from pathlib import Path

import pytest

from tests.api.test_rules_endpoints import manage
from vtt.tabletop.models import Character, RoomEvent

from .conftest import CHECK

ROOT = Path(__file__).resolve().parents[2]
DEEP = 100_000  # far past any JSON decoder's nesting limit
NESTED = 400  # within it: decodes, and must still be refused cleanly


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def nested(levels: int):
    value: list = []
    for _ in range(levels):
        value = [value]
    return value


# ------------------------------------------------------------------ REST


@pytest.mark.parametrize(
    "body",
    [
        deep(DEEP),
        '{"name": ' + deep(DEEP) + "}",
        json.dumps({"name": "Tenrec", "sheet": {"skills": nested(NESTED)}}),
        json.dumps({"name": "Tenrec", "weapons": nested(NESTED)}),
        json.dumps({"name": "x" * 2_000_000}),
        '{"name": NaN}',
        '{"name": "Tenrec", "name": "\u0000"}',
    ],
    ids=["deep", "deep-field", "nested-sheet", "nested-weapons", "huge", "nan", "nul"],
)
def test_a_hostile_body_is_a_400_and_the_character_is_untouched(web, secrets, body):
    tenrec = secrets.characters.tenrec
    before = Character.objects.get(pk=tenrec.pk)
    events = RoomEvent.objects.count()
    response = web("player").patch(
        f"/api/characters/{tenrec.pk}/", body, content_type="application/json"
    )
    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert error["code"] in ("parse_error", "invalid", "unknown_field")
    assert error["message"]
    after = Character.objects.get(pk=tenrec.pk)
    assert (after.name, after.sheet, after.weapons) == (before.name, before.sheet, before.weapons)
    assert RoomEvent.objects.count() == events


def test_a_gms_nested_overrides_are_refused_with_their_field(web, secrets):
    response = web("gm").post(
        "/api/combat/attacks/",
        {
            "attacker_token": secrets.tokens.tenrec.pk,
            "target_token": secrets.tokens.zombie.pk,
            "overrides": {"attack": {"attacker": {"finesse": nested(NESTED)}}},
        },
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"].startswith("attack")


def test_a_roll_request_nested_deep_is_refused_and_not_recorded(web, secrets):
    rolls = secrets.campaign.rolls.count()
    response = web("player").post(
        f"/api/campaigns/{secrets.campaign.pk}/rolls/",
        {"request": {**CHECK, "pool": nested(NESTED)}},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "request.pool"
    assert secrets.campaign.rolls.count() == rolls


# ------------------------------------------------------------------ commands


@pytest.mark.parametrize("command", ["adjudicate", "odds"])
@pytest.mark.parametrize(
    "stdin",
    [deep(DEEP), json.dumps({**CHECK, "pool": nested(NESTED)}), "not json", ""],
    ids=["deep", "nested", "garbage", "empty"],
)
def test_the_rules_commands_exit_2_with_the_error(command, stdin):
    done = manage(command, stdin)
    assert done.returncode == 2, done.stderr[-500:]
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "invalid" and error["message"]
