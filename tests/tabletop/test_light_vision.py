"""Light and darkness decided on the server: in a dark scene a player's
group sees only what its tokens' dark vision reaches or a light lights; a
dim scene is seen out to its reach; lights placed, turned off, carried and
moved change the view at once (docs/vision.md)."""

import pytest

from vtt.fog.lights import DIM_SIGHT_FT
from vtt.maps.light_edits import light_place, light_remove, light_update
from vtt.tabletop import policy, selectors, services
from vtt.tabletop.event_kinds import SIGHT
from vtt.tabletop.models import Campaign, Role, RoomEvent
from vtt.tabletop.services.scenes import scene_set_door

from .crypt import DOOR, make_crypt

pytestmark = pytest.mark.django_db


@pytest.fixture
def crypt():
    return make_crypt()


def dark(c, lighting="dark"):
    services.scene_update(scene_id=c.scene.pk, by=c.gm, fog=True, lighting=lighting)


def player(c):
    campaign = Campaign.objects.get(pk=c.campaign.pk)
    return policy.viewer_in(c.player.pk, Role.PLAYER, campaign.settings)


def seen(c) -> set[str]:
    return {t.name for t in selectors.tokens_for(player(c), c.scene.pk)}


def last_view(c) -> dict:
    return policy.event_view(RoomEvent.objects.order_by("-id").first(), player(c))


def test_a_dark_scene_hides_what_no_light_reaches(crypt):
    dark(crypt)
    # The party's own tokens stand where they stand; nothing else is seen.
    assert seen(crypt) == {"Tenrec", "Mara"}
    view = last_view(crypt)
    assert {t for t in view["data"][SIGHT]["leave"]} == {crypt.orc.pk, crypt.goblin.pk}


def test_a_lit_scene_is_as_before_whatever_its_lights(crypt):
    services.scene_update(scene_id=crypt.scene.pk, by=crypt.gm, fog=True)
    light_place(scene_id=crypt.scene.pk, by=crypt.gm, x=18, y=18, bright=1, dim=1, on=False)
    assert seen(crypt) == {"Tenrec", "Mara", "Orc"}


def test_a_map_light_shows_what_it_lights_and_turned_off_hides_it_again(crypt):
    dark(crypt)
    brazier = light_place(scene_id=crypt.scene.pk, by=crypt.gm, x=5.5, y=13.5, bright=2, dim=3)
    view = last_view(crypt)
    assert view["type"] == "sight.changed"  # the event itself is the GM's under fog
    assert [t["name"] for t in view["data"]["enter"]] == ["Orc"]
    assert "5.5" not in str(view)  # nor where the light stands
    assert seen(crypt) == {"Tenrec", "Mara", "Orc"}
    light_update(light_id=brazier.pk, by=crypt.gm, on=False)
    assert last_view(crypt) == {
        "seq": last_view(crypt)["seq"],
        "type": "sight.changed",
        "data": {"enter": [], "leave": [crypt.orc.pk]},
    }
    assert seen(crypt) == {"Tenrec", "Mara"}
    light_update(light_id=brazier.pk, by=crypt.gm, on=True)
    assert "Orc" in seen(crypt)
    light_remove(light_id=brazier.pk, by=crypt.gm)
    assert "Orc" not in seen(crypt)


def test_a_light_that_reaches_a_token_out_of_line_of_sight_shows_nothing(crypt):
    dark(crypt)
    # A lamp in the goblin's room: lit, but behind the wall and its closed door.
    light_place(scene_id=crypt.scene.pk, by=crypt.gm, x=15.5, y=8.5, bright=3, dim=5)
    assert "Goblin" not in seen(crypt)
    assert last_view(crypt)["type"] == "redacted"  # nothing changed for the party


def test_a_door_opened_into_a_dark_room_shows_nothing_until_it_is_lit(crypt):
    dark(crypt)
    scene_set_door(scene_id=crypt.scene.pk, by=crypt.gm, wall=DOOR, state="open")
    assert "Goblin" not in seen(crypt)
    assert "Goblin" not in str(last_view(crypt))
    light_place(scene_id=crypt.scene.pk, by=crypt.gm, x=14.5, y=8.5, bright=1, dim=2)
    assert "Goblin" in seen(crypt)


def test_dark_vision_sees_without_light_as_far_as_it_reaches(crypt):
    dark(crypt)
    # The orc's centre is 7.6 squares from Tenrec's.
    services.token_update(token_id=crypt.tenrec.pk, by=crypt.gm, sight_ft=35)
    assert "Orc" not in seen(crypt)
    services.token_update(token_id=crypt.tenrec.pk, by=crypt.gm, sight_ft=40)
    assert "Orc" in seen(crypt)


def test_a_dim_scene_is_seen_out_to_its_reach_and_no_further(crypt):
    dark(crypt, "dim")
    assert seen(crypt) == {"Tenrec", "Mara", "Orc"}  # 7.6 squares off
    assert DIM_SIGHT_FT // 5 < 13
    services.token_move(token_id=crypt.orc.pk, by=crypt.gm, x=2, y=19)  # 11 squares: seen
    assert "Orc" in seen(crypt)
    services.token_move(token_id=crypt.tenrec.pk, by=crypt.gm, x=2, y=0)  # 19 from the orc
    services.token_move(token_id=crypt.mara.pk, by=crypt.gm, x=9, y=0)
    assert "Orc" not in seen(crypt)


def test_a_carried_light_goes_with_its_token_and_its_owner_turns_it_on_and_off(crypt):
    dark(crypt)
    torch = light_place(
        scene_id=crypt.scene.pk, by=crypt.gm, token_id=crypt.tenrec.pk, bright=2, dim=4
    )
    assert "Orc" not in seen(crypt)  # 7.6 squares off
    services.token_move(token_id=crypt.tenrec.pk, by=crypt.player, x=4, y=12)
    assert "Orc" in seen(crypt)  # the torch came with him
    light_update(light_id=torch.pk, by=crypt.player, on=False)
    assert "Orc" not in seen(crypt)
    light_update(light_id=torch.pk, by=crypt.player, on=True)
    assert "Orc" in seen(crypt)
    # A hidden token's light lights nothing: it would tell where it stands.
    services.token_move(token_id=crypt.mara.pk, by=crypt.gm, x=3, y=12)  # by the torch
    assert "Orc" in seen(crypt)
    services.token_set_hidden(token_id=crypt.tenrec.pk, by=crypt.gm, hidden=True)
    assert "Orc" not in seen(crypt)
