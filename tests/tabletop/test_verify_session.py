"""A whole play session, end to end (docs/dice.md): the digest is out before
the first roll, the seed at the end, every roll recomputes from it with the
standard library's hmac, and `manage.py verify_session` checks them all and
catches one altered die."""

import copy
import hashlib
import hmac
import io

import pytest
from django.core.management import CommandError, call_command

from tests import served
from tests.combat.battle import ARTIFICE_SHEETS, ARTIFICE_WEAPONS, attack, make_battle
from tests.tabletop.helpers import strike, tamper
from vtt import dice
from vtt.combat.services.encounters import encounter_roll_initiative, encounter_start
from vtt.records.sessions import logged_throws, session_of
from vtt.tabletop.models import Roll, RoomEvent

pytestmark = pytest.mark.django_db

NONCE = "5eed5eed5eed5eed5eed5eed5eed5eed"
CHECK = {"system": "artifice", "action": "check", "pool": 6, "difficulty": 3}


def reference(seed: bytes, session: int, roll: int, nonce: str, count: int) -> list[int]:
    out, block = [], 0
    while len(out) < count:
        digest = hmac.digest(seed, f"{session}:{roll}:{nonce}:{block}".encode(), "sha256")
        out += [b % 6 + 1 for b in digest if b < 252]
        block += 1
    return out[:count]


def play_a_session():
    """A session with every kind of throw: rolls public, hidden, blind and
    physical, an attack (one draw for its steps) and initiative."""
    # The GM has started session 1.
    battle = make_battle("artifice", sheets=ARTIFICE_SHEETS, weapons=ARTIFICE_WEAPONS)
    gm, player = battle.users["gm"], battle.users["player"]
    campaign_id = battle.campaign.pk
    dice.roll_adjudicate(campaign_id=campaign_id, by=player, request=CHECK, nonce=NONCE)
    dice.roll_adjudicate(campaign_id=campaign_id, by=player, request=CHECK)
    dice.roll_adjudicate(campaign_id=campaign_id, by=gm, request=CHECK, visibility="gm")
    dice.roll_adjudicate(campaign_id=campaign_id, by=player, request=CHECK, visibility="blind")
    dice.roll_adjudicate(
        campaign_id=campaign_id, by=player, request={**CHECK, "faces": [6, 6, 6, 1, 1, 1]}
    )
    attack(battle, weapon="Long sword", nonce=NONCE)
    encounter = encounter_start(scene_id=battle.scene.pk, by=gm)
    encounter_roll_initiative(encounter_id=encounter.pk, by=gm)
    dice.session_end(campaign_id=campaign_id, by=gm)
    return battle


def verify(*args) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("verify_session", *map(str, args), stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue() + str(error)
    return 0, out.getvalue()


def test_a_whole_session_checks_out():
    battle = play_a_session()
    campaign_id = battle.campaign.pk
    log = list(RoomEvent.objects.filter(campaign_id=campaign_id).order_by("seq"))
    started = next(e for e in log if e.kind == "session.started")
    ended = next(e for e in log if e.kind == "session.ended")
    throws = list(logged_throws(session_of(campaign_id, 1)))
    # The commitment came before the first roll, the seed after the last.
    assert started.seq < min(t["seq"] for t in throws)
    assert ended.seq > max(t["seq"] for t in throws)
    seed = bytes.fromhex(ended.data["seed"])
    assert hashlib.sha256(seed).hexdigest() == started.data["digest"]
    # 5 rolls, the attack, 3 combatants' initiative: 9 numbers, all in the log.
    assert sorted({t["roll"] for t in throws}) == list(range(1, 10))
    derived = [t for t in throws if not t["physical"]]
    assert len(derived) == 8 and all(t["faces"] for t in derived)
    for t in derived:
        assert t["faces"] == reference(seed, 1, t["roll"], t["nonce"], len(t["faces"])), t
    code, said = verify(campaign_id, 1)
    assert code == 0, said
    assert "9 rolls: 8 checked, 1 physical (not derived), 0 not matching" in said
    assert "roll 5 " in said and "physical dice, entered by hand: not derived" in said
    assert "Every die matches the revealed seed." in said


def test_one_altered_die_is_caught():
    battle = play_a_session()
    roll = RoomEvent.objects.get(campaign=battle.campaign, kind="roll", data__draw__roll=1)
    data = copy.deepcopy(roll.data)
    die = data["result"]["dice"][3]
    die["face"] = die["face"] % 6 + 1
    tamper(roll, data)  # a log tampered with
    code, said = verify(battle.campaign.pk, 1)
    assert code == 1
    assert f"roll 1 (#{roll.seq}): DOES NOT MATCH at die 4: the log shows {die['face']}" in said
    assert "1 not matching" in said


def test_an_altered_attack_die_is_caught_in_every_entry_that_shows_it():
    battle = play_a_session()
    shown = RoomEvent.objects.get(campaign=battle.campaign, kind="combat.attack")
    data = copy.deepcopy(shown.data)
    die = data["attack"]["steps"][-1]["result"]["dice"][0]
    die["face"] = die["face"] % 6 + 1
    tamper(shown, data)
    code, said = verify(battle.campaign.pk, 1)
    assert code == 1 and f"roll 6 (#{shown.seq}): DOES NOT MATCH" in said


def test_a_roll_missing_from_the_log_fails():
    battle = play_a_session()
    entry = RoomEvent.objects.get(campaign=battle.campaign, kind="roll", data__draw__roll=2)
    # Struck from the log with its roll row, which cannot outlive it.
    Roll.objects.filter(event=entry).delete()
    strike(entry)
    code, said = verify(battle.campaign.pk, 1)
    assert code == 1 and "roll 2: MISSING from the log" in said


def test_bad_input_exits_2():
    battle = play_a_session()
    assert verify(battle.campaign.pk + 1000, 1)[0] == 2
    code, said = verify(battle.campaign.pk, 7)
    assert code == 2 and "has no session 7" in said
    dice.session_start(campaign_id=battle.campaign.pk, by=battle.users["gm"])
    code, said = verify(battle.campaign.pk, 2)
    assert code == 2 and "still open" in said


def test_arguments_that_are_not_numbers_exit_2():
    result = served.python("manage.py", "verify_session", "the tomb", "1")
    assert result.returncode == 2
    assert "invalid int value" in result.stderr
