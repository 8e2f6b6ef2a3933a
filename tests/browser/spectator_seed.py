"""The table of the spectator's browser test: the Vault under fog of war
(tests/browser/fog_seed.py), with secrets the party does not hold: a hidden
lurker in the west room, a GM-only marker on Tenrec, a GM's note on
Tenrec's sheet, a GM-only roll and a whisper already in the log; and a
spectator link made by the GM. Run in a subprocess against the database
the test's daphne serves."""

import json

from tests.browser.fog_seed import PASSWORD, vault

# Words that must never reach a spectator, over any frame or the page.
SECRETS = {
    "lurker": "Lurker Below",
    "marker": "Cursed by the GM",
    "note": "Tenrec is the traitor",
    "whisper": "The key is under the mat",
}
CHECK = {"system": "artifice", "action": "check", "pool": 3, "difficulty": 2, "faces": [6, 6, 6]}


def seed() -> dict:
    from vtt.dice.rolls import roll_adjudicate
    from vtt.markers.services import marker_add
    from vtt.spectators.services import link_create
    from vtt.tabletop import services
    from vtt.tabletop.services.chat import chat_whisper

    table = vault()
    cid = table.campaign.pk
    lurker = services.token_create(
        scene_id=table.scene.pk, by=table.gm, name=SECRETS["lurker"], x=2, y=2, hidden=True
    )
    marker_add(
        campaign_id=cid,
        token_id=table.tenrec.pk,
        by=table.gm,
        icon="skull",
        label=SECRETS["marker"],
        gm_only=True,
    )
    services.character_update(
        character_id=table.tenrec.character_id, by=table.gm, gm_notes=SECRETS["note"]
    )
    roll_adjudicate(campaign_id=cid, by=table.gm, request=CHECK, visibility="gm")
    chat_whisper(campaign_id=cid, by=table.gm, to="player", text=SECRETS["whisper"])
    link, token = link_create(campaign_id=cid, by=table.gm, label="Stream")
    return {
        "campaign": cid,
        "tenrec": table.tenrec.pk,
        "ghoul": table.ghoul.pk,
        "lurker": lurker.pk,
        "link": link.pk,
        "token": token,
        "password": PASSWORD,
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(seed()))
