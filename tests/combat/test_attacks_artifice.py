"""Artifice attacks through the service: the seed's zombie fight, pools from
the sheets, range and sight refusals, advantage, overrides and who may attack."""

import pytest

from vtt.combat.models import Attack
from vtt.tabletop.models import Character, RoomEvent
from vtt.tabletop.services import token_move
from vtt.tabletop.services.errors import NotAllowed, NotFound, ServiceError

from .battle import ZOMBIE_FIGHT, attack, preview


def condition(battle, key):
    return Character.objects.get(pk=battle.characters[key].pk).resources["condition"]


def test_the_seed_zombie_fight_wounds_the_zombie_three_steps(battle):
    made = attack(battle, weapon="Long sword", faces=ZOMBIE_FIGHT)
    combat, wound = made.steps[0]["result"]["combat"], made.steps[0]["result"]["wound"]
    assert (combat["actor_successes"], combat["opponent_successes"]) == (3, 1)
    assert combat["cascade"] == 2
    assert (wound["actor_pool"], wound["opponent_pool"]) == (6, 3)
    assert (wound["actor_successes"], wound["opponent_successes"]) == (4, 1)
    assert made.outcome == "hit" and made.status == "applied"
    assert made.changes == [
        {
            "character_id": battle.characters["zombie"].pk,
            "character": "Zombie",
            "field": "condition",
            "before": "Healthy",
            "after": "Wounded",
        }
    ]
    assert condition(battle, "zombie") == "Wounded"
    assert made.sources == {"attacker": ["Finesse", "Might"], "defender": ["Agility", "Toughness"]}
    assert made.physical is True
    event = RoomEvent.objects.get(pk=made.event_id)
    assert event.kind == "combat.attack" and event.visibility == "public"
    assert event.data["attack"]["seq"] == event.seq
    assert event.data["attack"]["changes"] == made.changes


def test_pools_come_from_the_sheets_and_the_weapon(battle):
    previewed = preview(battle, weapon="Long sword")
    request = previewed["request"]
    assert request["attacker"] == {
        "finesse": 4,
        "might": 3,
        "lethality": 1,
        "modifier": 0,
        "wound_modifier": 0,
    }
    assert request["defender"]["agility"] == 2 and request["defender"]["toughness"] == 3
    assert request["defender"]["condition"] == "Healthy"
    assert request["range"] == "adjacent" and request["advantage"] is None
    assert previewed["measure"]["distance_ft"] == 5
    assert abs(sum(previewed["odds"]["outcomes"].values()) - 1) < 1e-9


def test_a_step_replays_alone_from_its_recorded_faces(battle):
    from vtt.rules import adjudicate

    made = attack(battle, weapon="Long sword")
    step = made.steps[0]
    assert "faces" not in step["request"]
    replay = adjudicate({**step["request"], "faces": [d["face"] for d in step["result"]["dice"]]})
    assert replay == step["result"]


def test_missile_at_an_adjacent_target_gives_the_defender_advantage(battle):
    made = attack(battle, weapon="Long bow", faces=[2, 2, 2, 2, 5, 5, 2])
    request = made.steps[0]["request"]
    assert request["advantage"] == "defender"
    assert made.steps[0]["result"]["combat"]["opponent_pool"] == 3
    assert made.outcome == "miss" and made.changes == []


def test_an_out_of_range_attack_is_refused_and_nothing_is_written(battle):
    events = RoomEvent.objects.count()
    # Kobor is 2 squares from Tenrec: out of a long sword's reach.
    with pytest.raises(ServiceError) as refused:
        attack(battle, by="other", attacker="kobor", target="tenrec", weapon=None)
    assert refused.value.code == "out_of_range"
    assert RoomEvent.objects.count() == events and not Attack.objects.exists()


def test_a_spell_needs_line_of_sight(battle):
    gm = battle.users["gm"]
    # Kobor stands left of the wall (x = 10), the zombie right of it.
    token_move(token_id=battle.tokens["kobor"].pk, by=gm, x=8, y=5)
    token_move(token_id=battle.tokens["zombie"].pk, by=gm, x=12, y=5)
    with pytest.raises(ServiceError) as refused:
        attack(battle, by="other", attacker="kobor", target="zombie", weapon="Firebolt")
    assert refused.value.code == "no_line_of_sight"
    # Past the wall's end (y = 10) the line is clear.
    token_move(token_id=battle.tokens["zombie"].pk, by=gm, x=12, y=12)
    token_move(token_id=battle.tokens["kobor"].pk, by=gm, x=8, y=12)
    made = attack(battle, by="other", attacker="kobor", target="zombie", weapon="Firebolt")
    assert made.measure["line_of_sight"] is True
    # A weapon is not stopped by the wall (a GM's call: it may be low).
    token_move(token_id=battle.tokens["zombie"].pk, by=gm, x=11, y=5)
    token_move(token_id=battle.tokens["tenrec"].pk, by=gm, x=9, y=5)
    made = attack(battle, weapon="Long bow")
    assert made.measure["line_of_sight"] is False


def test_a_spell_attacks_with_arcanum(battle):
    previewed = preview(battle, by="other", attacker="kobor", weapon="Frost ray")
    assert previewed["request"]["attacker"]["finesse"] == 4
    assert previewed["request"]["attacker"]["might"] == 4
    assert previewed["request"]["range"] == "near"


