"""Status markers on tokens: who may add and remove which, the bounds of a
free marker, and the one event each change appends."""

import pytest

from vtt.core.errors import NotAllowed, NotFound, ServiceError
from vtt.markers.services import MAX_MARKER_LABEL, MAX_MARKERS_PER_TOKEN, marker_add, marker_remove
from vtt.tabletop import event_kinds
from vtt.tabletop.models import Marker, RoomEvent, Visibility
from vtt.tabletop.services import token_update

pytestmark = pytest.mark.django_db


def _add(table, token, by, **what):
    return marker_add(campaign_id=table.campaign.pk, token_id=token.pk, by=by, **what)


def _last_event():
    return RoomEvent.objects.order_by("-id").first()


def test_the_gm_adds_a_condition_and_the_room_hears_it(table):
    marker = _add(table, table.zombie_token, table.gm, condition_id="prone")
    assert (marker.condition, marker.icon, marker.label) == ("prone", "down", "Prone")
    event = _last_event()
    assert event.kind == event_kinds.MARKER_ADDED
    assert event.visibility == Visibility.PUBLIC
    assert event.data["marker"]["label"] == "Prone"
    assert event.data["token"]["id"] == table.zombie_token.pk


def test_a_free_marker_takes_an_icon_and_words(table):
    marker = _add(table, table.zombie_token, table.gm, icon="flag", label="Marked by Tenrec")
    assert (marker.condition, marker.icon, marker.label) == ("", "flag", "Marked by Tenrec")


def test_a_gm_only_marker_is_appended_as_the_gms(table):
    _add(table, table.tenrec_token, table.gm, icon="skull", label="Cursed", gm_only=True)
    assert _last_event().visibility == Visibility.GM


def test_a_marker_on_a_hidden_token_is_the_gms(table):
    _add(table, table.lurker, table.gm, condition_id="stunned")
    assert _last_event().visibility == Visibility.GM


def test_a_player_marks_a_token_they_control_with_a_condition(table):
    token_update(token_id=table.tenrec_token.pk, by=table.gm, controllers=[table.player.pk])
    marker = _add(table, table.tenrec_token, table.player, condition_id="stunned")
    assert marker.added_by == table.player
    marker_remove(marker_id=marker.pk, by=table.player)
    assert not Marker.objects.exists()
    assert _last_event().kind == event_kinds.MARKER_REMOVED


@pytest.mark.parametrize(
    "what",
    [
        {"condition_id": "prone"},  # not their token
    ],
)
def test_a_player_may_not_mark_a_token_they_do_not_control(table, what):
    with pytest.raises(NotAllowed):
        _add(table, table.zombie_token, table.player, **what)


def test_free_and_secret_markers_are_the_gms(table):
    token_update(token_id=table.tenrec_token.pk, by=table.gm, controllers=[table.player.pk])
    with pytest.raises(NotAllowed, match="free marker"):
        _add(table, table.tenrec_token, table.player, icon="star", label="Brave")
    with pytest.raises(NotAllowed, match="secret"):
        _add(table, table.tenrec_token, table.player, condition_id="prone", gm_only=True)
    with pytest.raises(NotAllowed, match="observer"):
        _add(table, table.tenrec_token, table.observer, condition_id="prone")
    assert not Marker.objects.exists()


def test_a_player_may_not_remove_the_gms_free_marker(table):
    token_update(token_id=table.tenrec_token.pk, by=table.gm, controllers=[table.player.pk])
    marker = _add(table, table.tenrec_token, table.gm, icon="eye", label="Watched")
    with pytest.raises(NotAllowed):
        marker_remove(marker_id=marker.pk, by=table.player)
    assert Marker.objects.filter(pk=marker.pk).exists()


def test_a_gm_only_marker_does_not_exist_for_a_player(table):
    token_update(token_id=table.tenrec_token.pk, by=table.gm, controllers=[table.player.pk])
    marker = _add(table, table.tenrec_token, table.gm, condition_id="prone", gm_only=True)
    with pytest.raises(NotFound):
        marker_remove(marker_id=marker.pk, by=table.player)
    with pytest.raises(NotFound):
        marker_remove(marker_id=marker.pk, by=table.outsider)


@pytest.mark.parametrize(
    "what, field",
    [
        ({"icon": "star", "label": "x" * 10_000}, "label"),
        ({"icon": "star", "label": "x" * (MAX_MARKER_LABEL + 1)}, "label"),
        ({"icon": "star", "label": "   "}, "label"),
        ({"icon": "star", "label": "bell\x07"}, "label"),
        ({"icon": "rocket", "label": "Up"}, "icon"),
        ({"condition_id": "on_fire"}, "condition_id"),
        ({"condition_id": "prone", "label": "Prone!"}, "condition_id"),
        ({"condition_id": "prone", "gm_only": "yes"}, "gm_only"),
    ],
)
def test_bad_input_is_a_field_error_and_stores_nothing(table, what, field):
    before = RoomEvent.objects.count()
    with pytest.raises(ServiceError) as refused:
        _add(table, table.zombie_token, table.gm, **what)
    assert refused.value.code == "invalid"
    assert refused.value.field == field
    assert not Marker.objects.exists()
    assert RoomEvent.objects.count() == before


@pytest.mark.parametrize("token_id", [999_999, "12", None])
def test_a_marker_on_an_unknown_token_is_a_field_error(table, token_id):
    with pytest.raises(ServiceError) as refused:
        marker_add(
            campaign_id=table.campaign.pk, token_id=token_id, by=table.gm, condition_id="prone"
        )
    assert (refused.value.code, refused.value.field) == ("invalid", "token")
    assert not Marker.objects.exists()


def test_a_hidden_token_is_as_unknown_to_a_player_as_a_missing_one(table):
    with pytest.raises(ServiceError) as hidden:
        _add(table, table.lurker, table.player, condition_id="prone")
    with pytest.raises(ServiceError) as missing:
        marker_add(
            campaign_id=table.campaign.pk, token_id=999_999, by=table.player, condition_id="prone"
        )
    assert hidden.value.as_dict() == missing.value.as_dict()


def test_a_condition_is_on_a_token_once_and_a_token_carries_a_few(table):
    _add(table, table.zombie_token, table.gm, condition_id="prone")
    with pytest.raises(ServiceError) as again:
        _add(table, table.zombie_token, table.gm, condition_id="prone")
    assert again.value.code == "already_marked"
    for n in range(MAX_MARKERS_PER_TOKEN - 1):
        _add(table, table.zombie_token, table.gm, icon="star", label=f"Mark {n}")
    with pytest.raises(ServiceError) as full:
        _add(table, table.zombie_token, table.gm, icon="star", label="One more")
    assert full.value.code == "too_many"
    assert Marker.objects.count() == MAX_MARKERS_PER_TOKEN


def test_a_stranger_is_told_there_is_no_campaign(table):
    with pytest.raises(NotFound):
        _add(table, table.zombie_token, table.outsider, condition_id="prone")
