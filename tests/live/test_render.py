"""Encoding once per visibility class gives every member exactly the view
vtt.tabletop.visibility would give them alone."""

import json
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from vtt.live.render import render_event, text_for
from vtt.tabletop.visibility import Viewer, event_view

KINDS = ["roll", "chat", "token.moved", "token.hidden", "token.created", "member.updated"]
VISIBILITIES = ["public", "gm", "self", "blind"]
ROLES = ["gm", "player", "observer"]


@st.composite
def events(draw):
    kind = draw(st.sampled_from(KINDS))
    data = {
        "roller": {"id": 1, "name": "a"},
        "request": {"system": "artifice", "action": "check"},
        "result": {"outcome": "success"},
    }
    if kind.startswith("token."):
        data = {"token": {"id": 5, "hidden": draw(st.booleans()), "controllers": [2], "version": 3}}
    if kind == "member.updated":
        data = {"user": {"id": 2, "name": "b"}, "role": "gm"}
    return SimpleNamespace(
        campaign_id=9,
        seq=draw(st.integers(1, 10**6)),
        kind=kind,
        data=data,
        visibility=draw(st.sampled_from(VISIBILITIES)),
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
