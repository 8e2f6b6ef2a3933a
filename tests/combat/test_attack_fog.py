"""An attack on a fog scene is seen by the groups that see both its sides:
with own vision, a player whose own tokens see neither the attacker nor the
target receives a number and nothing of the fight (not its names, dice or
wounds), over the live log and the REST attack list alike."""

from vtt.combat.models import Attack
from vtt.tabletop import event_kinds, policy, services
from vtt.tabletop.models import Role, RoomEvent, Token

from .battle import attack


def _fog_with_own_vision(battle):
    gm = battle.users["gm"]
    services.scene_update(scene_id=battle.scene.pk, by=gm, fog=True, lit=True)
    services.campaign_update_settings(
        campaign_id=battle.campaign.pk, by=gm, settings={"own_vision": True}
    )
    # Kobor (the other player's) goes behind the wall down x = 10: his own
    # eyes no longer see Tenrec nor the zombie by the entrance.
    services.token_move(token_id=battle.tokens["kobor"].pk, by=gm, x=14, y=3)


def _viewer(battle, who, role=Role.PLAYER):
    battle.campaign.refresh_from_db()
    return policy.viewer_in(battle.users[who].pk, role, battle.campaign.settings)


def test_a_player_who_sees_neither_side_gets_nothing_of_the_attack(battle):
    _fog_with_own_vision(battle)
    made = attack(battle, weapon="Long sword")
    event = RoomEvent.objects.get(pk=made.event_id)
    assert event.kind == event_kinds.COMBAT_ATTACK and event_kinds.SIGHT in event.data

    blind = _viewer(battle, "other")
    assert policy.event_view(event, blind) == {"seq": event.seq, "type": "redacted"}
    assert not Attack.objects.filter(policy.visible_attacks_q(blind), pk=made.pk).exists()

    seeing = _viewer(battle, "player")
    shown = policy.event_view(event, seeing)
    assert shown["type"] == event_kinds.COMBAT_ATTACK
    assert shown["data"]["attack"]["attacker"]["token_id"] == battle.tokens["tenrec"].pk
    assert event_kinds.SIGHT not in shown["data"]
    assert Attack.objects.filter(policy.visible_attacks_q(seeing), pk=made.pk).exists()

    gm = _viewer(battle, "gm", Role.GM)
    assert policy.event_view(event, gm)["type"] == event_kinds.COMBAT_ATTACK


def test_once_the_player_sees_the_fight_the_next_attack_reaches_them(battle):
    _fog_with_own_vision(battle)
    Token.objects.filter(pk=battle.tokens["kobor"].pk).update(x=14, y=3)
    services.token_move(token_id=battle.tokens["kobor"].pk, by=battle.users["gm"], x=3, y=3)
    made = attack(battle, weapon="Long sword")
    event = RoomEvent.objects.get(pk=made.event_id)
    assert policy.event_view(event, _viewer(battle, "other"))["type"] == event_kinds.COMBAT_ATTACK
