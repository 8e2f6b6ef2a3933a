"""Play sessions over REST (docs/api.md, docs/dice.md): the GM starts and
ends them, everyone in the campaign reads them and checks the rolls they saw."""

import hashlib

import pytest
from rest_framework.test import APIClient

from tests.tabletop.table import make_table
from vtt.rules.session_dice import faces
from vtt.tabletop.models import RoomEvent

pytestmark = pytest.mark.django_db

CHECK = {"system": "artifice", "action": "check", "pool": 4, "difficulty": 2}
NONCE = "a1b2c3d4e5f60718293a4b5c6d7e8f90"


@pytest.fixture
def table(db):
    return make_table()


def as_(table, who: str) -> APIClient:
    client = APIClient()
    client.force_login(getattr(table, who))
    return client


def sessions_url(table, tail="") -> str:
    return f"/api/campaigns/{table.campaign.pk}/sessions/{tail}"


def roll(table, who, **body):
    url = f"/api/campaigns/{table.campaign.pk}/rolls/"
    return as_(table, who).post(url, {"request": CHECK, **body}, format="json")


def test_the_gm_starts_and_ends_a_session(table):
    started = as_(table, "gm").post(sessions_url(table))
    assert started.status_code == 201, started.json()
    body = started.json()
    assert body["session"] == 1 and body["seed"] is None and body["ended_at"] is None
    listed = as_(table, "observer").get(sessions_url(table)).json()["results"]
    assert [s["digest"] for s in listed] == [body["digest"]] and listed[0]["seed"] is None
    ended = as_(table, "gm").post(sessions_url(table, "end/"))
    assert ended.status_code == 200
    seed = ended.json()["seed"]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == body["digest"]
    assert as_(table, "player").get(sessions_url(table)).json()["results"][0]["seed"] == seed


def test_only_the_gm_starts_or_ends_and_strangers_see_nothing(table):
    for who in ("player", "observer"):
        refused = as_(table, who).post(sessions_url(table))
        assert refused.status_code == 403
        assert as_(table, who).post(sessions_url(table, "end/")).status_code == 403
    for path in (sessions_url(table), sessions_url(table, "1/")):
        assert as_(table, "outsider").get(path).status_code == 404
    assert as_(table, "outsider").post(sessions_url(table)).status_code == 404
    assert APIClient().get(sessions_url(table)).status_code in (401, 403)


def test_a_second_start_and_an_end_without_a_session_are_refused(table):
    gm = as_(table, "gm")
    gone = gm.post(sessions_url(table, "end/"))
    assert gone.status_code == 400 and gone.json()["error"]["code"] == "no_session"
    gm.post(sessions_url(table))
    again = gm.post(sessions_url(table))
    assert again.status_code == 400 and again.json()["error"]["code"] == "session_open"


def test_a_roll_takes_the_callers_nonce_and_shows_its_draw(table):
    made = roll(table, "player", nonce=NONCE)
    assert made.status_code == 201, made.json()
    assert made.json()["draw"] == {"session": 1, "roll": 1, "nonce": NONCE, "nonce_by": "roller"}
    bare = roll(table, "player").json()["draw"]
    assert bare["nonce_by"] == "server" and bare["roll"] == 2
    bad = roll(table, "player", nonce="Not hex!")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "nonce"


def test_a_blind_roll_answers_without_its_draw(table):
    made = roll(table, "player", visibility="blind", nonce=NONCE).json()
    assert made["blind"] is True and made["draw"] is None


def test_each_member_checks_the_rolls_they_saw(table):
    seen = roll(table, "player", nonce=NONCE).json()
    roll(table, "gm", visibility="gm", nonce=NONCE)
    roll(table, "player", visibility="self", nonce=NONCE)
    as_(table, "gm").post(sessions_url(table, "end/"))
    checks = {
        who: as_(table, who).get(sessions_url(table, "1/")).json()
        for who in ("gm", "player", "other")
    }
    assert [r["roll"] for r in checks["gm"]["rolls"]] == [1, 2, 3]
    assert [r["roll"] for r in checks["player"]["rolls"]] == [1, 3]
    assert [r["roll"] for r in checks["other"]["rolls"]] == [1]
    seed = bytes.fromhex(checks["other"]["seed"])
    [first] = checks["other"]["rolls"]
    shown = RoomEvent.objects.get(kind="roll", data__roll_id=seen["id"])
    assert first["seq"] == shown.seq
    assert first["faces"] == [d["face"] for d in seen["result"]["dice"]]
    assert first["faces"] == faces(seed, 1, 1, NONCE, len(first["faces"]))
    assert first["physical"] is False and first["words"] == seen["sentence"]


def test_an_unknown_session_is_not_found(table):
    assert as_(table, "gm").get(sessions_url(table, "3/")).status_code == 404
