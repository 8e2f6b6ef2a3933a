"""A room's intents committed together (vtt.live.group_commit): each keeps
its own answer and its own refusal, the log's order is the order they were
carried out in, and nothing is announced before the batch's commit."""

import asyncio
import functools
import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from vtt.live import group_commit, intents
from vtt.live.protocol import parse_frame
from vtt.tabletop.events import event_committed
from vtt.tabletop.models import RoomEvent, Token
from vtt.tabletop.services.errors import ServiceError

pytestmark = pytest.mark.django_db(transaction=True)


def _act(room, who: str, frame: dict):
    user = get_user_model().objects.get(pk=room.users[who])
    asker = intents.Asker(user, room.campaign_id)
    return functools.partial(intents.carry_out, asker, parse_frame(json.dumps(frame)))


def _once(room, who: str, frame: dict):
    """What the room's writer is handed for `frame` (as the consumer does)."""
    user = get_user_model().objects.get(pk=room.users[who])
    asker = intents.Asker(user, room.campaign_id)
    return intents.once(asker, parse_frame(json.dumps(frame)))


def _log(room, after: int) -> list[tuple[str, dict]]:
    return [
        (e.kind, e.data)
        for e in RoomEvent.objects.filter(campaign_id=room.campaign_id, seq__gt=after).order_by(
            "seq"
        )
    ]


def _last_seq(room) -> int:
    return RoomEvent.objects.filter(campaign_id=room.campaign_id).order_by("-seq")[0].seq


def test_a_batch_keeps_each_answer_and_undoes_only_the_refused_intent(room):
    before = _last_seq(room)
    tenrec = room.tokens["tenrec"]
    announced = []

    def heard(sender, event, **kwargs):
        announced.append(event.seq)

    event_committed.connect(heard)
    try:
        outcomes = group_commit.carry_out_together(
            room.campaign_id,
            [
                _act(room, "player", {"type": "token.move", "token": tenrec, "x": 3, "y": 1}),
                # Off the 20 x 20 map: refused, and writes nothing.
                _act(room, "player", {"type": "token.move", "token": tenrec, "x": 30, "y": 1}),
                _act(room, "gm", {"type": "chat", "id": "c1", "text": "the door creaks"}),
                _act(room, "player", {"type": "token.move", "token": tenrec, "x": 4, "y": 2}),
            ],
        )
    finally:
        event_committed.disconnect(heard)
    answers = [o.answer for o in outcomes]
    assert isinstance(outcomes[1].error, ServiceError) and outcomes[1].error.field == "x"
    assert [o.error for i, o in enumerate(outcomes) if i != 1] == [None, None, None]
    assert answers[0][0]["token"]["x"] == 3 and answers[3][0]["token"]["x"] == 4
    log = _log(room, before)
    assert [kind for kind, _ in log] == ["token.moved", "chat", "token.moved"]
    assert log[2][1]["from"] == [3, 1] and log[2][1]["token"]["x"] == 4
    assert Token.objects.get(pk=tenrec).version == log[2][1]["token"]["version"]
    # Announced once each, in order, after the commit.
    assert announced == [before + 1, before + 2, before + 3]


def test_a_batch_that_only_refuses_writes_nothing(room):
    before = _last_seq(room)
    outcomes = group_commit.carry_out_together(
        room.campaign_id,
        [
            _act(
                room,
                "other",
                {"type": "token.move", "token": room.tokens["tenrec"], "x": 2, "y": 1},
            ),
            _act(
                room,
                "player",
                {"type": "token.move", "token": room.tokens["zombie"], "x": 2, "y": 1},
            ),
        ],
    )
    assert all(isinstance(o.error, ServiceError) for o in outcomes)
    assert _log(room, before) == []


async def test_intents_arriving_together_are_carried_out_in_arrival_order(room):
    writer = group_commit.RoomWriter(room.campaign_id)
    texts = [f"line {i}" for i in range(12)]
    acts = await database_sync_to_async(
        lambda: [_act(room, "gm", {"type": "chat", "text": t}) for t in texts]
    )()
    before = await database_sync_to_async(_last_seq)(room)
    answers = await asyncio.gather(*(writer.carry_out(act) for act in acts))
    assert all(repeat is False for _, repeat in answers)
    log = await database_sync_to_async(_log)(room, before)
    assert [data["text"] for _, data in log] == texts
    assert not writer.busy and writer.pending == []


