"""A 20 x 20 scene split by a wall down x = 10 with a door in it, and four
tokens: Tenrec (the player's) and Mara (the other player's) west of it, a
goblin east of it by the door and an orc to the south-west."""

from types import SimpleNamespace

from django.contrib.auth import get_user_model

from vtt.tabletop import services
from vtt.tabletop.models import Membership, Role

# A wall down x = 10 with a door in it from y = 8 to y = 10.
WALLS = [[10, 0, 10, 8], [10, 8, 10, 10, "door"], [10, 10, 10, 20]]
DOOR = 1


def make_crypt(name: str = "Crypt") -> SimpleNamespace:
    User = get_user_model()
    gm, player, other = (User.objects.create_user(n) for n in ("gm", "player", "other"))
    campaign = services.campaign_create(owner=gm, name=name, game="artifice")
    for user in (player, other):
        Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
    scene = services.scene_create(
        campaign_id=campaign.pk, by=gm, name="Hall", width=20, height=20, walls=WALLS
    )
    services.scene_activate(scene_id=scene.pk, by=gm)

    def token(name, x, y, **kw):
        return services.token_create(scene_id=scene.pk, by=gm, name=name, x=x, y=y, **kw)

    return SimpleNamespace(
        gm=gm,
        player=player,
        other=other,
        campaign=campaign,
        scene=scene,
        tenrec=token("Tenrec", 2, 8, controllers=[player.pk]),
        mara=token("Mara", 3, 3, controllers=[other.pk]),
        goblin=token("Goblin", 15, 8),
        orc=token("Orc", 5, 15),
    )
