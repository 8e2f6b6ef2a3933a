"""A table night's seed: the five demo campaigns of `vtt/demo/`,
laid out by the demo's own builder for the browser tests' GM and player,
and a watcher who sits in on every table as an observer (the third person
a whisper must not reach). Run in a subprocess against the database the
test's daphne serves; prints one line of JSON."""

import json

from tests.browser.room_seed import PASSWORD


def seed() -> dict:
    from django.contrib.auth import get_user_model

    from vtt.demo import DEMOS
    from vtt.demo.build import lay_out
    from vtt.tabletop import services
    from vtt.tabletop.models import Campaign, Role, Token

    users = get_user_model().objects
    gm = users.create_user("gm", password=PASSWORD)
    player = users.create_user("player", password=PASSWORD)
    watcher = users.create_user("watcher", password=PASSWORD)
    games = {}
    for demo in DEMOS:
        lay_out(demo, gm, player)
        campaign = Campaign.objects.get(name=demo.campaign, memberships__user=gm)
        services.membership_add(
            campaign_id=campaign.pk, by=gm, user_id=watcher.pk, role=Role.OBSERVER
        )
        tokens = Token.objects.filter(scene_id=campaign.active_scene_id)
        games[demo.game] = {
            "campaign": campaign.pk,
            "name": demo.campaign,
            "tokens": {t.name: t.pk for t in tokens},
            "pc": next(f.name for f in demo.pcs if f.owner == "player"),
            "npcs": [f.name for f in demo.npcs],
        }
    return {"games": games, "password": PASSWORD}


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
