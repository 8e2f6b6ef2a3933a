"""Encoding once per visibility class gives every member exactly the view
vtt.tabletop.policy would give them alone."""

import json
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.live.render import render_event, text_for
from vtt.tabletop import event_kinds
from vtt.tabletop.policy import event_view
from vtt.tabletop.visibility import Viewer

KINDS = [
    "roll",
    "chat",
    "whisper",
    "handout.shared",
    "token.moved",
    "token.hidden",
    "token.created",
    "member.updated",
]
VISIBILITIES = ["public", "gm", "self", "blind"]
ROLES = ["gm", "player", "observer"]


TOKEN = {
    "id": 5,
    "scene_id": 1,
    "character_id": None,
    "name": "Zombie",
    "x": 0,
    "y": 0,
    "size": 1,
    "color": "#888888",
    "controllers": [2],
    "version": 3,
    "art": None,
    "art_from": None,
}


@st.composite
def events(draw):
    """Events as append_event would take them (each kind's declaration)."""
    kind = draw(st.sampled_from(KINDS))
    visibilities = event_kinds.KINDS[kind].visibilities
    data = {
        "roll_id": 1,
        "roller": {"id": 1, "name": "a"},
        "character": None,
        "request": {"system": "artifice", "action": "check"},
        "result": {"outcome": "success"},
        "physical": False,
        "visibility": "public",
        "sentence": "Check: success.",
    }
    if kind == "chat":
        data = {"from": {"id": 1, "name": "a"}, "text": "hi", "html": "hi"}
    if kind == "whisper":
        to = {"id": draw(st.integers(1, 4)), "name": "b"}
        data = {"from": {"id": 1, "name": "a"}, "to": to, "text": "hi", "html": "hi"}
    if kind == "handout.shared":
        to = {"id": draw(st.integers(1, 4)), "name": "b"}
        handout = {
            "id": 7,
            "title": "A letter",
            "html": "<p>hi</p>",
            "image": None,
            "everyone": False,
        }
        data = {"from": {"id": 1, "name": "a"}, "to": to, "handout": handout}
    if kind.startswith("token."):
        data = {"token": {**TOKEN, "hidden": draw(st.booleans())}}
        if kind == "token.moved":
            data["from"] = [1, 1]
    if kind == "member.updated":
        data = {"user": {"id": 2, "name": "b"}, "role": "gm"}
    visibility = draw(st.sampled_from([v for v in VISIBILITIES if v in visibilities]))
    event_kinds.check(kind, data, visibility)
    return SimpleNamespace(
        campaign_id=9,
        seq=draw(st.integers(1, 10**6)),
        kind=kind,
        data=data,
        visibility=visibility,
        actor_id=draw(st.sampled_from([None, 1, 2, 3])),
    )


@settings(max_examples=300, deadline=None)
@given(events(), st.sampled_from(ROLES), st.integers(1, 4))
def test_each_member_gets_their_own_view(event, role, user_id):
    message = render_event(event)
    frame = json.loads(text_for(message, role, user_id))
    assert frame == {"type": "event", "event": event_view(event, Viewer(user_id, role))}


@settings(max_examples=100, deadline=None)
@given(events())
def test_a_broadcast_carries_few_texts_and_the_token_facts(event):
    message = render_event(event)
    assert 1 <= len(message["texts"]) <= 3
    assert message["seq"] == event.seq and message["room"] == 9
    if event.kind.startswith("token."):
        assert message["token"]["id"] == 5
    if event.kind == "member.updated":
        assert message["member"] == {"user_id": 2, "role": "gm"}
    json.dumps(message)  # plain JSON all the way
