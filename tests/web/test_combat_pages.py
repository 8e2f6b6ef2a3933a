"""Combat on the pages: the room hands its modules combat's REST root and
draws the attack panel, the turn order and the GM's Undo with labels; the GM
console undoes the room's last result."""

from html import unescape

import pytest

from tests.combat.battle import ARTIFICE_SHEETS, ARTIFICE_WEAPONS, ZOMBIE_FIGHT
from vtt.combat.services.attacks import attack_make
from vtt.tabletop import services
from vtt.tabletop.models import Character, RoomEvent, Token

from .test_room_page import config_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def fight(campaign, users):
    """The seed's zombie fight on the campaign's active scene."""
    gm = users["gm"]
    scene = services.scene_create(campaign_id=campaign.pk, by=gm, name="Tomb", width=10, height=8)
    services.scene_activate(scene_id=scene.pk, by=gm)
    tokens = {}
    for key, kind, owner, x in (("tenrec", "pc", users["player"], 3), ("zombie", "npc", None, 4)):
        character = services.character_create(
            campaign_id=campaign.pk,
            by=gm,
            name=key.title(),
            kind=kind,
            owner_id=owner.pk if owner else None,
            sheet=ARTIFICE_SHEETS[key],
            weapons=ARTIFICE_WEAPONS[key],
        )
        tokens[key] = services.token_create(
            scene_id=scene.pk, by=gm, name=key.title(), x=x, y=3, character_id=character.pk
        )
    return tokens


def test_the_room_hands_its_modules_combats_rest_root(campaign, as_user):
    config = config_of(as_user("player").get(f"/campaigns/{campaign.pk}/room/"))
    assert config["api"]["combat"] == "/api/combat/"


def test_every_combat_control_has_a_label(campaign, as_user):
    shared = (
        "attack-attacker",
        "attack-target",
        "attack-weapon",
        "attack-skill",
        "attack-physical",
        "attack-faces",
    )
    gm_only = ("attack-visibility", "attack-defense-skill", "turn-add-token")
    player = as_user("player").get(f"/campaigns/{campaign.pk}/room/").content.decode()
    for control in shared:
        assert f'for="{control}"' in player, control
    for control in gm_only:
        assert f'id="{control}"' not in player, control
    gm = as_user("gm").get(f"/campaigns/{campaign.pk}/room/").content.decode()
    for control in shared + gm_only:
        assert f'for="{control}"' in gm, control


def test_only_the_gm_gets_undo_and_the_encounter_controls(campaign, as_user):
    gm = as_user("gm").get(f"/campaigns/{campaign.pk}/room/").content.decode()
    for part in ('id="gm-undo"', 'id="turn-next"', 'id="turns-manage"', 'id="encounter-start"'):
        assert part in gm, part
    player = as_user("player").get(f"/campaigns/{campaign.pk}/room/").content.decode()
    for part in ('id="gm-undo"', 'id="turn-next"', 'id="turns-manage"', 'id="encounter-start"'):
        assert part not in player, part
    # Both see the turn order, the attack tab and the reset of their own token.
    for page in (gm, player):
        for part in ('id="turns"', 'id="tab-attack"', 'id="token-reset"'):
            assert part in page, part


def test_the_console_names_the_last_result_and_undoes_it(campaign, users, as_user, fight):
    client = as_user("gm")
    assert "Nothing to undo." in client.get(f"/campaigns/{campaign.pk}/gm/").content.decode()
    attack_make(
        by=users["player"],
        attacker_token_id=fight["tenrec"].pk,
        target_token_id=fight["zombie"].pk,
        weapon="Long sword",
        faces=ZOMBIE_FIGHT,
    )
    zombie = Character.objects.get(pk=fight["zombie"].character_id)
    assert zombie.resources["condition"] == "Wounded"
    page = unescape(client.get(f"/campaigns/{campaign.pk}/gm/").content.decode())
    seq = RoomEvent.objects.get(campaign=campaign, kind="combat.attack").seq
    assert f"Tenrec's attack on Zombie (#{seq})" in page
    answer = client.post(f"/campaigns/{campaign.pk}/gm/undo/", {"seq": seq}, follow=True)
    assert f"Undone: entry #{seq}." in answer.content.decode()
    zombie.refresh_from_db()
    assert zombie.resources["condition"] == "Healthy"
    assert RoomEvent.objects.filter(campaign=campaign, kind="undo").count() == 1


def test_the_console_does_not_undo_a_result_it_did_not_show(campaign, users, as_user, fight):
    client = as_user("gm")
    services.token_move(token_id=fight["tenrec"].pk, by=users["player"], x=2, y=3)
    seen = unescape(client.get(f"/campaigns/{campaign.pk}/gm/").content.decode())
    assert "Tenrec's move to column 2, row 3" in seen
    shown = RoomEvent.objects.get(campaign=campaign, kind="token.moved").seq
    # Meanwhile the player moves again: the GM's click names the older move.
    services.token_move(token_id=fight["tenrec"].pk, by=users["player"], x=1, y=3)
    answer = client.post(f"/campaigns/{campaign.pk}/gm/undo/", {"seq": shown}, follow=True)
    assert "Not undone" in answer.content.decode()
    assert Token.objects.get(pk=fight["tenrec"].pk).x == 1
    assert not RoomEvent.objects.filter(campaign=campaign, kind="undo").exists()


def test_nothing_to_undo_is_said_and_players_get_no_console(campaign, as_user):
    answer = as_user("gm").post(f"/campaigns/{campaign.pk}/gm/undo/", {}, follow=True)
    assert "Not undone: there is nothing left to undo." in answer.content.decode()
    assert as_user("player").post(f"/campaigns/{campaign.pk}/gm/undo/", {}).status_code == 404
    assert as_user("gm").get(f"/campaigns/{campaign.pk}/gm/undo/").status_code == 405
