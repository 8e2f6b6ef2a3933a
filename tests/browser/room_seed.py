"""A small table for the browser tests: a GM, a player, an Artifice
campaign with a scene, the player's Tenrec and a hidden zombie, and a second
scene waiting (a statue, the player's scout, a hidden lurker); a second
Artifice campaign for combat, the seed's fight (Tenrec with a long sword
next to a zombie NPC); and a Xero Sum wasteland where the player's Kira lies
Dying beside a raider; and a muster yard where players place their own
characters (a third user, the rival, owns Kobor there). Run in a subprocess
against the database the test's daphne serves."""

import json

from tests.browser.seating import gm_and_player, joined_campaign

PASSWORD = "browser-test-pass-1"


def seed() -> dict:
    from tests import factories
    from vtt.tabletop import services

    gm, player = gm_and_player(PASSWORD)
    campaign = joined_campaign(gm, player, "The Tomb")
    tenrec = services.character_create(
        campaign_id=campaign.pk,
        by=gm,
        name="Tenrec",
        owner_id=player.pk,
        weapons=[{"name": "Bow", "kind": "missile", "range_ft": 30, "lethality": 1}],
        sheet={"abilities": {"Might": {"dice": 3, "pips": 1}}},
    )
    scene = services.scene_create(
        campaign_id=campaign.pk, by=gm, name="Crypt", width=14, height=10, walls=[[6, 0, 6, 4]]
    )
    services.scene_activate(scene_id=scene.pk, by=gm)
    token = services.token_create(
        scene_id=scene.pk, by=gm, name="Tenrec", x=2, y=3, color="#2266aa", character_id=tenrec.pk
    )
    zombie = services.token_create(
        scene_id=scene.pk, by=gm, name="Zombie", x=9, y=4, color="#556b2f", hidden=True
    )
    hall = seed_hall(campaign, gm, player)
    # One table per other game, for the tray's forms.
    others = {
        game: factories.campaign(gm, name=f"{game} table", game=game).pk
        for game in ("fgr", "xerosum", "rd6", "apocalyptia")
    }
    fight = seed_fight(gm, player)
    return {
        "muster": seed_muster(gm, player),
        "fight": fight,
        "wasteland": seed_wasteland(gm, player),
        "games": {"artifice": campaign.pk, **others},
        "campaign": campaign.pk,
        "tenrec_token": token.pk,
        "zombie_token": zombie.pk,
        "hall": hall,
        "password": PASSWORD,
    }


def seed_hall(campaign, gm, player) -> dict:
    """A second scene of the table, not yet on it: a statue, the player's
    scout and a hidden lurker."""
    from vtt.tabletop import services

    hall = services.scene_create(
        campaign_id=campaign.pk, by=gm, name="Great Hall", width=18, height=12, walls=[[9, 0, 9, 6]]
    )
    tokens = {}
    for key, name, (x, y), extra in (
        ("statue", "Statue", (4, 4), {"color": "#888888"}),
        ("scout", "Scout", (6, 8), {"color": "#2266aa", "controllers": [player.pk]}),
        ("lurker", "Hidden Lurker", (14, 3), {"color": "#552222", "hidden": True}),
    ):
        tokens[key] = services.token_create(
            scene_id=hall.pk, by=gm, name=name, x=x, y=y, **extra
        ).pk
    return {"scene": hall.pk, "tokens": tokens}


def joined_table(gm, player, name, game, scene_name, **scene_size):
    """A campaign the player joined by invite, and its active scene."""
    from tests import factories

    campaign = joined_campaign(gm, player, name, game)
    return campaign, factories.scene(campaign, gm, scene_name, active=True, **scene_size)


def character_on(scene, gm, name, kind, owner, x, y, token=None, **sheet):
    """A character and its token on the scene; the token's pk and the character."""
    from tests import factories

    return factories.character_on(scene, gm, name, kind, owner, x, y, token, **sheet)


def seed_fight(gm, player) -> dict:
    """The seed's zombie fight: Tenrec (Finesse 4D, Might 3D, long sword
    Lethality 1) beside a zombie NPC (Agility 2D, Toughness 3D)."""
    from tests.combat.battle import ARTIFICE_SHEETS, ARTIFICE_WEAPONS

    campaign, scene = joined_table(
        gm, player, "The Fight", "artifice", "Tomb entrance", width=12, height=8, walls=[]
    )
    tokens = {}
    for key, name, kind, owner, (x, y), color in (
        ("tenrec", "Tenrec", "pc", player, (3, 3), "#2266aa"),
        ("zombie", "Zombie", "npc", None, (4, 3), "#556b2f"),
    ):
        tokens[key], _ = character_on(
            scene,
            gm,
            name,
            kind,
            owner,
            x,
            y,
            token={"color": color},
            sheet=ARTIFICE_SHEETS[key],
            weapons=ARTIFICE_WEAPONS[key],
        )
    return {"campaign": campaign.pk, "scene": scene.pk, "tokens": tokens}


def seed_wasteland(gm, player) -> dict:
    """Xero Sum: Kira at 0 Wound Points (Dying) with 2 Insight Dice, and a raider."""
    from vtt.tabletop import services

    campaign, scene = joined_table(
        gm, player, "The Wasteland", "xerosum", "Ruins", width=10, height=6
    )
    tokens = {}
    for key, name, kind, owner, x in (
        ("kira", "Kira", "pc", player, 2),
        ("raider", "Raider", "npc", None, 4),
    ):
        tokens[key], character = character_on(scene, gm, name, kind, owner, x, 2)
        if key == "kira":
            services.character_update(
                character_id=character.pk,
                by=gm,
                resources={"wound_points": 0, "resilience_points": 1, "insight_dice": 2},
            )
    return {"campaign": campaign.pk, "tokens": tokens}


def seed_muster(gm, player) -> dict:
    """Artifice, players may place their own characters: the player's Wren
    and the rival's Kobor wait off the map, with the GM's Ghoul (an NPC);
    a brute stands on the yard."""
    from tests import factories
    from vtt.tabletop import services

    rival = factories.person("rival", PASSWORD)
    campaign, scene = joined_table(
        gm, player, "The Muster", "artifice", "Muster yard", width=12, height=8, walls=[]
    )
    factories.invited(campaign, gm, rival)
    services.campaign_update_settings(
        campaign_id=campaign.pk, by=gm, settings={"players_place_tokens": True}
    )
    characters = {
        key: services.character_create(
            campaign_id=campaign.pk, by=gm, name=name, kind=kind, owner_id=owner
        ).pk
        for key, name, kind, owner in (
            ("wren", "Wren", "pc", player.pk),
            ("kobor", "Kobor", "pc", rival.pk),
            ("ghoul", "Ghoul", "npc", None),
        )
    }
    brute = services.token_create(scene_id=scene.pk, by=gm, name="Brute", x=2, y=2, color="#aa3322")
    return {
        "campaign": campaign.pk,
        "scene": scene.pk,
        "characters": characters,
        "brute": brute.pk,
        "users": {"gm": gm.pk, "player": player.pk, "rival": rival.pk},
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
