"""Undo: the last applied result of any kind, newest first, restoring the
exact state before it; players undo only their own last move."""

import random
from unittest.mock import patch

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vtt.combat.models import Attack, TrailStep
from vtt.combat.services.attacks import attack_apply_damage
from vtt.combat.services.undo import BATCH, last_result, undo_last
from vtt.tabletop import event_kinds as kinds
from vtt.tabletop.models import UNDOABLE_KINDS, Character, RoomEvent, Token
from vtt.tabletop.services import character_update, resource_spend, token_move
from vtt.tabletop.services.errors import NotAllowed, NotFound, ServiceError

from .battle import ZOMBIE_FIGHT, attack, make_battle


def state(battle) -> dict:
    """Everything undo must put back: squares and resources."""
    tokens = {t.pk: (t.x, t.y) for t in Token.objects.filter(scene=battle.scene)}
    sheets = {c.pk: c.resources for c in Character.objects.filter(campaign=battle.campaign)}
    return {"tokens": tokens, "resources": sheets}


def undo(battle, by="gm", **kwargs):
    return undo_last(campaign_id=battle.campaign.pk, by=battle.users[by], **kwargs)


def wound_the_zombie(battle):
    return attack(battle, weapon="Long sword", faces=ZOMBIE_FIGHT)


def test_undo_of_a_wound_restores_the_condition_as_one_event(battle):
    before = state(battle)
    made = wound_the_zombie(battle)
    assert state(battle) != before
    seq = RoomEvent.objects.latest("seq").seq
    event = undo(battle)
    assert state(battle) == before
    assert event.kind == "undo" and event.seq == seq + 1
    assert event.data["undo_of"] == made.event.seq and event.data["undone"] == "combat.attack"
    assert event.data["changes"] == [
        {
            "character_id": battle.characters["zombie"].pk,
            "character": "Zombie",
            "field": "condition",
            "before": "Wounded",
            "after": "Healthy",
        }
    ]
    assert event.visibility == "public"
    assert Attack.objects.get(pk=made.pk).status == "undone"


def test_undo_of_a_move_moves_the_token_back(battle):
    before = state(battle)
    token = battle.tokens["tenrec"]
    token_move(token_id=token.pk, by=battle.users["player"], x=6, y=4)
    moved_version = Token.objects.get(pk=token.pk).version
    event = undo(battle, by="player")
    assert state(battle) == before
    assert event.kind == "token.moved"
    assert event.data["from"] == [6, 4] and event.data["undo_of"] == event.seq - 1
    assert (event.data["token"]["x"], event.data["token"]["y"]) == (4, 4)
    assert event.data["token"]["version"] == moved_version + 1
    assert not TrailStep.objects.filter(token=token).exists()


def test_results_are_undone_newest_first_and_an_undo_is_never_redone(battle):
    start = state(battle)
    token_move(token_id=battle.tokens["tenrec"].pk, by=battle.users["player"], x=5, y=4)
    after_move = state(battle)
    wound_the_zombie(battle)
    undo(battle)
    assert state(battle) == after_move
    undo(battle)
    assert state(battle) == start
    with pytest.raises(ServiceError) as empty:
        undo(battle)
    assert empty.value.code == "nothing_to_undo"


def test_spent_points_and_gm_edits_are_undone_in_turn(battle):
    gm = battle.users["gm"]
    tenrec = battle.characters["tenrec"]
    start = state(battle)
    character_update(character_id=tenrec.pk, by=gm, resources={"experience": 5})
    resource_spend(
        character_id=tenrec.pk, by=battle.users["player"], resource="experience", amount=2
    )
    assert Character.objects.get(pk=tenrec.pk).resources["experience"] == 3
    event = undo(battle)
    assert event.data["undone"] == "character.updated"
    assert Character.objects.get(pk=tenrec.pk).resources["experience"] == 5
    undo(battle)
    assert state(battle) == start


def test_a_sheet_edit_is_not_a_result(battle):
    token_move(token_id=battle.tokens["tenrec"].pk, by=battle.users["gm"], x=5, y=4)
    character_update(character_id=battle.characters["tenrec"].pk, by=battle.users["gm"], name="Ten")
    event = undo(battle)
    assert event.kind == "token.moved"


def test_undo_names_the_result_it_means(battle):
    token_move(token_id=battle.tokens["tenrec"].pk, by=battle.users["gm"], x=5, y=4)
    first = RoomEvent.objects.latest("seq").seq
    token_move(token_id=battle.tokens["kobor"].pk, by=battle.users["gm"], x=3, y=2)
    with pytest.raises(ServiceError) as stale:
        undo(battle, seq=first)
    assert stale.value.code == "not_last"
    assert undo(battle, seq=first + 1).data["undo_of"] == first + 1


def test_players_undo_only_their_own_last_move(battle):
    wound_the_zombie(battle)
    with pytest.raises(NotAllowed):
        undo(battle, by="player")  # their own attack: the GM's call
    token_move(token_id=battle.tokens["kobor"].pk, by=battle.users["other"], x=3, y=2)
    with pytest.raises(NotAllowed):
        undo(battle, by="player")  # another player's move
    with pytest.raises(NotAllowed):
        undo(battle, by="observer")
    with pytest.raises(NotFound):
        undo(battle, by="stranger")
    assert undo(battle, by="other").kind == "token.moved"


