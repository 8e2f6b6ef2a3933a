"""A big battle map for the browser: a GM, a player, a 100 x 100 scene
with N tokens (3,000 unless told), one in ten hidden from players, the
player's hero in the middle and a GM's runner two squares east of it.
Used by tests/browser/test_big_map.py and bench/big_map.py; run in a
subprocess against the database the served site uses:

    python -m tests.browser.big_seed 3000
"""

import json
import random
import sys

from tests.browser.seating import gm_and_player, joined_campaign

PASSWORD = "big-map-pass-1"
SIDE = 100
KINDS = ["Goblin", "Skeleton", "Orc archer", "Giant rat", "Bandit", "Zombie", "Cultist", "Wolf"]
COLOURS = ["#556b2f", "#aa3322", "#2266aa", "#888888", "#6a4c93", "#c08a2a"]


def seed(tokens: int | str = 3000) -> dict:
    """The table: a GM, a player, a 100 x 100 scene with `tokens` tokens
    (one in ten hidden from players), the player's hero in the middle;
    `tokens` may come as text, from a command line."""
    from vtt.tabletop import services
    from vtt.tabletop.models import Token

    gm, player = gm_and_player(PASSWORD)
    campaign = joined_campaign(gm, player, "The Big Map")
    scene = services.scene_create(
        campaign_id=campaign.pk, by=gm, name="Battlefield", width=SIDE, height=SIDE
    )
    services.scene_activate(scene_id=scene.pk, by=gm)
    middle = SIDE // 2
    hero = services.token_create(
        scene_id=scene.pk, by=gm, name="Hero", x=middle, y=middle, controllers=[player.pk]
    )
    runner = services.token_create(
        scene_id=scene.pk, by=gm, name="Runner", x=middle + 2, y=middle, color="#aa3322"
    )
    rng = random.Random(1)
    free = [(x, y) for x in range(SIDE) for y in range(SIDE) if abs(x - middle) > 3 or y != middle]
    squares = rng.sample(free, int(tokens) - 2)
    Token.objects.bulk_create(
        Token(
            scene=scene,
            name=f"{KINDS[i % len(KINDS)]} {i + 1}",
            x=x,
            y=y,
            color=COLOURS[i % len(COLOURS)],
            hidden=i % 10 == 9,
        )
        for i, (x, y) in enumerate(squares)
    )
    hidden = Token.objects.filter(scene=scene, hidden=True).order_by("pk")
    return {
        "campaign": campaign.pk,
        "hero": hero.pk,
        "runner": runner.pk,
        "middle": middle,
        "visible": Token.objects.filter(scene=scene, hidden=False).count(),
        "hidden_sample": list(hidden.values_list("pk", flat=True)[:5]),
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed(int(sys.argv[1]) if len(sys.argv) > 1 else 3000)))
