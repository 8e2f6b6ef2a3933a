"""A played session for the journal and dice statistics tests: on the
combat tests' battle, rolls of every visibility (a public one for Tenrec,
a player's blind one, a GM-only one, a player's own, physical dice), chat
with markup in it, a whisper, an encounter over two rounds with an attack
that wounds the zombie, and the session's end."""

from types import SimpleNamespace

from vtt import dice
from vtt.combat.services.encounters import (
    encounter_end,
    encounter_next,
    encounter_roll_initiative,
    encounter_start,
)
from vtt.tabletop.services.chat import chat_say, chat_whisper

from .battle import ARTIFICE_SHEETS, ARTIFICE_WEAPONS, ZOMBIE_FIGHT, attack, make_battle

CHECK = {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2}
# A chat line that would be markup in HTML and in Markdown.
HOSTILE = "<script>alert('x')</script> **loud** [link](http://evil.example) # not a heading"


def play(battle=None) -> SimpleNamespace:
    battle = battle or make_battle("artifice", sheets=ARTIFICE_SHEETS, weapons=ARTIFICE_WEAPONS)
    users, campaign_id = battle.users, battle.campaign.pk

    def roll(who, visibility="public", **more):
        return dice.roll_adjudicate(
            campaign_id=campaign_id,
            by=users[who],
            request={**CHECK, **more.pop("request", {})},
            visibility=visibility,
            **more,
        )

    played = SimpleNamespace(battle=battle)
    played.public = roll("player", character_id=battle.characters["tenrec"].pk)
    played.blind = roll("player", "blind")
    played.gm_only = roll("gm", "gm")
    played.own = roll("other", "self")
    # Against another difficulty than the blind roll by the same player, so
    # the two sentences differ whatever the blind roll's dice.
    played.physical = roll("player", request={"faces": [6, 6, 6], "difficulty": 3})
    chat_say(campaign_id=campaign_id, by=users["player"], text=HOSTILE)
    chat_whisper(campaign_id=campaign_id, by=users["player"], to="gm", text="The zombie is mine")
    encounter = encounter_start(scene_id=battle.scene.pk, by=users["gm"])
    encounter_roll_initiative(encounter_id=encounter.pk, by=users["gm"])
    encounter_next(encounter_id=encounter.pk, by=users["gm"])
    played.attack = attack(battle, weapon="Long sword", faces=ZOMBIE_FIGHT)
    for _ in range(3):  # Zombie, Kobor, then Tenrec again in round 2
        encounter_next(encounter_id=encounter.pk, by=users["gm"])
    encounter_end(encounter_id=encounter.pk, by=users["gm"])
    dice.session_end(campaign_id=campaign_id, by=users["gm"])
    return played