def test_applied_damage_is_undone_before_the_attack(db):
    battle = make_battle(
        "apocalyptia",
        sheets={"tenrec": {"skills": {"Melee": {"trait": "Agility", "level": 1}}}},
        weapons={"tenrec": [{"name": "Bat", "kind": "melee", "damage": 2}]},
    )
    start = state(battle)
    made = attack(battle, weapon="Bat", faces=[5, 2])
    attack_apply_damage(attack_id=made.pk, by=battle.users["gm"], amount=4)
    event = undo(battle)
    assert event.data["undone"] == "combat.damage"
    assert event.data["status"] == "awaiting_damage"
    again = Attack.objects.get(pk=made.pk)
    assert (again.status, again.damage, again.changes) == ("awaiting_damage", made.damage, [])
    assert state(battle) == start
    undo(battle)
    assert Attack.objects.get(pk=made.pk).status == "undone"
    assert state(battle) == start


def test_an_undo_of_a_hidden_attack_stays_hidden(battle):
    attack(battle, by="gm", weapon="Long sword", visibility="gm", faces=ZOMBIE_FIGHT)
    assert undo(battle).visibility == "gm"


class SeededDice:
    """Reproducible faces in place of the secure source."""

    def __init__(self, seed: int):
        self.random = random.Random(seed)

    def roll(self) -> int:
        return self.random.randint(1, 6)


ACTIONS = st.one_of(
    st.tuples(
        st.just("move"),
        st.sampled_from(["tenrec", "zombie", "kobor"]),
        st.integers(0, 8),
        st.integers(0, 8),
    ),
    st.tuples(
        st.just("attack"),
        st.sampled_from(
            [
                ("tenrec", "zombie", "Long sword"),
                ("zombie", "tenrec", "Claws"),
                ("tenrec", "kobor", "Long bow"),
                ("kobor", "zombie", "Firebolt"),
            ]
        ),
    ),
    st.tuples(st.just("spend"), st.integers(1, 3)),
)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=st.lists(ACTIONS, min_size=1, max_size=6), seed=st.integers(0, 2**32))
def test_undoing_every_result_restores_the_start(battle, actions, seed):
    gm = battle.users["gm"]
    with transaction.atomic(), patch("vtt.rules.dice.SECURE", SeededDice(seed)):
        start = state(battle)
        character_update(
            character_id=battle.characters["tenrec"].pk, by=gm, resources={"experience": 9}
        )
        for action in actions:
            try:
                if action[0] == "move":
                    _, key, x, y = action
                    token_move(token_id=battle.tokens[key].pk, by=gm, x=x, y=y)
                elif action[0] == "attack":
                    attacker, target, weapon = action[1]
                    attack(battle, by="gm", attacker=attacker, target=target, weapon=weapon)
                else:
                    resource_spend(
                        character_id=battle.characters["tenrec"].pk,
                        by=gm,
                        resource="experience",
                        amount=action[1],
                    )
            except ServiceError:
                pass  # out of range, or the same square: nothing happened
        # Undo everything, the GM's setting of experience last of all.
        while True:
            try:
                undo(battle)
            except ServiceError as done:
                assert done.code == "nothing_to_undo"
                break
        assert state(battle) == start
        transaction.set_rollback(True)


def test_what_can_no_longer_be_put_back_is_passed_over(battle):
    from vtt.tabletop.services import token_delete

    gm = battle.users["gm"]
    token_move(token_id=battle.tokens["tenrec"].pk, by=gm, x=6, y=6)
    token_move(token_id=battle.tokens["kobor"].pk, by=gm, x=3, y=3)
    token_delete(token_id=battle.tokens["kobor"].pk, by=gm)
    event = undo(battle)  # Kobor's move is moot: Tenrec's is undone
    assert event.data["token"]["id"] == battle.tokens["tenrec"].pk


def test_a_renamed_condition_track_does_not_block_undo(battle):
    from vtt.tabletop.services import campaign_update_settings

    wound_the_zombie(battle)
    track = ["Fine", "Hurt", "Injured", "Wounded", "Critical", "Incapacitated", "Dead"]
    campaign_update_settings(
        campaign_id=battle.campaign.pk, by=battle.users["gm"], settings={"condition_track": track}
    )
    # Healthy is gone from the track: the wound cannot be put back as it was,
    # and the renames (which the settings change logged) have nothing to go back to.
    with pytest.raises(ServiceError) as nothing:
        undo(battle)
    assert nothing.value.code == "nothing_to_undo"
    assert Character.objects.get(pk=battle.characters["zombie"].pk).resources["condition"] == (
        "Wounded"
    )


def test_the_undoable_index_covers_the_declared_kinds():
    assert set(UNDOABLE_KINDS) == {
        kinds.TOKEN_MOVED,
        kinds.CHARACTER_UPDATED,
        kinds.COMBAT_ATTACK,
        kinds.COMBAT_DAMAGE,
        kinds.MARKER_ADDED,
    }
    assert set(UNDOABLE_KINDS) <= set(kinds.KINDS)


def test_last_result_steps_past_more_than_one_batch_of_undone_entries(battle):
    """Undone moves and their compensations fill several of last_result's
    batches; the first move still standing is found behind them."""
    tenrec = battle.tokens["tenrec"]
    token_move(token_id=tenrec.pk, by=battle.users["player"], x=4, y=5)
    first = RoomEvent.objects.latest("seq")
    for i in range(BATCH + 3):
        token_move(token_id=tenrec.pk, by=battle.users["player"], x=4 + i % 2, y=6)
        undo(battle)
    assert last_result(battle.campaign.pk) == first
    undo(battle)
    assert Token.objects.get(pk=tenrec.pk).y == 4
    assert last_result(battle.campaign.pk) is None
