"""Text that is legal JSON but not Unicode: a lone UTF-16 surrogate
(`"\\ud800"`) in a key, an id or a value. Every front door refuses it in its
own shape, naming the place with the bad character written out in ASCII, so
the refusal itself always encodes: a 400 over REST, an error frame on a
socket that stays open, exit code 2 from the rules commands.

Then the same doors under arbitrary JSON (surrogates, deep nesting, huge
numbers, wrong types, random keys): never a 5xx, never a dropped socket,
and nothing stored by a refused request."""

import io
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token as AuthToken

from tests.api.test_rules_endpoints import manage
from tests.live.conftest import session_cookie
from vtt.rules.text import unencodable_path
from vtt.tabletop.models import Campaign, Character, Membership, Roll, RoomEvent, Scene, Token

from .conftest import CHECK, make_secrets

ROOT = Path(__file__).resolve().parents[2]
LONE = "\\ud800"  # the JSON escape, as a client writes it
FIELD = "\\ud800"  # and as the refusal names it: the same six ASCII characters


def encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# ------------------------------------------------------------------ the check


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ({"name": "Tenrec"}, None),
        (json.loads('{"name": "Ten\\ud83d\\ude00rec"}'), None),  # a pair: one emoji
        ("\ud800", ""),
        ({"\ud800": 1}, FIELD),
        ({"name": "x\udfff"}, "name"),
        ({"sheet": {"skills": ["Bow", "\udc00"]}}, "sheet.skills[1]"),
        ({"weapons": [{"na\ud800me": 1}]}, "weapons[0].na\\ud800me"),
        ({"a": "\ud800", "b": "\ud800"}, "a"),  # the first in the text
        ({"a": {"b": "\ud800"}, "c": "\ud800"}, "a.b"),
        ([1, [2, ["\ud800"]]], "[1][1][0]"),
    ],
)
def test_the_path_to_the_first_unencodable_string(value, path):
    assert unencodable_path(value) == path
    assert path is None or encodes(path)


def test_the_check_walks_nesting_past_the_recursion_limit():
    value: list = ["\ud800"]
    for _ in range(sys.getrecursionlimit() * 2):
        value = [value]
    assert unencodable_path(value).endswith("[0][0]")


# ------------------------------------------------------------------ REST


def snapshot() -> dict:
    """Every row a refused request could have touched."""
    models = (Campaign, Membership, Character, Scene, Token, Roll, RoomEvent, AuthToken)
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in models}


@pytest.fixture
def secrets(db):
    """Laid for each test: the module's socket tests need the database free
    of the module-long transaction the shared table would hold open."""
    return make_secrets("ht-")


@pytest.fixture
def urls(secrets):
    return SimpleNamespace(
        campaigns="/api/campaigns/",
        characters=f"/api/campaigns/{secrets.campaign.pk}/characters/",
        character=f"/api/characters/{secrets.characters.tenrec.pk}/",
        tokens=f"/api/scenes/{secrets.crypt.pk}/tokens/",
        token=f"/api/tokens/{secrets.tokens.tenrec.pk}/",
        rolls=f"/api/campaigns/{secrets.campaign.pk}/rolls/",
    )


@pytest.fixture
def unthrottled(monkeypatch):
    """The rules endpoints' throttle is real; a run of many requests must not trip it."""
    from django.core.cache import cache
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"adjudicate": "1000000/minute"})
    cache.clear()


def refused_naming(response, field) -> dict:
    """The API's one error shape, naming `field`, in bytes that are UTF-8."""
    assert response.status_code == 400, response.content[:300]
    body = json.loads(response.content.decode("utf-8"))
    assert body["error"]["code"] == "invalid"
    assert body["error"]["field"] == field
    assert field in body["error"]["message"] and "surrogate" in body["error"]["message"]
    return body


@pytest.mark.parametrize(
    ("who", "method", "url", "body", "field"),
    [
        (None, "post", "/api/auth/token/", '{"' + LONE + '": 1}', FIELD),
        (None, "post", "/api/auth/token/", '{"username": "gm", "password": "' + LONE + '"}', "password"),
        ("gm", "post", "campaigns", '{"name": "Crypt' + LONE + '", "game": "artifice"}', "name"),
        ("gm", "post", "characters", '{"name": "X", "sheet": {"skills": ["' + LONE + '"]}}', "sheet.skills[0]"),
        ("player", "patch", "character", '{"' + LONE + '": 1}', FIELD),
        ("player", "patch", "character", '{"gm_notes": "' + LONE + '"}', "gm_notes"),
        ("gm", "post", "tokens", '{"name": "Rat", "x": 1, "y": 1, "' + LONE + '": 1}', FIELD),
        ("gm", "patch", "token", '{"name": "' + LONE + 'x"}', "name"),
        ("player", "post", "rolls", '{"request": {"system": "' + LONE + '"}}', "request.system"),
    ],
    ids=["token-key", "token-password", "campaign", "character", "character-key",
         "character-notes", "token-key", "token-name", "roll"],
)  # fmt: skip
def test_rest_refuses_a_lone_surrogate_with_a_400_naming_it(
    web, urls, unthrottled, who, method, url, body, field
):
    before = snapshot()
    response = getattr(web(who), method)(
        getattr(urls, url, url), body, content_type="application/json"
    )
    body = refused_naming(response, field)
    assert body["fields"] == {field: [body["fields"][field][0]]}
    assert snapshot() == before


