"""A 20 x 20 scene split by a wall down x = 10 with a door in it, and four
tokens: Tenrec (the player's) and Mara (the other player's) west of it, a
goblin east of it by the door and an orc to the south-west."""

from types import SimpleNamespace

from tests import factories

# A wall down x = 10 with a door in it from y = 8 to y = 10.
WALLS = [[10, 0, 10, 8], [10, 8, 10, 10, "door"], [10, 10, 10, 20]]
DOOR = 1


def make_crypt(name: str = "Crypt") -> SimpleNamespace:
    people = factories.people(("gm", "player", "other"))
    gm, player, other = people.values()
    campaign = factories.campaign_at_table(people, name=name)
    scene = factories.scene(campaign, gm, "Hall", active=True, width=20, height=20, walls=WALLS)

    def token(name, x, y, **kw):
        return factories.token(scene, gm, name, x, y, **kw)

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
