"""A table under fog of war for the browser tests: an Artifice campaign
whose active scene, the Vault, has fog on and light everywhere, cut in two by
a wall at column 7 with a closed door (wall 1), a window (wall 3) and a
second door far down (wall 4). The player's Tenrec stands in the west room
beside the first door; a ghoul waits in the east room, out of Tenrec's
sight. Players may open doors next to their tokens. Run in a subprocess
against the database the test's daphne serves."""

import json

from tests.browser.seating import gm_and_player, joined_campaign

PASSWORD = "browser-test-pass-1"

WALLS = [
    [7, 0, 7, 3],
    [7, 3, 7, 4, "door"],
    [7, 4, 7, 6],
    [7, 6, 7, 7, "window"],
    [7, 7, 7, 8, "door"],
    # A closet in the east room's corner, walled all round: what is in it
    # no player ever sees.
    [12, 5, 14, 5],
    [12, 5, 12, 8],
]


def vault(players_open_doors: bool = True, ghoul_at=(10, 2)):
    """The Vault's table (the GM, the player, the campaign, the scene and
    the tokens), for this seed and the replay's fog seed."""
    from types import SimpleNamespace

    from vtt.tabletop import services

    gm, player = gm_and_player(PASSWORD)
    campaign = joined_campaign(gm, player, "The Vault")
    if players_open_doors:
        services.campaign_update_settings(
            campaign_id=campaign.pk, by=gm, settings={"players_open_doors": True}
        )
    scene = services.scene_create(
        campaign_id=campaign.pk,
        by=gm,
        name="Vault",
        width=14,
        height=8,
        walls=WALLS,
        fog=True,
        lit=True,
    )
    services.scene_activate(scene_id=scene.pk, by=gm)
    tenrec = services.character_create(
        campaign_id=campaign.pk, by=gm, name="Tenrec", owner_id=player.pk
    )
    token = services.token_create(
        scene_id=scene.pk,
        by=gm,
        name="Tenrec",
        x=5,
        y=3,
        color="#2266aa",
        character_id=tenrec.pk,
        controllers=[player.pk],
    )
    x, y = ghoul_at
    ghoul = services.token_create(scene_id=scene.pk, by=gm, name="Ghoul", x=x, y=y, color="#556b2f")
    wraith = services.token_create(
        scene_id=scene.pk, by=gm, name="Closet Wraith", x=13, y=6, color="#445566"
    )
    return SimpleNamespace(
        gm=gm,
        player=player,
        campaign=campaign,
        scene=scene,
        tenrec=token,
        ghoul=ghoul,
        wraith=wraith,
    )


def seed() -> dict:
    table = vault()
    return {
        "campaign": table.campaign.pk,
        "scene": table.scene.pk,
        "tenrec": table.tenrec.pk,
        "ghoul": table.ghoul.pk,
        "wraith": table.wraith.pk,
        "users": {"gm": table.gm.pk, "player": table.player.pk},
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