@pytest.mark.parametrize("path", ["/api/odds/", "/api/adjudicate/"])
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"system": "artifice", "action": "check", "pool": 2, "' + LONE + '": 1}', FIELD),
        ('{"system": "artifice' + LONE + '", "action": "check"}', "system"),
    ],
    ids=["key", "value"],
)
def test_the_rules_endpoints_refuse_it_in_the_contracts_shape(web, unthrottled, path, body, field):
    response = web(None).post(path, body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    error = json.loads(response.content.decode("utf-8"))
    message = error["error"]["message"]
    assert error == {"error": {"code": "invalid", "field": field, "message": message}}
    assert field in message and "surrogate" in message


SURROGATE_BYTES = b"\xed\xa0\x80"  # U+D800 as CESU-8: no UTF-8 decoder takes it


def test_surrogate_bytes_in_a_query_string_or_a_form_become_u_fffd(web, secrets):
    # Django decodes query strings and form fields with errors="replace".
    gm = web("gm")
    assert gm.get("/api/campaigns/?page=%ED%A0%80").status_code == 404
    response = gm.get(f"/api/combat/attacks/?campaign=%ED%A0%80{secrets.campaign.pk}")
    assert response.status_code == 404
    response = gm.post(
        f"/campaigns/{secrets.campaign.pk}/gm/scenes/",
        "name=%ED%A0%80&width=10&height=10",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code < 500
    # The one API form: a multipart upload, field name and file name spoiled.
    part = b'Content-Disposition: form-data; name="image"; filename="%s.png"\r\n\r\nabc'
    body = b"--XX\r\n" + part % SURROGATE_BYTES + b"\r\n--XX--\r\n"
    response = gm.generic(
        "PUT",
        f"/api/scenes/{secrets.crypt.pk}/background/",
        body,
        "multipart/form-data; boundary=XX",
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "image"


@pytest.mark.parametrize("charset", ["zlib", "rot13", "hex", "utf-16", "x-no-such"])
def test_a_body_in_a_charset_that_is_no_text_encoding_is_a_400(web, urls, charset):
    body = b'{"name": "X", "game": "artifice"}'
    content_type = f"application/json; charset={charset}"
    # generic(): post() would encode the body in that charset itself.
    response = web("gm").generic("POST", urls.campaigns, body, content_type)
    assert response.status_code in (201, 400), response.content[:300]
    if response.status_code == 400:
        assert response.json()["error"]["code"] == "parse_error"


# ------------------------------------------------------------------ commands


@pytest.mark.parametrize("command", ["adjudicate", "odds"])
@pytest.mark.parametrize(
    ("stdin", "field"),
    [
        ('{"system": "artifice", "action": "check", "pool": 2, "' + LONE + '": 1}', FIELD),
        ('{"system": "artifice", "action": "check", "pool": "' + LONE + '"}', "pool"),
        ('"' + LONE + '"', None),
    ],
    ids=["key", "value", "bare"],
)
def test_the_rules_commands_exit_2_naming_it(command, stdin, field):
    done = manage(command, stdin)
    assert done.returncode == 2, done.stderr[-500:]
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "invalid" and error["field"] == field
    assert (field or "the request") in error["message"] and "surrogate" in error["message"]


@pytest.mark.parametrize("command", ["adjudicate", "odds"])
def test_the_commands_through_django_answer_the_same(command, monkeypatch, capsys):
    from django.core.management import call_command

    stdin = '{"system": "artifice", "action": "check", "' + LONE + '": 1}'
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as exited:
        call_command(command)
    assert exited.value.code == 2
    assert json.loads(capsys.readouterr().out)["error"]["field"] == FIELD


# ------------------------------------------------------------------ websocket

ANSWERS = ("error", "ack", "pong", "resync", "snapshot", "welcome")
GARBAGE_CLOSES = (4400, 4429)  # too much garbage, or too fast: documented, not a crash


@pytest.fixture
def live(transactional_db):
    secrets = make_secrets("hl-")
    return SimpleNamespace(
        campaign_id=secrets.campaign.pk,
        cookies={name: session_cookie(user) for name, user in secrets.users.items()},
        s=secrets,
    )


async def next_output(client, timeout=3) -> dict:
    """The next frame, decoded, or {"closed": code}. A frame must encode as
    UTF-8: the ASGI server encodes it so, and fails the socket with 1011 if
    it cannot."""
    output = await client.ws.receive_output(timeout)
    if output["type"] == "websocket.close":
        return {"closed": output.get("code", 1000)}
    assert encodes(output["text"]), output["text"][:200]
    return json.loads(output["text"])


async def answer_to(client, text: str) -> dict:
    """Send one frame text; the first answer to it (frames pushed by the
    room meanwhile are passed over), or {"closed": code}."""
    await client.ws.send_to(text_data=text)
    while True:
        frame = await next_output(client)
        if "closed" in frame or frame["type"] in ANSWERS:
            return frame


async def still_answers(client) -> None:
    """A ping is answered with its pong (whatever else is still on its way)."""
    await client.ws.send_to(text_data='{"type": "ping", "id": "alive"}')
    while True:
        frame = await next_output(client)
        assert "closed" not in frame, frame
        if frame["type"] == "pong" and frame["id"] == "alive":
            return


def room_log(campaign_id):
    @database_sync_to_async
    def read():
        return (
            list(RoomEvent.objects.filter(campaign_id=campaign_id).values_list("seq", flat=True)),
            list(Token.objects.filter(scene__campaign_id=campaign_id).order_by("pk").values()),
            Roll.objects.filter(campaign_id=campaign_id).count(),
        )

    return read()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("text", "field", "id_"),
    [
        ('{"type": "ping", "id": "' + LONE + '"}', "id", None),
        ('{"type": "ping", "id": "p1", "' + LONE + '": 1}', FIELD, "p1"),
        ('{"type": "chat", "id": "c1", "text": "hi ' + LONE + '"}', "text", "c1"),
        ('{"type": "chat", "id": 7, "text": "hi", "x\\udfffy": ["' + LONE + '"]}', "x\\udfffy", 7),
        ('{"type": "tok' + LONE + 'en.move", "id": "' + LONE + '", "token": 1}', "type", None),
        ('{"type": "roll", "id": "r1", "request": {"pool": ["' + LONE + '"]}}', "request.pool[0]", "r1"),
    ],
    ids=["id", "key", "chat", "nested-key", "type", "roll"],
)  # fmt: skip
async def test_a_lone_surrogate_gets_an_error_frame_and_the_socket_stays(
    live, clients, text, field, id_
):
    player = await clients(live, "player")
    before = await room_log(live.campaign_id)
    error = await answer_to(player, text)
    assert error["type"] == "error", error
    assert (error["code"], error["field"], error["id"]) == ("invalid", field, id_)
    assert field in error["message"] and "surrogate" in error["message"]
    await still_answers(player)
    assert await room_log(live.campaign_id) == before


# ------------------------------------------------------------------ arbitrary JSON

# JSON text written out, so a lone surrogate can be spelled as its escape
# (and, last, as a raw character: CESU-8 bytes over REST).
ESCAPES = [
    "\\ud800",
    "\\udfff",
    "\\udc00x",
    "\\ud83d\\ude00",
    "\\u0000",
    "\\n",
    '\\"',
    "\\\\",
    "\udc80",
]
RAW = st.text(
    st.characters(codec="utf-8", exclude_characters='"\\', exclude_categories=["Cc"]), max_size=6
)
STRINGS = st.lists(RAW | st.sampled_from(ESCAPES), max_size=3).map(lambda p: '"' + "".join(p) + '"')
HUGE = [
    "1e400",
    "-1e400",
    "1" + "0" * 400,
    "1" + "0" * 5000,
    "1E-400",
    "-0",
    str(2**63),
    str(2**64),
]
NUMBERS = (
    st.sampled_from(HUGE)
    | st.integers(-(2**70), 2**70).map(str)
    | st.floats(allow_nan=False, allow_infinity=False).map(repr)
)
SCALARS = STRINGS | NUMBERS | st.sampled_from(["true", "false", "null", "NaN", "Infinity"])
FIELD_NAMES = [
    "name", "game", "sheet", "weapons", "kind", "owner_id", "gm_notes", "resources", "x", "y",
    "size", "color", "hidden", "character_id", "controllers", "request", "visibility", "system",
    "action", "pool", "difficulty", "faces", "username", "password", "token", "text", "changes",
    "since", "id", "type", "fill", "scene", "version",
]  # fmt: skip
KEYS = st.sampled_from([json.dumps(name) for name in FIELD_NAMES]) | STRINGS


def obj(entries) -> str:
    return "{" + ", ".join(f"{key}: {value}" for key, value in entries) + "}"


VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4).map(lambda items: "[" + ", ".join(items) + "]")
        | st.lists(st.tuples(KEYS, inner), max_size=4).map(obj)
    ),
    max_leaves=10,
)
DEEP = st.integers(1, 3000).flatmap(
    lambda n: st.sampled_from(["[" * n + "]" * n, '{"a": ' * n + "1" + "}" * n])
)


