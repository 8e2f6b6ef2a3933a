import pytest

from vtt import dice
from vtt.tabletop import services
from vtt.tabletop.models import Roll

from ..helpers import events_after, last_seq

pytestmark = pytest.mark.django_db

CHECK = {"system": "artifice", "action": "check", "pool": 3, "modifier": 1, "difficulty": 2}


def test_record_stores_the_audit_row_and_the_event(table):
    seq = last_seq(table.campaign)
    result = {"system": "artifice", "action": "check", "outcome": "failure", "dice": []}
    roll = dice.roll_record(
        campaign=table.campaign,
        by=table.player,
        request=CHECK,
        result=result,
        visibility="gm",
        character=table.tenrec,
        physical=True,
    )
    assert (roll.roller, roll.character, roll.physical, roll.visibility) == (
        table.player,
        table.tenrec,
        True,
        "gm",
    )
    # The room had no play session: the roll opened one, whose digest comes first.
    [opened, event] = events_after(table.campaign, seq)
    assert (opened.kind, opened.data["session"]) == ("session.started", 1)
    assert (event.kind, event.visibility, event.actor) == ("roll", "gm", table.player)
    assert event.data == {
        "roll_id": roll.pk,
        "roller": {"id": table.player.pk, "name": "player"},
        "character": {"id": table.tenrec.pk, "name": "Tenrec"},
        "request": CHECK,
        "result": result,
        "physical": True,
        "visibility": "gm",
        # A result without its numbers is said plainly.
        "sentence": "Tenrec's Check: failure.",
        # Thrown elsewhere: recorded in the session as entered, not derived.
        "draw": {"session": 1, "roll": 1, "physical": True},
    }


def test_who_may_roll_for_whom(table):
    record = dict(campaign=table.campaign, request=CHECK, result={}, visibility="public")
    with pytest.raises(services.NotAllowed):
        dice.roll_record(by=table.observer, **record)
    with pytest.raises(services.NotFound):
        dice.roll_record(by=table.outsider, **record)
    with pytest.raises(services.NotAllowed):
        dice.roll_record(by=table.player, character=table.kobor, **record)
    with pytest.raises(services.NotAllowed):
        dice.roll_record(by=table.player, character=table.zombie, **record)
    dice.roll_record(by=table.gm, character=table.zombie, **record)
    with pytest.raises(services.ServiceError) as caught:
        dice.roll_record(by=table.gm, **{**record, "visibility": "secret"})
    assert caught.value.field == "visibility"
    assert Roll.objects.count() == 1


def test_adjudicate_with_physical_dice_reproduces_the_seed(table):
    # Tenrec shoulders the door: 2, 2, 3 with Might +1 gives one success against 2.
    roll = dice.roll_adjudicate(
        campaign_id=table.campaign.pk,
        by=table.player,
        request={**CHECK, "faces": [2, 2, 3]},
        character_id=table.tenrec.pk,
    )
    assert roll.physical is True
    assert roll.result["outcome"] == "failure" and roll.result["successes"] == 1


def test_adjudicate_with_the_secure_source(table):
    roll = dice.roll_adjudicate(campaign_id=table.campaign.pk, by=table.gm, request=CHECK)
    assert roll.physical is False
    assert len(roll.result["dice"]) == 3


@pytest.mark.parametrize(
    ("request_body", "code", "field"),
    [
        ({**CHECK, "system": "rd6"}, "invalid", "request.system"),
        ({**CHECK, "colour": 1}, "unknown_field", "request.colour"),
        ({**CHECK, "faces": [2, 2]}, "faces_exhausted", "request.faces"),
        ({**CHECK, "pool": "three"}, "invalid", "request.pool"),
        ([], "invalid", "request"),
    ],
)
def test_rules_refusals_name_the_request_field(table, request_body, code, field):
    with pytest.raises(services.ServiceError) as caught:
        dice.roll_adjudicate(campaign_id=table.campaign.pk, by=table.gm, request=request_body)
    assert caught.value.code == code
    assert caught.value.field.startswith(field)
    assert not Roll.objects.exists()


def test_players_cannot_roll_for_npcs_they_cannot_see(table):
    with pytest.raises(services.NotFound):
        dice.roll_adjudicate(
            campaign_id=table.campaign.pk,
            by=table.player,
            request=CHECK,
            character_id=table.zombie.pk,
        )
