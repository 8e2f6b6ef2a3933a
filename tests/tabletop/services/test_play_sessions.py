"""Play sessions (vtt/dice/sessions.py, docs/dice.md): the
digest out before any roll, the seed out at the end, every roll's draw."""

import hashlib
import json

import pytest

from vtt import dice
from vtt.rules.session_dice import faces
from vtt.tabletop.models import PlaySession, Roll, RoomEvent
from vtt.tabletop.services.errors import NotAllowed, NotFound, ServiceError

from ..helpers import events_after, kinds_after, last_seq

pytestmark = pytest.mark.django_db

CHECK = {"system": "artifice", "action": "check", "pool": 5, "difficulty": 2}
NONCE = "0123456789abcdef0123456789abcdef"


def roll(table, by=None, **kwargs):
    return dice.roll_adjudicate(
        campaign_id=table.campaign.pk, by=by or table.player, request=CHECK, **kwargs
    )


def session(table, number=1) -> PlaySession:
    return PlaySession.objects.get(campaign=table.campaign, number=number)


def test_the_gm_starts_a_session_and_its_digest_goes_out_first(table):
    seq = last_seq(table.campaign)
    started = dice.session_start(campaign_id=table.campaign.pk, by=table.gm)
    [event] = events_after(table.campaign, seq)
    assert (event.kind, event.visibility, event.actor) == ("session.started", "public", table.gm)
    assert event.data == {"session": 1, "digest": started.digest}
    assert started.digest == hashlib.sha256(bytes(started.seed)).hexdigest()
    assert len(bytes(started.seed)) == 32
    # The seed itself is nowhere in the log.
    assert bytes(started.seed).hex() not in json.dumps(event.data)


def test_only_a_gm_starts_or_ends_a_session(table):
    for who in (table.player, table.observer):
        with pytest.raises(NotAllowed):
            dice.session_start(campaign_id=table.campaign.pk, by=who)
    with pytest.raises(NotFound):
        dice.session_start(campaign_id=table.campaign.pk, by=table.outsider)
    dice.session_start(campaign_id=table.campaign.pk, by=table.gm)
    with pytest.raises(NotAllowed):
        dice.session_end(campaign_id=table.campaign.pk, by=table.player)
    assert session(table).is_open


def test_one_session_is_open_at_a_time(table):
    dice.session_start(campaign_id=table.campaign.pk, by=table.gm)
    with pytest.raises(ServiceError) as refused:
        dice.session_start(campaign_id=table.campaign.pk, by=table.gm)
    assert refused.value.code == "session_open"
    assert "session 1" in refused.value.message
    dice.session_end(campaign_id=table.campaign.pk, by=table.gm)
    with pytest.raises(ServiceError) as refused:
        dice.session_end(campaign_id=table.campaign.pk, by=table.gm)
    assert refused.value.code == "no_session"
    second = dice.session_start(campaign_id=table.campaign.pk, by=table.gm)
    assert second.number == 2 and second.digest != session(table).digest


def test_ending_reveals_the_seed_of_the_digest(table):
    dice.session_start(campaign_id=table.campaign.pk, by=table.gm)
    seq = last_seq(table.campaign)
    ended = dice.session_end(campaign_id=table.campaign.pk, by=table.gm)
    [event] = events_after(table.campaign, seq)
    assert event.kind == "session.ended" and ended.ended_at is not None
    seed = bytes.fromhex(event.data["seed"])
    assert event.data["session"] == 1
    assert hashlib.sha256(seed).hexdigest() == event.data["digest"] == ended.digest


def test_a_roll_in_a_room_without_a_session_opens_one_first(table):
    seq = last_seq(table.campaign)
    made = roll(table, nonce=NONCE)
    assert kinds_after(table.campaign, seq) == ["session.started", "roll"]
    opened, shown = events_after(table.campaign, seq)
    assert opened.actor is None  # opened by the server, for the roll
    assert made.draw == {"session": 1, "roll": 1, "nonce": NONCE, "nonce_by": "roller"}
    assert shown.data["draw"] == made.draw
    # Its dice are the session's stream for roll 1 and the roller's nonce.
    thrown = [d["face"] for d in made.result["dice"]]
    assert thrown == faces(bytes(session(table).seed), 1, 1, NONCE, len(thrown))


