"""Decisions that wait (vtt.combat.services.decisions): who sees a pending
attack in their queue, and the stale ones the server refuses with a reason."""

import threading

import pytest
from django.db import connection

from vtt.combat.services.attacks import attack_apply_damage, attack_decline
from vtt.combat.services.decisions import decisions
from vtt.combat.services.reactions import react
from vtt.combat.services.undo import undo_last
from vtt.tabletop.models import Character, RoomEvent
from vtt.tabletop.services.errors import NotAllowed, ServiceError
from vtt.tabletop.services.tokens import token_move

from .battle import (
    APOCALYPTIA_SHEETS,
    APOCALYPTIA_WEAPONS,
    apocalyptia_battle,
    attack,
    fgr_battle,
    make_battle,
)


@pytest.fixture
def apocalyptia(db):
    return apocalyptia_battle()


@pytest.fixture
def fgr(db):
    return fgr_battle()


def wounds(battle, key):
    return Character.objects.get(pk=battle.characters[key].pk).resources.get("wounds", 0)


def refused(call, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(**kwargs)
    assert caught.value.field == "attack"
    return caught.value


def test_a_pending_hit_is_the_gms_to_decide_and_lands_once(apocalyptia):
    made = attack(apocalyptia, weapon="Machete", faces=[4, 2])
    queue = decisions(campaign_id=apocalyptia.campaign.pk, by=apocalyptia.users["gm"])
    assert [(d["attack"], d["kind"], d["damage"], d["stale"]) for d in queue] == [
        (made.pk, "damage", 8, None)
    ]
    assert queue[0]["target"] == made.target_name and queue[0]["seq"] == made.event.seq
    # The attacking player waits with the table: nothing of theirs to decide.
    assert decisions(campaign_id=apocalyptia.campaign.pk, by=apocalyptia.users["player"]) == []
    attack_apply_damage(attack_id=made.pk, by=apocalyptia.users["gm"])
    again = refused(attack_apply_damage, attack_id=made.pk, by=apocalyptia.users["gm"])
    assert again.code == "already_applied"
    assert wounds(apocalyptia, "zombie") == 8
    assert decisions(campaign_id=apocalyptia.campaign.pk, by=apocalyptia.users["gm"]) == []


def test_an_undone_attack_is_refused_as_undone(apocalyptia):
    made = attack(apocalyptia, weapon="Machete", faces=[4, 2])
    undo_last(campaign_id=apocalyptia.campaign.pk, by=apocalyptia.users["gm"])
    error = refused(attack_apply_damage, attack_id=made.pk, by=apocalyptia.users["gm"])
    assert (error.code, error.message) == ("undone", "this attack was undone")
    assert wounds(apocalyptia, "zombie") == 0
    assert decisions(campaign_id=apocalyptia.campaign.pk, by=apocalyptia.users["gm"]) == []


def test_a_hit_on_the_dead_is_stale_and_refused(apocalyptia):
    made = attack(apocalyptia, weapon="Machete", faces=[4, 2])
    zombie = Character.objects.get(pk=apocalyptia.characters["zombie"].pk)
    zombie.resources = {**zombie.resources, "wounds": 30}
    zombie.save()
    queue = decisions(campaign_id=apocalyptia.campaign.pk, by=apocalyptia.users["gm"])
    assert queue[0]["stale"]["code"] == "target_out"
    error = refused(attack_apply_damage, attack_id=made.pk, by=apocalyptia.users["gm"])
    assert error.code == "target_out" and "dead" in error.message
    assert wounds(apocalyptia, "zombie") == 30
    # The GM lets it go instead: it leaves every queue, once.
    attack_decline(attack_id=made.pk, by=apocalyptia.users["gm"])
    assert decisions(campaign_id=apocalyptia.campaign.pk, by=apocalyptia.users["gm"]) == []
    assert RoomEvent.objects.filter(kind="combat.declined").count() == 1
    assert refused(attack_decline, attack_id=made.pk, by=apocalyptia.users["gm"]).code == "declined"
    assert (
        refused(attack_apply_damage, attack_id=made.pk, by=apocalyptia.users["gm"]).code
        == "declined"
    )


def test_old_hits_are_superseded_by_a_later_one_applied(apocalyptia):
    # The night of the thug at 87: old buttons must not stack forgotten hits.
    old = [attack(apocalyptia, weapon="Machete", faces=[4, 2]) for _ in range(3)]
    newest = attack(apocalyptia, weapon="Machete", faces=[4, 2])
    attack_apply_damage(attack_id=newest.pk, by=apocalyptia.users["gm"])
    for made in old:
        error = refused(attack_apply_damage, attack_id=made.pk, by=apocalyptia.users["gm"])
        assert error.code == "superseded"
        assert f"#{newest.event.seq}" in error.message
    assert wounds(apocalyptia, "zombie") == 8
    queue = decisions(campaign_id=apocalyptia.campaign.pk, by=apocalyptia.users["gm"])
    assert [d["stale"]["code"] for d in queue] == ["superseded"] * 3


def test_only_a_gm_declines(apocalyptia):
    made = attack(apocalyptia, weapon="Machete", faces=[4, 2])
    with pytest.raises(NotAllowed):
        attack_decline(attack_id=made.pk, by=apocalyptia.users["player"])


def test_the_defenders_reaction_waits_in_their_players_queue(fgr):
    made = attack(
        fgr, by="gm", attacker="zombie", target="tenrec", weapon="Bite", faces=[3, 4, 1, 3, 4]
    )
    mine = decisions(campaign_id=fgr.campaign.pk, by=fgr.users["player"])
    assert [(d["attack"], d["kind"], d["damage"]) for d in mine] == [(made.pk, "reaction", 7)]
    assert decisions(campaign_id=fgr.campaign.pk, by=fgr.users["other"]) == []
    assert [d["attack"] for d in decisions(campaign_id=fgr.campaign.pk, by=fgr.users["gm"])] == [
        made.pk
    ]
    react(
        reaction="reduce_damage",
        attack_id=made.pk,
        by=fgr.users["player"],
        values={"action_points": 0},
    )
    again = refused(
        react,
        reaction="reduce_damage",
        attack_id=made.pk,
        by=fgr.users["player"],
        values={"action_points": 0},
    )
    assert again.code == "already_applied"
    assert wounds(fgr, "tenrec") == 7
    assert decisions(campaign_id=fgr.campaign.pk, by=fgr.users["player"]) == []


def test_a_hidden_hit_on_a_pc_stays_out_of_its_players_queue(fgr):
    # Secrecy as for the attack itself: the player never learns of it.
    attack(
        fgr,
        by="gm",
        attacker="zombie",
        target="tenrec",
        weapon="Bite",
        faces=[3, 4, 1, 3, 4],
        visibility="gm",
    )
    assert decisions(campaign_id=fgr.campaign.pk, by=fgr.users["player"]) == []
    assert len(decisions(campaign_id=fgr.campaign.pk, by=fgr.users["gm"])) == 1


def test_decisions_over_rest_and_a_stale_refusal_is_a_400_with_its_field(apocalyptia):
    from rest_framework.test import APIClient

    def client(name):
        made = APIClient()
        made.force_authenticate(apocalyptia.users[name])
        return made

    old = attack(apocalyptia, weapon="Machete", faces=[4, 2])
    newer = attack(apocalyptia, weapon="Machete", faces=[4, 2])
    url = f"/api/combat/campaigns/{apocalyptia.campaign.pk}/decisions/"
    listed = client("gm").get(url)
    assert listed.status_code == 200
    assert [d["attack"] for d in listed.json()] == [old.pk, newer.pk]
    assert client("player").get(url).json() == []
    assert client("stranger").get(url).status_code == 404
    assert (
        client("gm").post(f"/api/combat/attacks/{newer.pk}/damage/", {}, format="json").status_code
        == 200
    )
    stale = client("gm").post(f"/api/combat/attacks/{old.pk}/damage/", {}, format="json")
    assert stale.status_code == 400
    assert stale.json()["error"]["code"] == "superseded"
    assert stale.json()["error"]["field"] == "attack"
    assert client("player").post(f"/api/combat/attacks/{old.pk}/decline/").status_code == 403
    declined = client("gm").post(f"/api/combat/attacks/{old.pk}/decline/")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert client("gm").get(url).json() == []


@pytest.mark.django_db(transaction=True)
def test_six_clicks_at_once_on_one_decision_apply_it_once(postgres):
    """Six pages send the same Apply at the same moment: one lands, the
    others are told it already was (the attack's row lock)."""
    battle = apocalyptia_battle()
    made = attack(battle, weapon="Machete", faces=[4, 2])
    outcomes, barrier = [], threading.Barrier(6)

    def click():
        barrier.wait()
        try:
            attack_apply_damage(attack_id=made.pk, by=battle.users["gm"])
            outcomes.append("ok")
        except ServiceError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=click) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["already_applied"] * 5 + ["ok"]
    assert wounds(battle, "zombie") == 8
    assert RoomEvent.objects.filter(kind="combat.damage").count() == 1


def test_hits_of_different_attackers_apply_in_any_order(db):
    # Two fighters on one zombie: applying the second hit first leaves the
    # first one standing, since neither forgot the other.
    weapons = {**APOCALYPTIA_WEAPONS, "kobor": [{"name": "Machete", "kind": "melee", "damage": 3}]}
    sheets = {**APOCALYPTIA_SHEETS, "kobor": APOCALYPTIA_SHEETS["tenrec"]}
    battle = make_battle("apocalyptia", sheets=sheets, weapons=weapons)
    token_move(token_id=battle.tokens["kobor"].pk, by=battle.users["gm"], x=5, y=4)
    first = attack(battle, weapon="Machete", faces=[4, 2])
    second = attack(battle, by="other", attacker="kobor", weapon="Machete", faces=[4, 2])
    attack_apply_damage(attack_id=second.pk, by=battle.users["gm"])
    after_second = wounds(battle, "zombie")
    attack_apply_damage(attack_id=first.pk, by=battle.users["gm"])
    assert wounds(battle, "zombie") > after_second
    assert decisions(campaign_id=battle.campaign.pk, by=battle.users["gm"]) == []
