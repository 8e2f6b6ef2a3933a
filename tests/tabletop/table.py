"""A small campaign at the table, shared by the tabletop and API tests: an
Artifice campaign with a GM, two players, an observer and an outsider, two
player characters and a zombie, an active scene with walls and tokens (one
of them hidden)."""

from types import SimpleNamespace

from django.contrib.auth import get_user_model

from vtt.tabletop import services
from vtt.tabletop.models import Membership, Role

TENREC_SHEET = {
    "race": "Human",
    "class": "Warrior",
    "level": 2,
    "attributes": {"Strength": 3, "Dexterity": 2, "Intelligence": 2, "Will Power": 2},
    "abilities": {
        "Might": {"dice": 2, "kind": "class", "pips": 1},
        "Finesse": {"dice": 4, "kind": "class"},
    },
    "skills": ["Swordsmanship"],
}


def make_user(username: str):
    # No password: hashing one costs most of a second; tests log in with force_login.
    return get_user_model().objects.create_user(username=username, password=None)


def make_table() -> SimpleNamespace:
    gm, player, other, observer, outsider = (
        make_user(name) for name in ("gm", "player", "other", "observer", "outsider")
    )
    campaign = services.campaign_create(owner=gm, name="The Tomb", game="artifice")
    for user, role in ((player, Role.PLAYER), (other, Role.PLAYER), (observer, Role.OBSERVER)):
        Membership.objects.create(campaign=campaign, user=user, role=role)
    tenrec = services.character_create(
        campaign_id=campaign.pk,
        by=player,
        name="Tenrec",
        sheet=TENREC_SHEET,
        weapons=[{"name": "Long sword", "kind": "melee", "lethality": 2}],
    )
    kobor = services.character_create(campaign_id=campaign.pk, by=other, name="Kobor")
    zombie = services.character_create(
        campaign_id=campaign.pk,
        by=gm,
        name="Zombie",
        kind="npc",
        gm_notes="Rises again at midnight.",
    )
    scene = services.scene_create(
        campaign_id=campaign.pk,
        by=gm,
        name="Tomb entrance",
        width=20,
        height=15,
        walls=[[0, 5, 10, 5]],
    )
    services.scene_activate(scene_id=scene.pk, by=gm)
    tenrec_token = services.token_create(
        scene_id=scene.pk, by=gm, name="Tenrec", x=2, y=2, character_id=tenrec.pk
    )
    kobor_token = services.token_create(
        scene_id=scene.pk, by=gm, name="Kobor", x=3, y=2, character_id=kobor.pk
    )
    zombie_token = services.token_create(
        scene_id=scene.pk, by=gm, name="Zombie", x=8, y=8, character_id=zombie.pk
    )
    lurker = services.token_create(
        scene_id=scene.pk, by=gm, name="Lurker", x=15, y=10, hidden=True, size=2
    )
    spare = services.scene_create(campaign_id=campaign.pk, by=gm, name="Burial chamber")
    campaign.refresh_from_db()
    return SimpleNamespace(
        gm=gm,
        player=player,
        other=other,
        observer=observer,
        outsider=outsider,
        campaign=campaign,
        tenrec=tenrec,
        kobor=kobor,
        zombie=zombie,
        scene=scene,
        spare_scene=spare,
        tenrec_token=tenrec_token,
        kobor_token=kobor_token,
        zombie_token=zombie_token,
        lurker=lurker,
    )