async def test_a_refusal_in_a_batch_reaches_its_own_sender_only(room):
    writer = group_commit.RoomWriter(room.campaign_id)
    tenrec = room.tokens["tenrec"]
    acts = await database_sync_to_async(
        lambda: [
            _act(room, "gm", {"type": "chat", "text": "first"}),
            _act(room, "other", {"type": "token.move", "token": tenrec, "x": 5, "y": 5}),
            _act(room, "player", {"type": "token.move", "token": tenrec, "x": 5, "y": 5}),
        ]
    )()
    results = await asyncio.gather(*(writer.carry_out(a) for a in acts), return_exceptions=True)
    assert isinstance(results[1], ServiceError)
    assert results[2][0]["token"]["x"] == 5
    assert not isinstance(results[0], BaseException)


def _writes_then_refuses(asker, fields):
    """A chat line stored, then refused: its own savepoint must undo it."""
    intents.chat(asker, fields)
    raise ServiceError("invalid", "text: refused after it was written", "text")


@pytest.mark.parametrize("alone", [True, False])
def test_an_intent_refused_after_it_wrote_undoes_its_own_writes_only(room, monkeypatch, alone):
    monkeypatch.setitem(intents.HANDLERS, "chat", _writes_then_refuses)
    before = _last_seq(room)
    tenrec = room.tokens["tenrec"]
    refused = _once(room, "gm", {"type": "chat", "id": "c9", "text": "never heard"})
    moves = [
        _once(
            room, "player", {"type": "token.move", "id": f"m{x}", "token": tenrec, "x": x, "y": 1}
        )
        for x in (3, 4)
    ]
    acts = [refused] if alone else [moves[0], refused, moves[1]]
    outcomes = group_commit.carry_out_together(room.campaign_id, acts)
    assert [type(o.error) for o in outcomes if o.error] == [ServiceError]
    assert [kind for kind, _ in _log(room, before)] == ([] if alone else ["token.moved"] * 2)
    # The refused intent left no receipt: the same id acts again.
    monkeypatch.setitem(intents.HANDLERS, "chat", intents.chat)
    resent = _once(room, "gm", {"type": "chat", "id": "c9", "text": "never heard"})
    again = group_commit.carry_out_together(room.campaign_id, [resent])
    assert again[0].error is None and again[0].answer[1] is False
    assert _log(room, before)[-1][1]["text"] == "never heard"


def test_an_id_sent_twice_in_one_batch_acts_once_and_answers_alike(room):
    before = _last_seq(room)
    move = {"type": "token.move", "id": "m1", "token": room.tokens["tenrec"], "x": 3, "y": 1}
    outcomes = group_commit.carry_out_together(
        room.campaign_id, [_once(room, "player", move), _once(room, "player", move)]
    )
    (first, repeat), (again, repeated) = (o.answer for o in outcomes)
    assert (repeat, repeated) == (False, True) and again == first
    assert [kind for kind, _ in _log(room, before)] == ["token.moved"]


@pytest.mark.parametrize("alone", [True, False])
def test_a_roll_refused_by_the_rules_gives_its_roll_number_back(room, alone):
    """The rules refuse a roll after its number was drawn from the session:
    with no savepoint of the roll's own, the intent's (or its
    transaction's) rollback must give the number back."""
    from vtt.tabletop.models import PlaySession, Roll

    check = {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2}
    good = [
        _once(room, "player", {"type": "roll", "id": f"r{i}", "request": check}) for i in (1, 2)
    ]
    bad = _once(room, "player", {"type": "roll", "id": "r0", "request": {**check, "pool": 999}})
    before = _last_seq(room)
    batches = [[good[0]], [bad], [good[1]]] if alone else [[good[0], bad, good[1]]]
    outcomes = [
        o for acts in batches for o in group_commit.carry_out_together(room.campaign_id, acts)
    ]
    assert isinstance(outcomes[1].error, ServiceError)
    assert outcomes[1].error.field.startswith("request")
    draws = [data["draw"]["roll"] for kind, data in _log(room, before)]
    assert draws[1] == draws[0] + 1
    session = PlaySession.objects.get(campaign_id=room.campaign_id, ended_at=None)
    assert session.rolls == draws[1]
    assert Roll.objects.filter(campaign_id=room.campaign_id).count() == 2