def test_rolls_take_the_next_numbers_and_the_server_makes_a_missing_nonce(table):
    made = [roll(table, nonce=NONCE), roll(table), roll(table, by=table.gm, nonce=NONCE)]
    assert [r.draw["roll"] for r in made] == [1, 2, 3]
    assert made[1].draw["nonce_by"] == "server"
    assert len(made[1].draw["nonce"]) == 32 and made[1].draw["nonce"] != NONCE
    seed = bytes(session(table).seed)
    for r in made:
        thrown = [d["face"] for d in r.result["dice"]]
        assert thrown == faces(seed, 1, r.draw["roll"], r.draw["nonce"], len(thrown))
    assert session(table).rolls == 3


def test_the_same_nonce_twice_gives_other_dice(table):
    first, second = roll(table, nonce=NONCE), roll(table, nonce=NONCE)
    seed = bytes(session(table).seed)
    assert faces(seed, 1, 1, NONCE, 30) != faces(seed, 1, 2, NONCE, 30)
    assert first.draw["roll"] != second.draw["roll"]


@pytest.mark.parametrize("nonce", ["xyz", "AB" * 8, "ab" * 7, 42, "ab" * 65])
def test_a_bad_nonce_is_refused_and_nothing_is_rolled(table, nonce):
    seq = last_seq(table.campaign)
    with pytest.raises(ServiceError) as refused:
        roll(table, nonce=nonce)
    assert (refused.value.code, refused.value.field) == ("invalid", "nonce")
    assert kinds_after(table.campaign, seq) == []
    assert not PlaySession.objects.filter(campaign=table.campaign).exists()


def test_a_roll_the_rules_refuse_gives_its_number_back(table):
    roll(table)
    with pytest.raises(ServiceError):
        dice.roll_adjudicate(
            campaign_id=table.campaign.pk,
            by=table.player,
            request={**CHECK, "pool": 999},
        )
    assert roll(table).draw["roll"] == 2


def test_physical_dice_take_a_number_and_are_not_derived(table):
    made = roll(table, nonce=NONCE)
    physical = dice.roll_adjudicate(
        campaign_id=table.campaign.pk,
        by=table.player,
        request={**CHECK, "faces": [6, 5, 4, 3, 2]},
        nonce=NONCE,
    )
    assert made.draw["roll"] == 1
    assert physical.physical is True
    assert physical.draw == {"session": 1, "roll": 2, "physical": True}


@pytest.mark.parametrize("visibility", ["blind", "gm"])
def test_a_players_roll_they_will_not_see_takes_the_servers_nonce(table, visibility):
    # With their own nonce and the seed revealed at the end, they could
    # work out what the roll they may not see gave.
    made = roll(table, nonce=NONCE, visibility=visibility)
    assert made.draw["nonce_by"] == "server" and made.draw["nonce"] != NONCE


@pytest.mark.parametrize("visibility", ["public", "self"])
def test_a_players_roll_they_see_takes_their_nonce(table, visibility):
    assert roll(table, nonce=NONCE, visibility=visibility).draw["nonce_by"] == "roller"


def test_a_gms_hidden_roll_takes_the_gms_nonce(table):
    made = roll(table, by=table.gm, nonce=NONCE, visibility="gm")
    assert made.draw == {"session": 1, "roll": 1, "nonce": NONCE, "nonce_by": "roller"}


def test_a_roll_for_a_character_is_drawn_too(table):
    made = dice.roll_adjudicate(
        campaign_id=table.campaign.pk,
        by=table.player,
        request={"system": "artifice", "action": "check", "difficulty": 1},
        character_id=table.tenrec.pk,
        fill={"pool": "Might"},
        nonce=NONCE,
    )
    assert made.draw["nonce"] == NONCE and made.draw["roll"] == 1
    with pytest.raises(ServiceError) as refused:
        dice.roll_adjudicate(
            campaign_id=table.campaign.pk,
            by=table.player,
            request=CHECK,
            character_id=table.tenrec.pk,
            nonce="not hex",
        )
    assert refused.value.field == "nonce"


def test_the_seed_stays_out_of_the_log_until_the_end(table):
    dice.session_start(campaign_id=table.campaign.pk, by=table.gm)
    for visibility in ("public", "gm", "self", "blind"):
        roll(table, visibility=visibility, nonce=NONCE)
    seed = bytes(session(table).seed).hex()
    logged = json.dumps(list(RoomEvent.objects.values_list("data", flat=True)))
    stored = json.dumps(list(Roll.objects.values()), default=str)
    assert seed not in logged and seed not in stored
    dice.session_end(campaign_id=table.campaign.pk, by=table.gm)
    assert seed in json.dumps(list(RoomEvent.objects.values_list("data", flat=True)))
