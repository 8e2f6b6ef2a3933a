"""Hidden Checks and Tests: players see nothing of a hidden attack or roll
until the GM reveals it, as a new public event."""

import json

import pytest

from vtt.combat.models import Attack
from vtt.combat.services.reveal import event_reveal
from vtt.dice import roll_adjudicate
from vtt.tabletop.event_kinds import SIGHT
from vtt.tabletop.models import Roll, RoomEvent
from vtt.tabletop.policy import event_view
from vtt.tabletop.services import scene_update, token_move
from vtt.tabletop.services.errors import NotAllowed, ServiceError
from vtt.tabletop.visibility import Viewer

from .battle import ZOMBIE_FIGHT, attack


def player_view(battle, event):
    return event_view(event, Viewer(battle.users["player"].pk, "player"))


def reveal(battle, seq, by="gm"):
    return event_reveal(campaign_id=battle.campaign.pk, by=battle.users[by], seq=seq)


def test_a_hidden_attack_reaches_players_only_when_revealed(battle):
    made = attack(
        battle,
        by="gm",
        attacker="zombie",
        target="tenrec",
        weapon="Claws",
        visibility="gm",
        faces=[2, 2, 6, 5],
    )
    hidden = made.event
    assert player_view(battle, hidden) == {"seq": hidden.seq, "type": "redacted"}
    with pytest.raises(NotAllowed):
        reveal(battle, hidden.seq, by="player")
    shown = reveal(battle, hidden.seq)
    assert shown.kind == "reveal" and shown.visibility == "public"
    seen = player_view(battle, shown)
    assert seen["data"]["of_seq"] == hidden.seq
    assert seen["data"]["type"] == "combat.attack"
    assert seen["data"]["data"]["attack"]["id"] == made.pk
    assert Attack.objects.get(pk=made.pk).visibility == "public"
    with pytest.raises(ServiceError) as twice:
        reveal(battle, hidden.seq)
    assert twice.value.code == "already_public"


def test_a_hidden_roll_is_revealed_in_the_history_too(battle):
    roll = roll_adjudicate(
        campaign_id=battle.campaign.pk,
        by=battle.users["gm"],
        request={"system": "artifice", "action": "check", "pool": 3, "difficulty": 2},
        visibility="gm",
    )
    event = RoomEvent.objects.get(kind="roll")
    assert player_view(battle, event)["type"] == "redacted"
    reveal(battle, event.seq)
    assert Roll.objects.get(pk=roll.pk).visibility == "public"


def test_only_hidden_results_are_revealed(battle):
    made = attack(battle, weapon="Long sword", faces=ZOMBIE_FIGHT)
    with pytest.raises(ServiceError) as public:
        reveal(battle, made.event.seq)
    assert public.value.code == "already_public"
    token_move(token_id=battle.tokens["tenrec"].pk, by=battle.users["gm"], x=3, y=3)
    with pytest.raises(ServiceError) as move:
        reveal(battle, RoomEvent.objects.latest("seq").seq)
    assert move.value.code == "cannot_reveal"


def test_a_reveal_on_a_fog_scene_carries_no_fog_annotation(battle):
    """A hidden roll's fog annotation says what each group saw of the scene
    then: it is nobody's, so a reveal (everyone's) leaves it behind."""
    gm = battle.users["gm"]
    scene_update(scene_id=battle.scene.pk, by=gm, fog=True)
    roll_adjudicate(
        campaign_id=battle.campaign.pk,
        by=gm,
        request={"system": "artifice", "action": "check", "pool": 3, "difficulty": 2},
        visibility="gm",
        character_id=battle.characters["zombie"].pk,
    )
    hidden = RoomEvent.objects.filter(kind="roll").latest("seq")
    assert SIGHT in hidden.data
    shown = reveal(battle, hidden.seq)
    assert SIGHT not in shown.data["data"]
    assert shown.data["data"]["roll_id"] == hidden.data["roll_id"]
    assert f'"{SIGHT}"' not in json.dumps(player_view(battle, shown))
