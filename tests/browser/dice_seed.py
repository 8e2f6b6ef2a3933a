"""Three tables for the dice check's browser test: one playing session 1 (the
GM's hidden roll, the player's physical dice and a chat line with markup in
it already made), one where that session was played on with two derived
rolls and ended (for the tests that read an ended session, so each runs
alone), and one whose ended session has a die altered in the log. Run in a
subprocess against the database the test's daphne serves."""

import json

from tests.browser.seating import gm_and_player, joined_campaign

PASSWORD = "browser-dice-pass-1"
CHECK = {"system": "artifice", "action": "check", "pool": 4, "difficulty": 2}
# A chat line the journal must show as typed.
CHAT = "<b>loud</b> **stars** and a <script>window.hacked = 1</script>"


def seed() -> dict:
    from tests import factories
    from vtt import dice
    from vtt.tabletop.services.chat import chat_say

    gm, player = gm_and_player(PASSWORD)

    def table(name):
        campaign = joined_campaign(gm, player, name)
        factories.scene(campaign, gm, "Crypt", active=True)
        dice.session_start(campaign_id=campaign.pk, by=gm)
        return campaign

    def roll(campaign, by, **kwargs):
        return dice.roll_adjudicate(
            campaign_id=campaign.pk, by=by, request=kwargs.pop("request", CHECK), **kwargs
        )

    def first_rolls(campaign):
        roll(campaign, gm, visibility="gm")
        roll(campaign, player, request={**CHECK, "faces": [6, 5, 2, 1]})
        chat_say(campaign_id=campaign.pk, by=player, text=CHAT)

    playing = table("The Dice Tomb")
    first_rolls(playing)

    played = table("The Dice Tomb, played")
    first_rolls(played)
    roll(played, player, nonce="ef" * 16)
    roll(played, player, nonce="12" * 16)
    dice.session_end(campaign_id=played.pk, by=gm)

    tampered = table("The Crooked Table")
    roll(tampered, player, nonce="ab" * 16)
    altered = roll(tampered, player, nonce="cd" * 16)
    dice.session_end(campaign_id=tampered.pk, by=gm)
    return {
        "campaign": playing.pk,
        "played": played.pk,
        "tampered": tampered.pk,
        "altered": alter(altered),
        "password": PASSWORD,
    }


def alter(roll) -> dict:
    """Change the third die of the roll's log entry, as a server that
    re-rolled behind the table's back would show it."""
    from tests.tabletop.helpers import tamper
    from vtt.tabletop.models import RoomEvent

    event = RoomEvent.objects.get(kind="roll", data__roll_id=roll.pk)
    data = event.data
    die = data["result"]["dice"][2]
    die["face"] = die["face"] % 6 + 1
    tamper(event, data)
    return {"roll": roll.draw["roll"], "die": 3, "shown": die["face"]}


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
