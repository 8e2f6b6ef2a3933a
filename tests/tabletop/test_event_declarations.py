"""A kind's declaration drives the log: append_event checks the payload,
finds the scene and has the policy decide the audience from it; readers get
the payload as the kind's type (`event.payload`), older shapes upgraded."""

import dataclasses

import pytest
from django.db import transaction

from vtt.tabletop import event_kinds, policy, services
from vtt.tabletop.event_kinds import ID, USER, Int, Kind, Sight, Text, optional
from vtt.tabletop.events import append_event, events_since
from vtt.tabletop.models import RoomEvent, Visibility
from vtt.tabletop.visibility import Viewer

BELL = "test.bell"


def rung(data: dict) -> dict:
    """Bells logged before `times` said `rings`."""
    if "rings" not in data:
        return data
    data = dict(data)
    return {**data, "times": data.pop("rings")}


@pytest.fixture
def bell():
    """A kind no service appends, declared for these tests alone."""
    kind = event_kinds.declare(
        Kind(
            BELL,
            {"by": USER, "times": Int(lo=1, hi=12), "from": Text(), "tower": optional(ID)},
            Sight.VISIBILITY,
            event_kinds.PUBLIC_OR_GM,
            "everyone; on a scene the room is not on, the GM only",
            scene=event_kinds.on_the_room_scene,
            upgrade=rung,
        )
    )
    yield kind
    event_kinds.forget(BELL)


def ring(table, **kwargs):
    data = {"by": {"id": table.gm.pk, "name": "gm"}, "times": 3, "from": "the chapel"}
    with transaction.atomic():
        return append_event(campaign=table.campaign, kind=BELL, data=data, actor=table.gm, **kwargs)


def test_a_declared_kind_is_appended_and_read_as_its_type(table, bell):
    event = ring(table)
    stored = RoomEvent.objects.get(pk=event.pk)
    payload = stored.payload
    assert isinstance(payload, bell.payload_class)
    assert dataclasses.is_dataclass(payload)
    # A field named like a Python word reads with a trailing underscore.
    assert (payload.times, payload.from_, payload.tower) == (3, "the chapel", None)
    assert payload.as_dict() == stored.data
    with pytest.raises(dataclasses.FrozenInstanceError):
        payload.times = 4


def test_its_payload_is_checked_as_strictly_as_every_kind(table, bell):
    with pytest.raises(event_kinds.InvalidEvent, match=r"^test\.bell: times must be between"):
        with transaction.atomic():
            append_event(
                campaign=table.campaign,
                kind=BELL,
                data={"by": {"id": 1, "name": "a"}, "times": 0, "from": "x"},
            )
    with pytest.raises(event_kinds.InvalidEvent, match=r"^test\.bell: "):
        with transaction.atomic():
            append_event(
                campaign=table.campaign,
                kind=BELL,
                data={"by": {"id": 1, "name": "a"}, "times": 1, "from": "x", "loud": True},
            )
    with pytest.raises(event_kinds.InvalidEvent, match="may not have visibility 'blind'"):
        with transaction.atomic():
            ring(table, visibility="blind")


def test_forgotten_it_is_undeclared_again(table, bell):
    event_kinds.forget(BELL)
    with pytest.raises(event_kinds.UndeclaredEvent):
        ring(table)
    with pytest.raises(ValueError):
        event_kinds.forget(event_kinds.ROLL)  # the log's own kinds stay


def test_its_audience_is_decided_at_append_and_stored(table, bell):
    on_the_map = ring(table, scene_id=table.scene.pk)
    elsewhere = ring(table, scene_id=table.spare_scene.pk)
    assert RoomEvent.objects.get(pk=on_the_map.pk).visibility == Visibility.PUBLIC
    assert RoomEvent.objects.get(pk=elsewhere.pk).visibility == Visibility.GM
    player = Viewer(table.player.pk, "player")
    assert policy.event_view(on_the_map, player)["data"]["times"] == 3
    assert policy.event_view(elsewhere, player) == {"seq": elsewhere.seq, "type": "redacted"}


