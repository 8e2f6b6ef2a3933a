"""The rules contract over HTTP and the command line: same request, same bytes;
hostile bodies only ever get the contract's errors."""

import json
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import served
from vtt.rules import adjudicate, encode
from vtt.rules.systems import SYSTEMS

ERROR_CODES = {
    "invalid",
    "unknown_field",
    "faces_exhausted",
    "faces_unused",
    "bad_face",
    "out_of_range",
    "cp_and_fp",
    "retry_after_true_critical_failure",
}

pytestmark = pytest.mark.django_db


def manage(command: str, body: str) -> subprocess.CompletedProcess:
    return served.python("manage.py", command, input=body)


def post(client, path, body):
    return client.post(path, data=body, content_type="application/json")


def test_unknown_system_is_a_field_error_everywhere(client):
    body = json.dumps({"system": "d20", "action": "roll"})
    response = post(client, "/api/adjudicate/", body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid" and error["field"] == "system"
    cli = manage("adjudicate", body)
    assert cli.returncode == 2
    assert json.loads(cli.stdout) == response.json()


def test_malformed_json_is_a_400_not_a_500(client):
    response = post(client, "/api/adjudicate/", "{not json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert manage("adjudicate", "{not json").returncode == 2


def _first_request_of_each_system():
    """A request per game that needs no fields beyond a pool-ish number, found
    by trying the common field names; games are checked in their own tests."""
    samples = {
        "artifice": {"action": "check", "pool": 3, "difficulty": 2},
        "fgr": {"action": "numeric", "dice": 4},
        "xerosum": {"action": "check", "amod": 1, "smod": 1, "cmod": 0},
        "rd6": {"action": "roll", "dice": 3, "pips": 1, "difficulty": 1},
        "apocalyptia": {"action": "roll", "bonus": 3, "difficulty": 5, "kind": "skill"},
    }
    return [{"system": s, **samples[s]} for s in SYSTEMS if s in samples]


@pytest.mark.parametrize("request_body", _first_request_of_each_system(), ids=lambda r: r["system"])
def test_same_request_and_faces_give_the_same_bytes_on_every_channel(client, request_body):
    rolled = adjudicate(request_body)
    pinned = {**request_body, "faces": [d["face"] for d in rolled["dice"]]}
    body = json.dumps(pinned)
    api = post(client, "/api/adjudicate/", body)
    cli = manage("adjudicate", body)
    assert api.status_code == 200, api.content
    assert cli.returncode == 0, cli.stdout + cli.stderr
    assert api.content.decode() == cli.stdout.strip() == encode(adjudicate(pinned))
    replayed = json.loads(api.content)
    assert replayed["dice"] == rolled["dice"]
    assert replayed["outcome"] == rolled["outcome"]


def test_odds_endpoint_refuses_faces(client):
    body = {"system": "artifice", "action": "check", "pool": 2, "difficulty": 1, "faces": [4, 4]}
    response = post(client, "/api/odds/", json.dumps(body))
    if "artifice" not in SYSTEMS:
        pytest.skip("artifice not registered")
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "unknown_field",
        "message": response.json()["error"]["message"],
        "field": "faces",
    }


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**6), max_value=10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=10), children, max_size=6)
    ),
    max_leaves=20,
)

field_names = st.sampled_from(
    [
        "pool",
        "modifier",
        "difficulty",
        "actor",
        "opponent",
        "kind",
        "attacker",
        "defender",
        "dice",
        "pips",
        "skill",
        "modifier_dice",
        "action_points",
        "amod",
        "smod",
        "cmod",
        "bonus",
        "faces",
        "automatic",
        "cascade",
        "range",
        "from",
        "to",
        "walls",
        "range_ft",
        "character_points",
        "fate_point",
        "rolling_up",
        "participants",
        "replace",
        "check",
        "atk_bonus",
        "def_bonus",
        "weapon_dmg",
        "stressful",
        "damage",
        "ability",
    ]
)


def hostile_bodies():
    systems = st.sampled_from([*SYSTEMS, "nope", ""]) | json_values
    actions = (
        st.sampled_from(sorted({a for s in SYSTEMS.values() for a in s.actions}) + ["nope"])
        | json_values
    )
    faces = st.lists(st.integers(min_value=-1, max_value=8), max_size=40) | json_values
    return (
        st.fixed_dictionaries(
            {"system": systems, "action": actions},
            optional={"faces": faces},
        ).flatmap(
            lambda base: st.dictionaries(field_names, json_values, max_size=6).map(
                lambda extra: {**extra, **base}
            )
        )
        | json_values
    )


@settings(
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=hostile_bodies())
def test_hostile_bodies_get_only_contract_errors(client, settings_override_throttle, body):
    response = post(client, "/api/adjudicate/", json.dumps(body))
    assert response.status_code in (200, 400), response.content
    data = response.json()
    if response.status_code == 400:
        assert set(data) == {"error"}
        assert set(data["error"]) == {"code", "message", "field"}
        assert data["error"]["code"] in ERROR_CODES
        assert "Traceback" not in data["error"]["message"]
    else:
        assert data["system"] in SYSTEMS and "outcome" in data and isinstance(data["dice"], list)


@pytest.fixture
def throttle_rate(monkeypatch):
    """Set the adjudication throttle's rate for a test. The requests it
    counted are forgotten before and after: at another test's rate they
    would pass for that test's flood."""
    # DRF reads the rates once at import; the class attribute is the live value.
    from django.core.cache import cache
    from rest_framework.throttling import ScopedRateThrottle

    def set_rate(rate):
        monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"adjudicate": rate})
        cache.clear()

    yield set_rate
    cache.clear()


@pytest.fixture
def settings_override_throttle(throttle_rate):
    # The throttle is real in production; a fuzz run must not trip it.
    throttle_rate("1000000/minute")


def test_throttle_answers_429_when_a_client_floods(client, throttle_rate):
    throttle_rate("3/minute")
    body = json.dumps({"system": "nope"})
    codes = [post(client, "/api/adjudicate/", body).status_code for _ in range(5)]
    assert codes[:3] == [400, 400, 400]
    assert codes[3:] == [429, 429]
