"""Undo of a marker: the GM's "Undo last" takes off the marker last put
on, by a marker.removed naming the entry it undoes; a secret one's undo
stays the GM's; the journal says it; a player undoes none."""

import pytest

from vtt.combat.models import Undo
from vtt.combat.services.undo import next_undo, undo_last
from vtt.markers.services import marker_add, marker_remove
from vtt.records.journal import entry_of
from vtt.tabletop.models import Marker, Role, RoomEvent
from vtt.tabletop.policy import event_view
from vtt.tabletop.services import token_move
from vtt.tabletop.services.errors import NotAllowed, ServiceError
from vtt.tabletop.visibility import Viewer


def mark(battle, **what) -> Marker:
    return marker_add(
        campaign_id=battle.campaign.pk,
        token_id=battle.tokens["tenrec"].pk,
        by=battle.users["gm"],
        **what,
    )


def undo(battle, by="gm"):
    return undo_last(campaign_id=battle.campaign.pk, by=battle.users[by])


def test_the_gms_undo_takes_the_last_marker_off(battle):
    gm = battle.users["gm"]
    token_move(token_id=battle.tokens["tenrec"].pk, by=gm, x=5, y=5)
    moved = RoomEvent.objects.latest("seq")
    prone = mark(battle, condition_id="prone")
    added = RoomEvent.objects.latest("seq")
    asked = next_undo(campaign_id=battle.campaign.pk, by=gm)
    assert asked == {
        "seq": added.seq,
        "kind": "marker.added",
        "summary": "the marker Prone on Tenrec",
    }
    event = undo(battle)
    assert event.kind == "marker.removed" and event.visibility == "public"
    assert event.data["undo_of"] == added.seq
    assert event.data["marker"]["id"] == prone.pk
    assert not Marker.objects.filter(pk=prone.pk).exists()
    assert Undo.objects.get(event=added).undone_by == event
    # Never undone twice: the next undo is the move's.
    assert undo(battle).data["undo_of"] == moved.seq
    # The journal says the marker went on, came off, and that it was an undo.
    player = Viewer(battle.users["player"].pk, Role.PLAYER)
    assert entry_of(event_view(added, player)).markdown() == "Tenrec is marked Prone."
    line = entry_of(event_view(event, player))
    assert line.markdown() == "Tenrec is no longer marked Prone."
    assert line.notes == (f"undoing #{added.seq}",)


def test_a_marker_taken_off_since_is_passed_over(battle):
    gm = battle.users["gm"]
    token_move(token_id=battle.tokens["tenrec"].pk, by=gm, x=5, y=5)
    moved = RoomEvent.objects.latest("seq")
    prone = mark(battle, condition_id="prone")
    marker_remove(marker_id=prone.pk, by=gm)
    assert undo(battle).data["undo_of"] == moved.seq


def test_a_secret_markers_undo_is_the_gms_alone(battle):
    mark(battle, icon="skull", label="Doomed", gm_only=True)
    event = undo(battle)
    assert event.kind == "marker.removed" and event.visibility == "gm"
    seen = event_view(event, Viewer(battle.users["player"].pk, Role.PLAYER))
    assert seen == {"seq": event.seq, "type": "redacted"}
    gm_line = entry_of(event_view(event, Viewer(battle.users["gm"].pk, Role.GM)))
    assert gm_line.notes == ("GM only", f"undoing #{event.seq - 1}")


def test_a_player_undoes_no_marker(battle):
    marker_add(
        campaign_id=battle.campaign.pk,
        token_id=battle.tokens["tenrec"].pk,
        by=battle.users["player"],
        condition_id="prone",
    )
    with pytest.raises(NotAllowed):
        undo(battle, by="player")
    assert Marker.objects.count() == 1
    assert undo(battle).kind == "marker.removed"
    with pytest.raises(ServiceError):
        undo(battle, by="player")  # nothing of theirs left: nothing to undo
