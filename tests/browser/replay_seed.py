"""A played session for the replay's browser tests: on the Tomb (lit, no
fog) the player's Tenrec walks from (2, 2) to (6, 5) in session 1 while the
GM's hidden Lurker creeps about; the player makes a public roll and the GM a
secret one; the session ends. Run in a subprocess against the database the
test's daphne serves."""

import json

from tests.browser.seating import gm_and_player, joined_campaign

PASSWORD = "browser-test-pass-1"
CHECK = {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2}


def seed() -> dict:
    from vtt import dice
    from vtt.tabletop import services
    from vtt.tabletop.models import RoomEvent

    gm, player = gm_and_player(PASSWORD)
    campaign = joined_campaign(gm, player, "The Tomb")
    scene = services.scene_create(
        campaign_id=campaign.pk, by=gm, name="Tomb entrance", width=12, height=8
    )
    services.scene_activate(scene_id=scene.pk, by=gm)
    tenrec = services.character_create(
        campaign_id=campaign.pk, by=gm, name="Tenrec", owner_id=player.pk
    )
    token = services.token_create(
        scene_id=scene.pk,
        by=gm,
        name="Tenrec",
        x=1,
        y=1,
        character_id=tenrec.pk,
        controllers=[player.pk],
    )
    lurker = services.token_create(scene_id=scene.pk, by=gm, name="Lurker", x=10, y=6, hidden=True)
    services.token_move(token_id=token.pk, by=player, x=2, y=2)  # before the session
    dice.session_start(campaign_id=campaign.pk, by=gm)
    for x, y in ((4, 2), (6, 2)):
        services.token_move(token_id=token.pk, by=player, x=x, y=y)
    public = dice.roll_adjudicate(
        campaign_id=campaign.pk, by=player, request=CHECK, nonce="ab" * 16
    )
    services.token_move(token_id=lurker.pk, by=gm, x=9, y=5)
    secret = dice.roll_adjudicate(
        campaign_id=campaign.pk, by=gm, request=CHECK, visibility="gm", nonce="cd" * 16
    )
    services.token_move(token_id=token.pk, by=player, x=6, y=5)
    dice.session_end(campaign_id=campaign.pk, by=gm)
    seq_of = {
        roll.pk: RoomEvent.objects.get(kind="roll", data__roll_id=roll.pk).seq
        for roll in (public, secret)
    }
    return {
        "campaign": campaign.pk,
        "tenrec": token.pk,
        "lurker": lurker.pk,
        "public_seq": seq_of[public.pk],
        "secret_seq": seq_of[secret.pk],
        "users": {"gm": gm.pk, "player": player.pk},
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