def test_only_the_gm_or_the_controller_attacks(battle):
    with pytest.raises(NotAllowed):
        attack(battle, by="other")  # Tenrec is the player's
    with pytest.raises(NotAllowed):
        attack(battle, by="observer")
    with pytest.raises(NotFound):
        attack(battle, by="stranger")
    with pytest.raises(NotAllowed):
        attack(battle, by="player", attacker="zombie", target="tenrec")
    made = attack(battle, by="gm", attacker="zombie", target="tenrec", weapon="Claws")
    assert made.by == battle.users["gm"]


def test_only_a_gm_hides_or_overrides(battle):
    with pytest.raises(NotAllowed):
        attack(battle, visibility="gm")
    with pytest.raises(NotAllowed):
        attack(battle, overrides={"attack": {"attacker": {"finesse": 9}}})
    made = attack(
        battle,
        by="gm",
        visibility="gm",
        weapon="Long sword",
        overrides={"attack": {"attacker": {"finesse": 1}, "advantage": "attacker"}},
    )
    assert made.visibility == "gm"
    assert made.steps[0]["request"]["attacker"]["finesse"] == 1
    assert made.steps[0]["result"]["combat"]["actor_pool"] == 2


def test_the_server_facts_cannot_be_overridden(battle):
    for override in ({"range": "near"}, {"defender": {"condition": "Dead"}}, {"faces": [1]}):
        with pytest.raises(ServiceError) as refused:
            attack(battle, by="gm", overrides={"attack": override})
        assert refused.value.code == "invalid"
    with pytest.raises(ServiceError) as refused:
        attack(battle, by="gm", overrides={"wound": {}})
    assert refused.value.code == "unknown_field"


def test_bad_faces_are_refused_with_the_contract_codes(battle):
    for faces, code in (
        ([4, 5], "faces_exhausted"),
        (ZOMBIE_FIGHT + [3], "faces_unused"),
        ([7] * 15, "bad_face"),
    ):
        with pytest.raises(ServiceError) as refused:
            attack(battle, weapon="Long sword", faces=faces)
        assert (refused.value.code, refused.value.field) == (code, "faces")
    assert not Attack.objects.exists()


def test_unknown_weapon_and_a_self_attack_are_refused(battle):
    with pytest.raises(ServiceError) as refused:
        attack(battle, weapon="Halberd")
    assert refused.value.field == "weapon"
    with pytest.raises(ServiceError) as refused:
        attack(battle, target="tenrec")
    assert refused.value.field == "target_token"


def test_condition_steps_stop_at_dead(battle):
    Character.objects.filter(pk=battle.characters["zombie"].pk).update(
        resources={"experience": 0, "condition": "Critical"}
    )
    made = attack(battle, weapon="Long sword", faces=ZOMBIE_FIGHT)
    assert made.outcome == "dead"
    assert condition(battle, "zombie") == "Dead"


def test_a_hidden_token_makes_the_attack_hidden(battle):
    from vtt.tabletop.services import token_set_hidden

    token_set_hidden(token_id=battle.tokens["zombie"].pk, by=battle.users["gm"], hidden=True)
    made = attack(battle, by="gm", weapon="Long sword")
    assert made.visibility == "gm"
    with pytest.raises(NotFound):
        attack(battle, weapon="Long sword")


@pytest.mark.parametrize(
    "diagonal, square, category",
    [
        ("uniform", (10, 10), "near"),
        ("alternating", (10, 10), "far"),
        ("uniform", (11, 4), "far"),
        ("alternating", (11, 4), "far"),
    ],
)
def test_the_campaigns_diagonal_rule_decides_the_band(db, diagonal, square, category):
    from .battle import ARTIFICE_SHEETS, ARTIFICE_WEAPONS, make_battle

    battle = make_battle(
        "artifice",
        settings={"diagonal": diagonal},
        sheets=ARTIFICE_SHEETS,
        weapons=ARTIFICE_WEAPONS,
    )
    token_move(token_id=battle.tokens["zombie"].pk, by=battle.users["gm"], x=square[0], y=square[1])
    made = attack(battle, weapon="Sling")  # no listed range: near to 30 ft, far under 100
    assert made.measure["category"] == category
    assert made.measure["diagonal"] == diagonal
    assert made.steps[0]["request"]["range"] == category


def test_a_sling_cannot_reach_100_ft(battle):
    token_move(token_id=battle.tokens["zombie"].pk, by=battle.users["gm"], x=24, y=4)
    with pytest.raises(ServiceError) as refused:
        attack(battle, weapon="Sling")
    assert refused.value.code == "out_of_range"
    token_move(token_id=battle.tokens["zombie"].pk, by=battle.users["gm"], x=23, y=4)
    assert attack(battle, weapon="Sling").measure["distance_ft"] == 95


def test_an_attack_appends_its_event_whole_and_never_edits_it(battle):
    """The attack's event names its own sequence number; it is written with
    it, not filled in after."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        made = attack(battle, weapon="Long sword", faces=ZOMBIE_FIGHT)
    table = RoomEvent._meta.db_table
    assert not [q["sql"] for q in captured if q["sql"].startswith(f'UPDATE "{table}"')]
    event = RoomEvent.objects.get(kind="combat.attack")
    assert event.data["attack"]["seq"] == event.seq and event.data["attack"]["id"] == made.pk