def test_an_older_shape_is_upgraded_as_it_is_read(table, bell):
    seq = ring(table).seq
    # As it was logged before `times`: a row is never rewritten.
    old = {"by": {"id": table.gm.pk, "name": "gm"}, "rings": 5, "from": "the gate"}
    RoomEvent.objects.create(campaign=table.campaign, seq=seq + 1, kind=BELL, data=old)
    (event,) = events_since(table.campaign.pk, seq)
    assert event.data == old
    assert (event.payload.times, event.payload.from_) == (5, "the gate")


# ------------------------------------------------------------------ the log's own kinds


def test_a_hidden_tokens_events_are_stored_as_the_gms(table):
    created = RoomEvent.objects.filter(campaign=table.campaign, kind="token.created")
    by_name = {e.data["token"]["name"]: e.visibility for e in created}
    assert by_name["Lurker"] == Visibility.GM
    assert by_name["Zombie"] == Visibility.PUBLIC


def test_a_token_hidden_keeps_its_players_version(table):
    seq = RoomEvent.objects.filter(campaign=table.campaign).count()
    services.token_set_hidden(token_id=table.zombie_token.pk, by=table.gm, hidden=True)
    hidden = next(e for e in events_since(table.campaign.pk, seq) if e.kind == "token.hidden")
    assert hidden.visibility == Visibility.PUBLIC
    assert not policy.players_see(hidden)
    view = policy.event_view(hidden, Viewer(table.player.pk, "player"))
    assert view == {
        "seq": hidden.seq,
        "type": "token.removed",
        "data": {"token_id": table.zombie_token.pk},
    }


def test_a_hidden_token_event_logged_public_reads_as_the_gms(table):
    """Before the audience was stored, a hidden token's events were public
    and left to each render: read, they are the GM's."""
    token = {
        **RoomEvent.objects.filter(kind="token.created").first().data["token"],
        "hidden": True,
    }
    seq = RoomEvent.objects.filter(campaign=table.campaign).order_by("-seq").first().seq
    old = RoomEvent.objects.create(
        campaign=table.campaign, seq=seq + 1, kind="token.updated", data={"token": token}
    )
    assert old.visibility == Visibility.PUBLIC
    assert policy.audience(old) == Visibility.GM
    assert policy.event_view(old, Viewer(table.player.pk, "player"))["type"] == "redacted"
    assert policy.event_view(old, Viewer(table.gm.pk, "gm"))["data"]["token"] == token


def test_a_scene_change_logged_with_a_token_list_reads_as_a_table(table):
    event = RoomEvent.objects.filter(kind="scene.activated").first()
    scene = event.data["scene"]
    token = {
        "id": 7,
        "scene_id": scene["id"],
        "character_id": None,
        "name": "Ghoul",
        "x": 1,
        "y": 2,
        "size": 1,
        "hidden": False,
        "color": "#888888",
        "controllers": [],
        "version": 1,
    }
    payload = event_kinds.read("scene.activated", {"scene": scene, "tokens": [token]})
    tokens = payload.tokens
    assert tokens["fields"][:6] == ["id", "name", "x", "y", "color", "version"]
    assert tokens["rows"] == [[7, "Ghoul", 1, 2, "#888888", 1]]
    assert tokens["defaults"]["art"] is None and tokens["defaults"]["scene_id"] == scene["id"]


def test_a_token_logged_before_pictures_reads_without_art(table):
    token = dict(RoomEvent.objects.filter(kind="token.created").first().data["token"])
    del token["art"], token["art_from"]
    payload = event_kinds.read("token.created", {"token": token})
    assert (payload.token["art"], payload.token["art_from"]) == (None, None)
    assert payload.token["name"] == token["name"]


def test_a_required_field_at_none_stays_in_the_dict():
    data = {
        "roll_id": 1,
        "roller": None,
        "character": None,
        "request": {},
        "result": {},
        "physical": False,
        "visibility": "public",
        "sentence": "Check: success.",
    }
    payload = event_kinds.read("roll", data)
    assert (payload.character, payload.draw, payload.chat) == (None, None, None)
    assert payload.as_dict() == data


def test_the_fog_annotation_is_no_part_of_the_payload():
    data = {"from": {"id": 1, "name": "a"}, "text": "hi", "html": "hi"}
    payload = event_kinds.read("chat", {**data, event_kinds.SIGHT: {"groups": {}}})
    assert isinstance(payload, event_kinds.KINDS["chat"].payload_class)
    assert payload.as_dict() == data
