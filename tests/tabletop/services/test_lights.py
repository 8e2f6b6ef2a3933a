"""The light services: the GM places, changes and removes lights; a token's
owner turns the light it carries on and off; bad input names its field and
stores nothing; each change is one light.changed event."""

import pytest

from vtt.maps.light_edits import light_place, light_remove, light_update
from vtt.tabletop.models import Light
from vtt.tabletop.services.errors import NotAllowed, NotFound, ServiceError

from ..crypt import make_crypt
from ..helpers import events_after, last_seq

pytestmark = pytest.mark.django_db


@pytest.fixture
def crypt():
    return make_crypt()


def place(c, by=None, **fields):
    fields = {"x": 4.5, "y": 4.5, "bright": 2, "dim": 4, **fields}
    return light_place(scene_id=c.scene.pk, by=by or c.gm, **fields)


def test_each_change_is_one_event_public_without_fog(crypt):
    seq = last_seq(crypt.campaign)
    light = place(crypt, color="#FFCC66", shadows=False)
    light_update(light_id=light.pk, by=crypt.gm, x=6, dim=5)
    light_remove(light_id=light.pk, by=crypt.gm)
    events = events_after(crypt.campaign, seq)
    assert [(e.kind, e.data["action"], e.visibility) for e in events] == [
        ("light.changed", "placed", "public"),
        ("light.changed", "changed", "public"),
        ("light.changed", "removed", "public"),
    ]
    assert events[0].data["light"]["color"] == "#ffcc66"
    assert events[1].data["light"]["x"] == 6 and events[1].data["light"]["dim"] == 5
    assert events[2].data["light"]["id"] == light.pk
    assert not Light.objects.exists()


def test_under_fog_a_light_event_is_the_gms(crypt):
    from vtt.tabletop import services

    services.scene_update(scene_id=crypt.scene.pk, by=crypt.gm, fog=True)
    seq = last_seq(crypt.campaign)
    place(crypt)
    assert [e.visibility for e in events_after(crypt.campaign, seq)] == ["gm"]


def test_an_unchanged_light_logs_nothing(crypt):
    light = place(crypt)
    seq = last_seq(crypt.campaign)
    light_update(light_id=light.pk, by=crypt.gm, on=True, dim=4)
    assert events_after(crypt.campaign, seq) == []


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"x": -1}, "x"),
        ({"y": 21}, "y"),
        ({"x": float("nan")}, "x"),
        ({"dim": float("inf")}, "dim"),
        ({"bright": 5, "dim": 3}, "dim"),
        ({"bright": -1}, "bright"),
        ({"color": "orange"}, "color"),
        ({"intensity": 11}, "intensity"),
        ({"shadows": "yes"}, "shadows"),
        ({"on": 1}, "on"),
        ({"radius": 3}, "radius"),
        ({"x": "3"}, "x"),
    ],
)
def test_bad_input_names_its_field_and_stores_nothing(crypt, fields, field):
    seq = last_seq(crypt.campaign)
    with pytest.raises(ServiceError) as refused:
        place(crypt, **fields)
    assert refused.value.field == field
    assert not Light.objects.exists()
    light = place(crypt)
    seq = last_seq(crypt.campaign)
    with pytest.raises(ServiceError) as refused:
        light_update(light_id=light.pk, by=crypt.gm, **fields)
    assert refused.value.field == field
    assert events_after(crypt.campaign, seq) == []


def test_a_map_light_needs_a_place_and_a_carried_light_takes_none(crypt):
    with pytest.raises(ServiceError) as refused:
        light_place(scene_id=crypt.scene.pk, by=crypt.gm, x=3, dim=2)
    assert refused.value.field == "y"
    torch = light_place(
        scene_id=crypt.scene.pk, by=crypt.gm, token_id=crypt.tenrec.pk, bright=2, dim=4
    )
    with pytest.raises(ServiceError) as refused:
        light_update(light_id=torch.pk, by=crypt.gm, x=3)
    assert refused.value.field == "x"
    with pytest.raises(ServiceError) as refused:
        light_place(scene_id=crypt.scene.pk, by=crypt.gm, token_id=10**9, dim=2)
    assert refused.value.field == "token_id"


def test_players_place_change_and_remove_no_light(crypt):
    with pytest.raises(NotAllowed):
        place(crypt, by=crypt.player)
    light = place(crypt)
    with pytest.raises(NotAllowed):
        light_update(light_id=light.pk, by=crypt.player, on=False)
    with pytest.raises(NotAllowed):
        light_remove(light_id=light.pk, by=crypt.player)
    assert Light.objects.get(pk=light.pk).on


def test_a_tokens_owner_turns_its_light_on_and_off_and_nothing_more(crypt):
    torch = light_place(
        scene_id=crypt.scene.pk, by=crypt.gm, token_id=crypt.tenrec.pk, bright=2, dim=4
    )
    light_update(light_id=torch.pk, by=crypt.player, on=False)
    assert not Light.objects.get(pk=torch.pk).on
    with pytest.raises(NotAllowed):
        light_update(light_id=torch.pk, by=crypt.player, dim=9)
    with pytest.raises(NotAllowed):
        light_update(light_id=torch.pk, by=crypt.other, on=True)  # Mara's player
    assert not Light.objects.get(pk=torch.pk).on


def test_under_fog_another_players_light_is_not_there(crypt):
    from vtt.tabletop import services

    services.scene_update(scene_id=crypt.scene.pk, by=crypt.gm, fog=True)
    lamp = place(crypt)
    with pytest.raises(NotFound):
        light_update(light_id=lamp.pk, by=crypt.player, on=False)


def test_a_stranger_finds_no_light_and_no_scene(crypt):
    from django.contrib.auth import get_user_model

    stranger = get_user_model().objects.create_user("stranger")
    light = place(crypt)
    with pytest.raises(NotFound):
        light_update(light_id=light.pk, by=stranger, on=False)
    with pytest.raises(NotFound):
        place(crypt, by=stranger)
