"""Every kind of page for the Content-Security-Policy's browser test: the
room seed's tables, and on the first of them a play session already ended
(rolls, a chat line) for the dice check, the replay, the journal and the
dice page; a staff account for the admin. Run in a subprocess against the
database the test's daphne serves."""

import json

from tests.browser.room_seed import PASSWORD
from tests.browser.room_seed import seed as room_seed

CHECK = {"system": "artifice", "action": "check", "pool": 4, "difficulty": 2}


def seed() -> dict:
    from django.contrib.auth import get_user_model

    from vtt import dice
    from vtt.tabletop.models import Character
    from vtt.tabletop.services.chat import chat_say

    data = room_seed()
    campaign = data["campaign"]
    gm = get_user_model().objects.get(username="gm")
    player = get_user_model().objects.get(username="player")
    dice.session_start(campaign_id=campaign, by=gm)
    dice.roll_adjudicate(campaign_id=campaign, by=gm, request=CHECK, visibility="gm")
    dice.roll_adjudicate(campaign_id=campaign, by=player, request=CHECK)
    chat_say(
        campaign_id=campaign, by=player, text="<b>loud</b> and <script>window.hacked = 1</script>"
    )
    dice.session_end(campaign_id=campaign, by=gm)
    get_user_model().objects.create_superuser("admin", password=PASSWORD)
    tenrec = Character.objects.get(campaign_id=campaign, name="Tenrec")
    return {**data, "tenrec": tenrec.pk}


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
