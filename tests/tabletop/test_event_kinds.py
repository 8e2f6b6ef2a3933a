"""append_event takes only declared kinds, each with the payload and the
visibility its declaration allows; a refusal appends nothing."""

import pytest
from django.db import transaction

from tests.tabletop.helpers import chat_data, last_seq
from vtt.tabletop import event_kinds
from vtt.tabletop.events import append_event
from vtt.tabletop.serialize import token_data

pytestmark = pytest.mark.django_db


def append(table, kind, data, **extra):
    with transaction.atomic():
        return append_event(campaign=table.campaign, kind=kind, data=data, **extra)


def test_a_declared_kind_with_its_payload_is_appended(table):
    event = append(table, event_kinds.CHAT, chat_data("hello"))
    assert event.kind == "chat" and event.data["text"] == "hello"


def test_an_undeclared_kind_is_refused_and_nothing_is_appended(table):
    seq = last_seq(table.campaign)
    with pytest.raises(event_kinds.UndeclaredEvent):
        append(table, "token.teleported", {"token": {"id": 1}})
    assert last_seq(table.campaign) == seq


@pytest.mark.parametrize(
    "data, says",
    [
        ({"text": "hi", "html": "hi"}, "from is required"),
        ({**chat_data("hi"), "text": 7}, "text must be text"),
        ({**chat_data("hi"), "colour": "red"}, "colour is not a field"),
        ({**chat_data("hi"), "from": {"id": 0, "name": "gm"}}, "from.id"),
        (["not", "an", "object"], "must be a JSON object"),
    ],
)
def test_a_payload_that_does_not_match_its_declaration_is_refused(table, data, says):
    seq = last_seq(table.campaign)
    with pytest.raises(event_kinds.InvalidEvent) as refused:
        append(table, event_kinds.CHAT, data)
    assert says in str(refused.value)
    assert last_seq(table.campaign) == seq


def test_a_nested_payload_is_checked_too(table):
    token = {"token": {"id": table.lurker.pk, "hidden": True}}  # most of a token missing
    with pytest.raises(event_kinds.InvalidEvent, match="token.scene_id is required"):
        append(table, event_kinds.TOKEN_UPDATED, token)
    moved = {"token": {**token_data(table.lurker), "x": 1}, "from": [1]}
    with pytest.raises(event_kinds.InvalidEvent, match="from must have 2 to 2 items"):
        append(table, event_kinds.TOKEN_MOVED, moved)


def test_a_visibility_its_kind_does_not_allow_is_refused(table):
    with pytest.raises(event_kinds.InvalidEvent, match="may not have visibility"):
        append(table, event_kinds.CHAT, chat_data("psst"), visibility="blind")


def test_every_kind_says_who_sees_it():
    for kind in event_kinds.KINDS.values():
        assert kind.who and kind.visibilities and kind.payload
        assert kind.sight in event_kinds.Sight


def test_the_protocol_doc_lists_every_kind():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    for name in event_kinds.KINDS:
        assert f"| `{name}` |" in doc, name