def body_of(good: dict):
    """A body for an endpoint whose sound fields are `good` (JSON text
    each): some kept, some spoiled, random keys added; or any JSON at all."""
    fields = st.fixed_dictionaries(
        {}, optional={key: st.just(value) | VALUES for key, value in good.items()}
    )
    extra = st.lists(st.tuples(KEYS, VALUES), max_size=2)
    shaped = st.tuples(fields, extra).map(
        lambda both: obj([*((json.dumps(k), v) for k, v in both[0].items()), *both[1]])
    )
    return shaped | VALUES | DEEP


CHECK_TEXT = {key: json.dumps(value) for key, value in CHECK.items()}
ENDPOINTS = {
    ("gm", "post", "campaigns"): {"name": '"Crypt"', "game": '"artifice"', "settings": "{}"},
    ("player", "post", "characters"): {"name": '"Nim"', "sheet": '{"race": "Elf"}', "weapons": "[]"},
    ("player", "patch", "character"): {"name": '"Tenrec"', "gm_notes": '"x"', "resources": "{}"},
    ("gm", "post", "tokens"): {"name": '"Rat"', "x": "1", "y": "1", "size": "1", "hidden": "false"},
    ("gm", "patch", "token"): {"name": '"Rat"', "size": "1", "color": '"#aa0000"', "controllers": "[]"},
    ("player", "post", "rolls"): {"request": json.dumps(CHECK), "visibility": '"public"'},
    ("player", "post", "/api/adjudicate/"): CHECK_TEXT,
    ("player", "post", "/api/odds/"): CHECK_TEXT,
    ("player", "post", "/api/auth/token/"): {"username": '"ht-gm"', "password": '"x"'},
}  # fmt: skip
REQUESTS = st.sampled_from(sorted(ENDPOINTS)).flatmap(
    lambda endpoint: st.tuples(st.just(endpoint), body_of(ENDPOINTS[endpoint]))
)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=REQUESTS)
def test_any_json_to_the_api_is_answered_without_a_5xx_or_a_trace(web, urls, unthrottled, case):
    (who, method, url), body = case
    before = snapshot()
    response = getattr(web(who), method)(
        getattr(urls, url, url), body.encode("utf-8", "surrogatepass"), "application/json"
    )
    assert response.status_code < 500, response.content[:300]
    event(f"{url} {response.status_code}")
    answer = json.loads(response.content.decode("utf-8"))
    if response.status_code >= 400:
        assert answer["error"]["code"] and answer["error"]["message"]
        assert snapshot() == before


