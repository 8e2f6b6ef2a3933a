"""A campaign full of secrets, and the means to look for them.

The GM of "The Tomb" keeps things from the players: an NPC whose sheet and
GM notes are the GM's, a hidden token with its own NPC, a scene the room is
not on with a monster waiting there, a hidden move, GM-only rolls, a hidden
attack, a handout shared with nobody. Each secret carries a marker string
that nothing a player may see ever contains, so a test can scan a whole
answer (JSON, HTML, a websocket frame) for all of them at once. A second
campaign belongs to a stranger."""

import json
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests import factories
from tests.laid_once import laid_once_per_module
from vtt import dice
from vtt.combat.services.attacks import attack_make
from vtt.combat.services.encounters import encounter_start
from vtt.handouts import services as handouts
from vtt.tabletop import services

# Strings that only the GM may ever receive.
NOTE = "SECRET-NOTE-zombie-rises"
VAMPIRE = "Vampire Lord Xarn"  # an NPC behind the hidden token
LURKER = "Hidden Lurker"  # the hidden token's name
LAIR = "Dragon Lair"  # the scene the room is not on
DRAGON = "Ancient Dragon"  # a visible token on that scene
ELSEWHERE = "Elsewhere Keep"  # the stranger's campaign
UNSENT = "Unsent letter from the Duke"  # a handout the GM has shared with nobody
SECRETS = (NOTE, VAMPIRE, LURKER, LAIR, DRAGON, ELSEWHERE, UNSENT)

CHECK = {"system": "artifice", "action": "check", "pool": 2, "difficulty": 1}

PEOPLE = ("gm", "player", "other", "observer", "stranger")
# Everyone in the campaign who is not its GM.
NOT_GM = ("player", "other", "observer")


def leaks(payload) -> list[str]:
    """The secret markers found anywhere in `payload` (any JSON or text)."""
    text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    return [marker for marker in SECRETS if marker in text]


def make_secrets(prefix: str = "") -> SimpleNamespace:
    users = factories.people(PEOPLE, prefix=prefix)
    gm = users["gm"]
    campaign = factories.campaign_at_table(users)

    weapons = [
        {"name": "Long sword", "kind": "melee", "lethality": 1},
        {"name": "Long bow", "kind": "missile", "lethality": 1, "range_ft": 60},
    ]
    tenrec = services.character_create(
        campaign_id=campaign.pk, by=users["player"], name="Tenrec", weapons=weapons
    )
    kobor = services.character_create(campaign_id=campaign.pk, by=users["other"], name="Kobor")
    zombie = services.character_create(
        campaign_id=campaign.pk,
        by=gm,
        name="Zombie",
        kind="npc",
        gm_notes=NOTE,
        weapons=[{"name": "Claws", "kind": "melee", "lethality": 1}],
    )
    vampire = services.character_create(
        campaign_id=campaign.pk,
        by=gm,
        name=VAMPIRE,
        kind="npc",
        weapons=[{"name": "Bite", "kind": "melee", "lethality": 2}],
    )

    crypt = factories.scene(campaign, gm, "Crypt", active=True, width=20, height=20)
    lair = factories.scene(campaign, gm, LAIR, width=30, height=30)

    def token(scene, name, x, y, **extra):
        return factories.token(scene, gm, name, x, y, **extra)

    tokens = SimpleNamespace(
        tenrec=token(crypt, "Tenrec", 2, 2, character_id=tenrec.pk),
        kobor=token(crypt, "Kobor", 6, 2, character_id=kobor.pk),
        zombie=token(crypt, "Zombie", 3, 3, character_id=zombie.pk),
        lurker=token(crypt, LURKER, 10, 10, hidden=True, character_id=vampire.pk),
        dragon=token(lair, DRAGON, 5, 5),
        # The player's own token, waiting on the scene the room is not on.
        waiting=token(lair, "Tenrec", 1, 1, controllers=[users["player"].pk]),
    )
    # The hidden lurker creeps up beside Tenrec: its trail is the GM's.
    services.token_move(token_id=tokens.lurker.pk, by=gm, x=1, y=3)

    rolls = SimpleNamespace(
        public=dice.roll_adjudicate(campaign_id=campaign.pk, by=users["other"], request=CHECK),
        gm=dice.roll_adjudicate(
            campaign_id=campaign.pk,
            by=gm,
            request=CHECK,
            visibility="gm",
            character_id=vampire.pk,
        ),
        players_gm=dice.roll_adjudicate(
            campaign_id=campaign.pk, by=users["player"], request=CHECK, visibility="gm"
        ),
        self_other=dice.roll_adjudicate(
            campaign_id=campaign.pk, by=users["other"], request=CHECK, visibility="self"
        ),
        blind=dice.roll_adjudicate(
            campaign_id=campaign.pk, by=users["player"], request=CHECK, visibility="blind"
        ),
    )
    # The vampire bites Tenrec from the shadows: hidden, as its token is.
    hidden_attack = attack_make(
        by=gm,
        attacker_token_id=tokens.lurker.pk,
        target_token_id=tokens.tenrec.pk,
        weapon="Bite",
    )
    # The GM sets up the dragon's fight before the room gets there.
    lair_fight = encounter_start(scene_id=lair.pk, by=gm)

    elsewhere = factories.campaign(users["stranger"], name=ELSEWHERE, game="artifice")
    far_scene = services.scene_create(
        campaign_id=elsewhere.pk, by=users["stranger"], name="Keep", width=10, height=10
    )
    services.scene_activate(scene_id=far_scene.pk, by=users["stranger"])
    far_character = services.character_create(
        campaign_id=elsewhere.pk, by=users["stranger"], name="Keeper"
    )
    far_token = services.token_create(
        scene_id=far_scene.pk, by=users["stranger"], name="Keeper", character_id=far_character.pk
    )
    far_roll = dice.roll_adjudicate(campaign_id=elsewhere.pk, by=users["stranger"], request=CHECK)
    invite = services.invite_create(campaign=elsewhere, by=users["stranger"])
    # A handout the GM has not shared with anyone yet.
    handout = handouts.handout_create(campaign_id=campaign.pk, by=gm, title=UNSENT, text="Not yet.")
    campaign.refresh_from_db()
    return SimpleNamespace(
        users=users,
        campaign=campaign,
        crypt=crypt,
        lair=lair,
        characters=SimpleNamespace(tenrec=tenrec, kobor=kobor, zombie=zombie, vampire=vampire),
        tokens=tokens,
        rolls=rolls,
        hidden_attack=hidden_attack,
        handout=handout,
        lair_fight=lair_fight,
        elsewhere=SimpleNamespace(
            campaign=elsewhere,
            scene=far_scene,
            character=far_character,
            token=far_token,
            roll=far_roll,
            invite=invite,
        ),
    )


laid_once, secrets = laid_once_per_module(lambda: make_secrets("sec-"), "secrets")


@pytest.fixture
def web(secrets):
    """A Django test client signed in as one of the people (None: nobody)."""

    def make(who: str | None) -> Client:
        client = Client()
        if who is not None:
            client.force_login(get_user_model().objects.get(pk=secrets.users[who].pk))
        return client

    return make


# The live rooms' websocket clients (tests/live): one fixture opens them and
# closes every one at the end.
from tests.live.conftest import clients  # noqa: E402, F401
