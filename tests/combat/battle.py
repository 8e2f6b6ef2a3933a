"""A battle for the combat tests: the seed's tomb, with Tenrec (a player's
warrior) next to the zombie guarding the entrance, and Kobor (another
player's sorcerer) further off, on a 30 x 30 map with one wall."""

from dataclasses import dataclass, field

from tests import factories
from vtt.combat.services.attacks import attack_make, attack_preview
from vtt.dice import session_start

# The wall runs down the grid line x = 10 from y = 0 to y = 10.
WALL = [10, 0, 10, 10]

# The seed's zombie fight as a dice tape: Combat Test 4 dice (3 successes)
# against 2 (1 success); Wound Test 4 + 2 cascade = 6 dice (4 successes)
# against Toughness 3 (1 success).
ZOMBIE_FIGHT = [4, 5, 6, 2, 5, 3, 4, 4, 5, 5, 1, 2, 4, 1, 2]


@dataclass
class Battle:
    game: str
    campaign: object
    scene: object
    users: dict
    characters: dict = field(default_factory=dict)
    tokens: dict = field(default_factory=dict)


def artifice_sheet(**dice) -> dict:
    abilities = {}
    for name, value in dice.items():
        kind = "class" if value > 3 else "standard"
        abilities[name] = {"dice": value, "kind": kind}
    return {"class": "Warrior", "abilities": abilities}


def make_battle(game: str = "artifice", settings=None, sheets=None, weapons=None) -> Battle:
    users = factories.people(prefix=f"{game}-")
    campaign = factories.campaign_at_table(users, game=game, settings=settings or None)
    gm = users["gm"]
    scene = factories.scene(
        campaign, gm, "Tomb entrance", active=True, width=30, height=30, walls=[WALL]
    )
    battle = Battle(game, campaign, scene, users)
    sheets = sheets or {}
    weapons = weapons or {}
    people = (
        ("tenrec", "Tenrec", "pc", users["player"], (4, 4)),
        ("zombie", "Zombie", "npc", None, (5, 5)),
        ("kobor", "Kobor", "pc", users["other"], (2, 2)),
    )
    for key, name, kind, owner, (x, y) in people:
        character = factories.character(
            campaign,
            gm,
            name,
            kind=kind,
            owner_id=owner.pk if owner else None,
            sheet=sheets.get(key),
            weapons=weapons.get(key),
        )
        battle.characters[key] = character
        battle.tokens[key] = factories.token(scene, gm, name, x, y, character_id=character.pk)
    # The table sits down to play: the session's digest is out before any roll.
    session_start(campaign_id=campaign.pk, by=gm)
    return battle


ARTIFICE_SHEETS = {
    "tenrec": artifice_sheet(Finesse=4, Might=3, Agility=2, Toughness=3),
    "zombie": artifice_sheet(Finesse=2, Might=2, Agility=2, Toughness=3),
    "kobor": artifice_sheet(Arcanum=4, Agility=2, Toughness=2),
}
ARTIFICE_WEAPONS = {
    "tenrec": [
        {"name": "Long sword", "kind": "melee", "lethality": 1},
        {"name": "Long bow", "kind": "missile", "lethality": 1, "range_ft": 60},
        {"name": "Sling", "kind": "missile", "lethality": 0},
    ],
    "zombie": [{"name": "Claws", "kind": "melee", "lethality": 1}],
    "kobor": [
        {"name": "Firebolt", "kind": "spell", "lethality": 2, "range_ft": "line_of_sight"},
        {"name": "Frost ray", "kind": "spell", "lethality": 1, "range_ft": 30},
    ],
}

# Apocalyptia's seed fight: a machete fighter against a clubbing zombie.
APOCALYPTIA_SHEETS = {
    "tenrec": {
        "traits": {"Agility": 6, "Brains": 2, "Constitution": 3, "Demeanor": 2},
        "skills": {
            "Melee": {"trait": "Agility", "level": 6},
            "Dodge": {"trait": "Agility", "level": 2},
            "Block": {"trait": "Agility", "level": 1},
        },
    },
    "zombie": {
        "traits": {"Agility": 3, "Brains": 1, "Constitution": 4, "Demeanor": 1},
        "skills": {
            "Dodge": {"trait": "Agility", "level": 3},
            "Block": {"trait": "Agility", "level": 1},
        },
    },
}
APOCALYPTIA_WEAPONS = {
    "tenrec": [{"name": "Machete", "kind": "melee", "damage": 3}],
    "zombie": [{"name": "Club", "kind": "melee", "damage": 2}],
}


def apocalyptia_battle() -> Battle:
    return make_battle("apocalyptia", sheets=APOCALYPTIA_SHEETS, weapons=APOCALYPTIA_WEAPONS)


def fgr_battle() -> Battle:
    """Tenrec's sword against the zombie's bite, Melee 3 each."""
    return make_battle(
        "fgr",
        sheets={"tenrec": {"skills": {"Melee": 3}}, "zombie": {"skills": {"Melee": 3}}},
        weapons={
            "tenrec": [{"name": "Sword", "kind": "melee", "damage": 2}],
            "zombie": [{"name": "Bite", "kind": "melee", "damage": 2}],
        },
    )


def _tokens(battle, by, attacker, target) -> dict:
    return {
        "by": battle.users[by],
        "attacker_token_id": battle.tokens[attacker].pk,
        "target_token_id": battle.tokens[target].pk,
    }


def attack(battle, by="player", attacker="tenrec", target="zombie", **kwargs):
    """attack_make between two of the battle's tokens, named by key."""
    return attack_make(**_tokens(battle, by, attacker, target), **kwargs)


def preview(battle, by="player", attacker="tenrec", target="zombie", **kwargs):
    return attack_preview(**_tokens(battle, by, attacker, target), **kwargs)


def log_in_everyone(battle) -> Battle:
    """A session cookie for every user, for the websocket's handshake."""
    battle.cookies = {name: factories.session_cookie(u) for name, u in battle.users.items()}
    return battle
