"""A table under fog of war for the browser tests: an Artifice campaign
whose active scene, the Vault, has fog on and light everywhere, cut in two by
a wall at column 7 with a closed door (wall 1), a window (wall 3) and a
second door far down (wall 4). The player's Tenrec stands in the west room
beside the first door; a ghoul waits in the east room, out of Tenrec's
sight. Players may open doors next to their tokens. Run in a subprocess
against the database the test's daphne serves."""

import json

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


def seed() -> dict:
    from django.contrib.auth import get_user_model

    from vtt.tabletop import services

    users = get_user_model().objects
    gm = users.create_user("gm", password=PASSWORD)
    player = users.create_user("player", password=PASSWORD)
    campaign = services.campaign_create(owner=gm, name="The Vault", game="artifice")
    invite = services.invite_create(campaign=campaign, by=gm, role="player")
    services.invite_accept(code=invite.code, user=player)
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
    ghoul = services.token_create(
        scene_id=scene.pk, by=gm, name="Ghoul", x=10, y=2, color="#556b2f"
    )
    wraith = services.token_create(
        scene_id=scene.pk, by=gm, name="Closet Wraith", x=13, y=6, color="#445566"
    )
    return {
        "campaign": campaign.pk,
        "scene": scene.pk,
        "tenrec": token.pk,
        "ghoul": ghoul.pk,
        "wraith": wraith.pk,
        "users": {"gm": gm.pk, "player": player.pk},
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
