"""A campaign with a row in every table an archive carries: members of
every role, characters with sheets and portraits, two scenes (one with a
background, walls, fog of war and a dark map), tokens (hidden, with sight,
with art; one deleted), an encounter with combatants and trails, rolls of
every visibility, an attack, chat and whispers, an undo, a broken weapon,
a handout with a picture shared with one player, status markers, drawings
(moved, erased, cleared, on both layers) and two play sessions, ended."""

from tests.combat.battle import ARTIFICE_SHEETS, ARTIFICE_WEAPONS, attack, make_battle
from tests.tabletop.images import image_bytes, upload
from vtt import dice
from vtt.combat.models import BrokenWeapon
from vtt.combat.services.encounters import (
    encounter_next,
    encounter_roll_initiative,
    encounter_start,
)
from vtt.combat.services.reveal import event_reveal
from vtt.combat.services.undo import undo_last
from vtt.drawings.services import drawing_add, drawing_clear, drawing_move, drawing_remove
from vtt.fog.services import fog_edit
from vtt.handouts.services import handout_create, handout_share
from vtt.markers import services as markers
from vtt.tabletop import services
from vtt.tabletop.models import Light, RoomEvent
from vtt.tabletop.services.art import character_set_portrait, token_set_art
from vtt.tabletop.services.chat import chat_say, chat_whisper

NONCE = "5eed5eed5eed5eed5eed5eed5eed5eed"
CHECK = {"system": "artifice", "action": "check", "pool": 4, "difficulty": 3}


def rich_campaign():
    battle = make_battle("artifice", sheets=ARTIFICE_SHEETS, weapons=ARTIFICE_WEAPONS)
    gm, player, other = battle.users["gm"], battle.users["player"], battle.users["other"]
    cid, scene = battle.campaign.pk, battle.scene
    tokens, characters = battle.tokens, battle.characters
    character_set_portrait(
        character_id=characters["tenrec"].pk, by=player, image=upload(image_bytes(40, 30))
    )
    token_set_art(token_id=tokens["zombie"].pk, by=gm, image=upload(image_bytes(32, 32)))
    services.character_update(character_id=characters["zombie"].pk, by=gm, gm_notes="slow")
    dice.roll_adjudicate(campaign_id=cid, by=player, request=CHECK, nonce=NONCE)
    dice.roll_adjudicate(campaign_id=cid, by=gm, request=CHECK, visibility="gm")
    dice.roll_adjudicate(campaign_id=cid, by=player, request=CHECK, visibility="blind")
    dice.roll_adjudicate(campaign_id=cid, by=player, request={**CHECK, "faces": [6, 5, 1, 1]})
    hidden = dice.roll_adjudicate(campaign_id=cid, by=gm, request=CHECK, visibility="gm")
    event_reveal(
        campaign_id=cid,
        by=gm,
        seq=RoomEvent.objects.get(campaign_id=cid, kind="roll", data__roll_id=hidden.pk).seq,
    )
    attack(battle, weapon="Long sword", nonce=NONCE)
    encounter = encounter_start(scene_id=scene.pk, by=gm)
    encounter_roll_initiative(encounter_id=encounter.pk, by=gm)
    for key in ("tenrec", "kobor"):
        token = tokens[key]
        token.refresh_from_db()
        services.token_move(token_id=token.pk, by=gm, x=token.x + 1, y=token.y)
    undo_last(campaign_id=cid, by=gm)
    encounter_next(encounter_id=encounter.pk, by=gm)
    services.token_move(token_id=tokens["tenrec"].pk, by=player, x=6, y=4)
    chat_say(campaign_id=cid, by=player, text="Forward!")
    chat_whisper(campaign_id=cid, by=player, to=other.username, text="watch the zombie")
    chat_whisper(campaign_id=cid, by=gm, to=player.username, text="you hear scratching")
    BrokenWeapon.objects.create(character=characters["tenrec"], weapon="Sling")
    letter = handout_create(
        campaign_id=cid,
        by=gm,
        title="A letter",
        text="Meet me at *midnight*.",
        image=upload(image_bytes(36, 24)),
    )
    handout_share(handout_id=letter.pk, by=gm, members=[player.pk])
    dice.session_end(campaign_id=cid, by=gm)
    # The second scene: a dark crypt under fog, a background, a hidden
    # lurker and a torch-bearer who sees in the dark.
    crypt = services.scene_create(
        campaign_id=cid, by=gm, name="Crypt", width=12, height=10, walls=[[6, 0, 6, 5]]
    )
    services.scene_set_background(scene_id=crypt.pk, by=gm, image=upload(image_bytes(48, 40)))
    services.scene_update(scene_id=crypt.pk, by=gm, fog=True, lit=False)
    lurker = services.token_create(scene_id=crypt.pk, by=gm, name="Lurker", x=9, y=8, hidden=True)
    gone = services.token_create(scene_id=crypt.pk, by=gm, name="Rat", x=1, y=8)
    torch_bearer = services.token_create(
        scene_id=crypt.pk,
        by=gm,
        name="Tenrec",
        x=1,
        y=1,
        character_id=characters["tenrec"].pk,
        controllers=[player.pk],
        sight_ft=30,
        light_ft=10,
    )
    # A brazier on the map and the torch Tenrec carries.
    Light.objects.create(scene=crypt, x=8.5, y=2.5, bright=2, dim=4, color="#ff9329")
    Light.objects.create(scene=crypt, token=torch_bearer, x=1.5, y=1.5, bright=2, dim=4, on=False)
    services.scene_activate(scene_id=crypt.pk, by=gm)
    services.token_delete(token_id=gone.pk, by=gm)
    fog_edit(scene_id=crypt.pk, by=gm, action="reveal", rect=[0, 0, 3, 3])
    # Status markers: a condition, and the GM's secret free one on the lurker.
    markers.marker_add(campaign_id=cid, token_id=lurker.pk, by=gm, condition_id="prone")
    markers.marker_add(
        campaign_id=cid, token_id=lurker.pk, by=gm, icon="eye", label="Waits", gm_only=True
    )
    # Drawings on the crypt's map: the player's (one moved, one erased,
    # one kept), the GM's secret note, and a layer cleared.
    kept = drawing_add(
        scene_id=crypt.pk,
        by=player,
        shape="pen",
        color="#ff0000",
        width=2,
        points=[[1, 1], [2, 1.5], [2.5, 2]],
        stroke="s1",
    )
    drawing_move(drawing_id=kept.pk, by=player, dx=0.5, dy=0)
    erased = drawing_add(
        scene_id=crypt.pk,
        by=player,
        shape="arrow",
        color="#00ff00",
        width=3,
        points=[[1, 2], [2, 2]],
    )
    drawing_remove(drawing_id=erased.pk, by=player)
    drawing_add(
        scene_id=crypt.pk,
        by=gm,
        shape="text",
        layer="gm",
        color="#000000",
        width=1,
        points=[[9, 8]],
        text="The lurker waits",
    )
    drawing_add(
        scene_id=crypt.pk,
        by=gm,
        shape="rect",
        color="#0000ff",
        width=1,
        points=[[0, 0], [3, 3]],
    )
    drawing_clear(scene_id=crypt.pk, by=gm, layer="shared")
    drawing_add(
        scene_id=crypt.pk,
        by=player,
        shape="ellipse",
        color="#ffffff",
        width=1,
        points=[[0, 0], [2, 2]],
    )
    dice.roll_adjudicate(campaign_id=cid, by=player, request=CHECK, nonce=NONCE)
    dice.session_end(campaign_id=cid, by=gm)
    battle.crypt, battle.lurker = crypt, lurker
    return battle
