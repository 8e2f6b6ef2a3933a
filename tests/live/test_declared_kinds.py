"""The live render asks each kind's declaration, not the kind's name: a kind
declared by a test alone renders, with what it adds to the broadcast and the
version each member may see, and no branch added anywhere for it."""

import ast
import json
import pathlib
from types import SimpleNamespace

import pytest

from vtt.live.render import render_event, text_for
from vtt.tabletop import event_kinds
from vtt.tabletop.event_kinds import USER, Int, Kind, Sight
from vtt.tabletop.policy import event_view
from vtt.tabletop.visibility import Viewer

ROOT = pathlib.Path(__file__).resolve().parents[2]
BELL = "test.bell"


def rang(payload, event, players_see: bool) -> dict:
    return {"bell": {"times": payload.times, "players_see": players_see}}


@pytest.fixture
def bell():
    kind = event_kinds.declare(
        Kind(
            BELL,
            {"by": USER, "times": Int(lo=1)},
            Sight.VISIBILITY,
            event_kinds.PUBLIC_OR_GM,
            "everyone; on a scene the room is not on, the GM only",
            broadcast=rang,
        )
    )
    yield kind
    event_kinds.forget(BELL)


def an_event(visibility: str):
    data = {"by": {"id": 1, "name": "gm"}, "times": 2}
    event_kinds.check(BELL, data, visibility)
    return SimpleNamespace(
        campaign_id=9, seq=40, kind=BELL, data=data, visibility=visibility, actor_id=1
    )


@pytest.mark.parametrize("visibility", ["public", "gm"])
def test_a_kind_declared_by_a_test_renders_for_each_member(bell, visibility):
    event = an_event(visibility)
    message = render_event(event)
    assert message["bell"] == {"times": 2, "players_see": visibility == "public"}
    for role, user_id in (("gm", 1), ("player", 2), ("observer", 3)):
        frame = json.loads(text_for(message, role, user_id))
        assert frame["event"] == event_view(event, Viewer(user_id, role))
    player = json.loads(text_for(message, "player", 2))["event"]
    if visibility == "public":
        assert player["data"] == {"by": {"id": 1, "name": "gm"}, "times": 2}
    else:
        assert player == {"seq": 40, "type": "redacted"}
    json.dumps(message)


def kind_names_used(path: pathlib.Path, functions: set[str]) -> list[str]:
    """The event kinds' name constants (event_kinds.TOKEN_MOVED, ...) read
    inside these functions of a module."""
    names = {
        name
        for name, value in vars(event_kinds).items()
        if name.isupper() and isinstance(value, str) and value in event_kinds.KINDS
    }
    tree = ast.parse(path.read_text())
    used = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in functions:
            for inner in ast.walk(node):
                if isinstance(inner, ast.Attribute) and inner.attr in names:
                    used.append(f"{node.name}: {inner.attr}")
    return used


@pytest.mark.parametrize(
    "module, functions",
    [
        ("vtt/tabletop/events.py", {"append_event"}),
        ("vtt/live/render.py", {"render_event", "_text", "_add_sight", "_groups_by_role"}),
        (
            "vtt/tabletop/policy.py",
            {"event_view", "_event_view", "_players_copy", "_through_fog", "_unseen"},
        ),
    ],
)
def test_the_log_and_its_render_name_no_kind(module, functions):
    assert kind_names_used(ROOT / module, functions) == []
