"""Every game's attacks read as sentences in the log: who hits or misses
whom, the dice in the game's words, the damage and the wound state the
target reached, with no raw keys and no "actor"/"opponent"."""

import re

import pytest

from vtt.combat.services.attacks import attack_apply_damage
from vtt.combat.services.reactions import react
from vtt.tabletop.models import RoomEvent
from vtt.tabletop.services.errors import ServiceError

from .battle import ARTIFICE_SHEETS, ARTIFICE_WEAPONS, apocalyptia_battle, attack, make_battle
from .test_attacks_games import fgr, rd6, xerosum  # noqa: F401 (fixtures)

RAW = re.compile(r"_|\bactor\b|\bopponent\b|\btrue\b|\bfalse\b|\bNone\b", re.IGNORECASE)


def fitted(battle, first: list, then: int, **kwargs):
    """An attack whose tape starts with `first` and goes on with as many
    faces `then` as the chain's later steps throw."""
    for extra in range(0, 40):
        try:
            return attack(battle, faces=first + [then] * extra, **kwargs)
        except ServiceError as error:
            if "dice tape" not in error.message:
                raise
    raise AssertionError("no tape fits")


def said(kind: str = "combat.attack") -> str:
    text = RoomEvent.objects.filter(kind=kind).order_by("-seq").first().data["attack"]["sentence"]
    assert text.endswith(".") and not RAW.search(text), text
    return text


@pytest.fixture
def artifice(db):
    return make_battle(sheets=ARTIFICE_SHEETS, weapons=ARTIFICE_WEAPONS)


def test_artifice_a_hit_says_the_successes_the_cascade_and_the_condition(artifice):
    # Combat Test 4D vs 2D: 4 successes to 0; the Wound Test then harms.
    made = fitted(artifice, [5] * 4 + [1] * 2, 5, weapon="Long sword")
    combat = made.steps[0]["result"]["combat"]
    mine, margin = combat["actor_successes"], combat["margin"]
    text = said()
    assert text.startswith(
        f"Tenrec hits Zombie with the Long sword: {mine} successes to 0, cascade {margin}."
    ), text
    after = made.steps[0]["result"]["condition_after"]
    assert text.endswith(f"Zombie is {after}."), text


def test_artifice_a_miss_says_so_and_no_state(artifice):
    made = attack(artifice, weapon="Long sword", faces=[1] * 4 + [5] * 2)
    theirs = made.steps[0]["result"]["combat"]["opponent_successes"]
    text = said()
    assert text == f"Tenrec misses Zombie with the Long sword: 0 successes to {theirs}.", text
    assert " is " not in text


def test_apocalyptia_the_damage_waits_then_the_state_is_said(db):
    battle = apocalyptia_battle()
    made = attack(battle, weapon="Machete", faces=[4, 2])
    text = said()
    assert text == (
        "Tenrec hits Zombie with the Machete: ATK 10 against DEF (Dodge) 5, by 5."
        " The GM applies the damage: 8 suggested."
    )
    attack_apply_damage(attack_id=made.pk, by=battle.users["gm"])
    text = said("combat.damage")
    assert "Zombie takes 8 damage." in text
    assert re.search(r"Zombie is [A-Z]\w+\.$", text), text


def test_rd6_a_hit_says_both_tallies(rd6):  # noqa: F811
    fitted(rd6, [6, 6, 5, 4, 2, 3], 3, weapon="Axe")
    text = said()
    assert text.startswith("Tenrec hits Zombie with the Axe: "), text
    assert re.search(r"\d+ \(\d+ successe?s?\) to \d+ \(\d+ successe?s?\)", text), text
    assert "The GM applies the damage" in text


def test_fgr_the_defender_spends_action_points_then_the_state(fgr):  # noqa: F811
    made = attack(
        fgr, by="gm", attacker="zombie", target="tenrec", weapon="Bite", faces=[3, 4, 1, 3, 4]
    )
    text = said()
    assert text.startswith("Zombie hits Tenrec with the Bite: 2 successes against Difficulty"), text
    assert "Tenrec takes 7 damage, less any Action Points spent." in text
    react(
        reaction="reduce_damage",
        attack_id=made.pk,
        by=fgr.users["player"],
        values={"action_points": 2},
    )
    text = said("combat.damage")
    assert "Tenrec takes 5 damage after spending 2 Action Points." in text
    assert re.search(r"Tenrec is [A-Z]\w+\.$", text), text


def test_fgr_a_miss(fgr):  # noqa: F811
    attack(fgr, weapon="Sword", faces=[1, 2, 3])
    assert (
        said() == "Tenrec misses Zombie with the Sword: 1 success against Difficulty Moderate (2)."
    )


def test_xerosum_says_the_total_against_the_difficulty(xerosum):  # noqa: F811
    made = attack(xerosum, weapon="Knife", faces=[6, 6])
    text = said()
    assert text.startswith("Tenrec hits Zombie with the Knife: 15 against Difficulty 9"), text
    attack_apply_damage(attack_id=made.pk, by=xerosum.users["gm"], amount=4)
    text = said("combat.damage")
    assert "Zombie takes 4 damage. Zombie is Wounded." in text, text


def test_a_name_is_never_read_as_a_template(artifice):
    from vtt.tabletop.models import Character, Token

    Token.objects.filter(pk=artifice.tokens["zombie"].pk).update(name="{who} <b>x</b>")
    Character.objects.filter(pk=artifice.characters["zombie"].pk).update(name="{who} <b>x</b>")
    attack(artifice, weapon="Long sword", faces=[1] * 4 + [5] * 2)
    # The sentence is text: the browser escapes it; here the name is kept as given.
    assert "misses {who} <b>x</b> with" in said()
