"""A small campaign at the table, shared by the tabletop and API tests: an
Artifice campaign with a GM, two players, an observer and an outsider, two
player characters and a zombie, an active scene with walls and tokens (one
of them hidden)."""

from types import SimpleNamespace

from tests import factories

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
    return factories.person(username)


def make_table() -> SimpleNamespace:
    people = factories.people(("gm", "player", "other", "observer", "outsider"))
    gm, player, other, observer, outsider = people.values()
    campaign = factories.campaign_at_table(people)
    tenrec = factories.character(
        campaign,
        player,
        "Tenrec",
        sheet=TENREC_SHEET,
        weapons=[{"name": "Long sword", "kind": "melee", "lethality": 2}],
    )
    kobor = factories.character(campaign, other, "Kobor")
    zombie = factories.character(
        campaign,
        gm,
        "Zombie",
        kind="npc",
        gm_notes="Rises again at midnight.",
    )
    scene = factories.scene(
        campaign, gm, "Tomb entrance", active=True, width=20, height=15, walls=[[0, 5, 10, 5]]
    )
    tenrec_token = factories.token(scene, gm, "Tenrec", 2, 2, character_id=tenrec.pk)
    kobor_token = factories.token(scene, gm, "Kobor", 3, 2, character_id=kobor.pk)
    zombie_token = factories.token(scene, gm, "Zombie", 8, 8, character_id=zombie.pk)
    lurker = factories.token(scene, gm, "Lurker", 15, 10, hidden=True, size=2)
    spare = factories.scene(campaign, gm, "Burial chamber")
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