FRAME_TYPES = st.sampled_from(
    ['"ping"', '"chat"', '"roll"', '"token.move"', '"token.update"', '"resync"', '"attack"']
)
FRAMES = (
    st.tuples(FRAME_TYPES | VALUES, STRINGS | NUMBERS | VALUES, st.lists(st.tuples(KEYS, VALUES), max_size=3))
    .map(lambda parts: obj([('"type"', parts[0]), ('"id"', parts[1]), *parts[2]]))
    | VALUES
    | DEEP
)  # fmt: skip


@pytest.mark.django_db(transaction=True)
@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(frames=st.lists(FRAMES, min_size=1, max_size=4))
async def test_any_json_on_the_socket_is_answered_and_the_socket_stays(live, clients, frames):
    player = await clients(live, "player")
    try:
        for text in frames:
            before = await room_log(live.campaign_id)
            reply = await answer_to(player, text)
            if "closed" in reply:
                assert reply["closed"] in GARBAGE_CLOSES, reply
                return
            assert reply.get("code") != "server_error", (text[:200], reply)
            event(f"{reply['type']} {reply.get('code', '')}")
            if reply["type"] == "error":
                assert reply["message"]
                assert await room_log(live.campaign_id) == before
        await still_answers(player)
    finally:
        await player.ws.disconnect()
