"""Malformed frames, the frame size limit, the rate limit, and the
connections that are shown the door."""

import json

import pytest

from vtt.live import limits, protocol
from vtt.live.limits import ConnectionLimits, TokenBucket

pytestmark = pytest.mark.django_db(transaction=True)


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


# ---------------------------------------------------------------- pure parts


def test_token_bucket_allows_a_burst_then_the_rate():
    clock = Clock()
    bucket = TokenBucket(20, 40, clock)
    assert all(bucket.take() for _ in range(40))
    assert not bucket.take()
    clock.now += 0.5  # ten more tokens
    assert sum(bucket.take() for _ in range(20)) == 10
    clock.now += 100  # never more than the burst
    assert sum(bucket.take() for _ in range(100)) == 40


def test_token_bucket_says_how_long_to_wait():
    clock = Clock()
    bucket = TokenBucket(20, 2, clock)
    assert bucket.take() and bucket.take() and not bucket.take()
    assert bucket.wait() == pytest.approx(0.05)
    clock.now += 0.051
    assert bucket.take()


def test_garbage_allowance_refills_slowly():
    clock = Clock()
    conn = ConnectionLimits(clock)
    assert all(conn.forgive_garbage() for _ in range(limits.GARBAGE_ALLOWANCE))
    assert not conn.forgive_garbage()
    clock.now += 2.0
    assert conn.forgive_garbage()
    assert not conn.forgive_garbage()


@pytest.mark.parametrize(
    "text, code, malformed",
    [
        ("{not json", "bad_json", True),
        ("[1, 2]", "bad_frame", True),
        ('{"id": "x"}', "bad_frame", True),
        ('{"type": 5}', "bad_frame", True),
        ('{"type": "dance"}', "unknown_intent", True),
        ('{"type": "ping", "id": {"a": 1}}', "invalid", True),
        ('{"type": "ping", "id": "' + "x" * 65 + '"}', "invalid", True),
        ('{"type": "ping", "loud": true}', "unknown_field", False),
        ('{"type": "token.move", "token": 1, "x": 1}', "invalid", False),
        ('{"type": "token.move", "token": 1, "x": 1, "y": true}', "invalid", False),
        ('{"type": "chat", "text": 12}', "invalid", False),
        ('{"type": "resync", "since": -1}', "invalid", False),
    ],
)
def test_parse_frame_refusals(text, code, malformed):
    with pytest.raises(protocol.ProtocolError) as caught:
        protocol.parse_frame(text)
    assert caught.value.code == code
    assert caught.value.malformed is malformed


def test_parse_frame_reads_intents_with_defaults():
    intent = protocol.parse_frame('{"type": "roll", "id": 3, "request": {"system": "rd6"}}')
    assert intent.type == "roll" and intent.id == 3
    assert intent.fields == {
        "request": {"system": "rd6"},
        "visibility": "public",
        "character": None,
        "fill": None,
        "nonce": None,
    }
    update = protocol.parse_frame('{"type": "token.update", "token": 4, "changes": {"name": "N"}}')
    assert update.fields == {"token": 4, "changes": {"name": "N"}}


def test_frame_size_counts_bytes_not_characters():
    # 5000 euro signs are 15 000 bytes: the frame fits, the chat line is too long.
    fits = json.dumps({"type": "chat", "text": "€" * 5000}, ensure_ascii=False)
    with pytest.raises(protocol.ProtocolError) as caught:
        protocol.parse_frame(fits)
    assert caught.value.code == "invalid"
    # 5500 are 16 500 bytes, over 16 KiB, though only 5500 characters.
    too_big = json.dumps({"type": "chat", "text": "€" * 5500}, ensure_ascii=False)
    with pytest.raises(protocol.ProtocolError) as caught:
        protocol.parse_frame(too_big)
    assert caught.value.code == "too_large"
    with pytest.raises(protocol.ProtocolError) as caught:
        protocol.parse_frame(None, b"\x00" * 10)
    assert caught.value.code == "bad_frame"


# ---------------------------------------------------------------- over the socket


async def test_malformed_frames_get_an_error_and_the_connection_stays(room, clients):
    gm = await clients(room, "gm")
    await gm.ws.send_to(text_data="{oops")
    error = await gm.until(lambda f: f["type"] == "error")
    assert error == {
        "type": "error",
        "id": None,
        "code": "bad_json",
        "message": "the frame is not valid JSON",
        "field": None,
    }
    await gm.ws.send_to(bytes_data=b"\x01\x02")
    assert (await gm.until(lambda f: f["type"] == "error"))["code"] == "bad_frame"
    await gm.ws.send_to(text_data=json.dumps({"type": "chat", "text": "x" * 17000}))
    assert (await gm.until(lambda f: f["type"] == "error"))["code"] == "too_large"
    await gm.send({"type": "teleport", "id": "t"})
    error = await gm.until(lambda f: f["type"] == "error")
    assert (error["code"], error["id"]) == ("unknown_intent", "t")
    await gm.send({"type": "ping", "id": "still-here"})
    assert (await gm.until(lambda f: f["type"] == "pong"))["id"] == "still-here"


async def test_a_connection_that_keeps_sending_garbage_is_closed_4400(room, clients):
    gm = await clients(room, "gm")
    for _ in range(limits.GARBAGE_ALLOWANCE + 1):
        await gm.ws.send_to(text_data="garbage")
    errors = [
        await gm.until(lambda f: f["type"] == "error") for _ in range(limits.GARBAGE_ALLOWANCE + 1)
    ]
    assert {e["code"] for e in errors} == {"bad_json"}
    output = await gm.ws.receive_output(3)
    assert output == {"type": "websocket.close", "code": protocol.CLOSE_GARBAGE}


async def test_intents_beyond_the_burst_are_rate_limited(room, clients):
    gm = await clients(room, "gm")
    for i in range(limits.INTENT_BURST + 5):
        await gm.send({"type": "ping", "id": i})
    replies = [
        await gm.until(lambda f: f["type"] in ("pong", "error"))
        for _ in range(limits.INTENT_BURST + 5)
    ]
    pongs = [r["id"] for r in replies if r["type"] == "pong"]
    limited = [r for r in replies if r["type"] == "error"]
    assert len(pongs) >= limits.INTENT_BURST
    assert limited and all(r["code"] == "rate_limited" for r in limited)
    assert all(r["id"] >= limits.INTENT_BURST for r in limited)


async def test_a_connection_flooding_past_the_limit_is_closed_4429(room, clients):
    gm = await clients(room, "gm")
    flood = limits.INTENT_BURST + int(limits.GARBAGE_ALLOWANCE / limits.REFUSED_COST) + 5
    for i in range(flood):
        await gm.send({"type": "ping", "id": i})
    while True:
        output = await gm.ws.receive_output(3)
        if output["type"] == "websocket.close":
            break
    assert output["code"] == protocol.CLOSE_FLOODING
